import { unpackMint } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../program/constants";
import { retryWithin } from "../resilience";
import { jsonRpc } from "../rpc/json-rpc";
import { mintSafety, type MintSafety } from "./mint-safety";

/** getMultipleAccounts accepts at most 100 keys per call. */
export const MAX_ACCOUNTS_PER_CALL = 100;

// SPL mint layout: mint_authority COption<Pubkey> (36), supply u64 (8),
// decimals u8 at 44, is_initialized bool at 45, freeze_authority (36) = 82.
const MINT_SIZE = 82;
const DECIMALS_OFFSET = 44;
const INITIALIZED_OFFSET = 45;
// Token-2022 pads a mint with extensions to the token-account size, then an account-type byte (1 = mint).
const ACCOUNT_TYPE_OFFSET = 165;
const ACCOUNT_TYPE_MINT = 1;

/** What one read of a mint account says: its decimals (which never change) and its safety facts (which may). */
export interface ChainMint {
  decimals: number;
  /** null only for a mint whose extension data does not decode (the program never writes one). */
  safety: (MintSafety & { slot: number }) | null;
}

/** An initialized SPL Token or Token-2022 mint account, read; null for any other account (or none). */
export function readMintAccount(account: { owner: string; data: Buffer } | null, slot: number): ChainMint | null {
  if (!account) return null;
  const { owner, data } = account;
  if (owner !== TOKEN_PROGRAM_ADDRESS && owner !== TOKEN_2022_PROGRAM_ADDRESS) return null;
  const isMint =
    data.length === MINT_SIZE ||
    (owner === TOKEN_2022_PROGRAM_ADDRESS && data.length > ACCOUNT_TYPE_OFFSET && data[ACCOUNT_TYPE_OFFSET] === ACCOUNT_TYPE_MINT);
  const decimals = data[DECIMALS_OFFSET];
  if (!isMint || data[INITIALIZED_OFFSET] !== 1 || decimals === undefined) return null;
  const program = new PublicKey(owner);
  let safety: ChainMint["safety"];
  try {
    // The address only labels the result; the program id is checked against the owner.
    const mint = unpackMint(program, { owner: program, data, lamports: 0, executable: false }, program);
    safety = { ...mintSafety(mint, owner === TOKEN_PROGRAM_ADDRESS ? "spl-token" : "token-2022"), slot };
  } catch {
    safety = null;
  }
  return { decimals, safety };
}

export interface ChainReadOptions {
  /** Epoch ms by which the answer is needed; attempts are retried with back-off until then. */
  deadlineAt: number;
}

export interface ChainMintReader {
  /** Each mint's account, read (null: not a mint account); one RPC call per 100 mints. Rejects when the chain cannot answer in time. */
  read(mints: readonly string[], options?: ChainReadOptions): Promise<Map<string, ChainMint | null>>;
}

export interface ChainMintReaderOptions {
  /** Longest one RPC request may take. */
  timeoutMs: number;
  /** Every request sent, whatever its outcome. */
  onCall?(): void;
  /** A failed attempt that will be tried again. */
  onRetry?(error: unknown): void;
}

interface RpcAccount {
  owner: string;
  data: [string, string];
}

interface RpcReply {
  context?: { slot?: unknown };
  value?: unknown;
}

function checkAccounts(reply: RpcReply | null, expected: number): { slot: number; accounts: Array<RpcAccount | null> } {
  const value = reply?.value;
  if (!Array.isArray(value) || value.length !== expected) throw new Error("RPC answer is not a list of accounts");
  const slot = reply?.context?.slot;
  return { slot: typeof slot === "number" ? slot : 0, accounts: value as Array<RpcAccount | null> };
}

export function createChainMintReader(rpcUrl: string, { timeoutMs, onCall, onRetry }: ChainMintReaderOptions): ChainMintReader {
  // Validated here so that a bad key fails the request, not every retry.
  const keys = (chunk: readonly string[]) => chunk.map((m) => new PublicKey(m).toBase58());

  async function fetchChunk(chunk: readonly string[], attemptMs: number): Promise<Array<ChainMint | null>> {
    onCall?.();
    const params = [keys(chunk), { encoding: "base64", commitment: "confirmed" }];
    const reply = await jsonRpc<RpcReply | null>(rpcUrl, "getMultipleAccounts", params, AbortSignal.timeout(attemptMs));
    const { slot, accounts } = checkAccounts(reply, chunk.length);
    return accounts.map((a) => (a ? readMintAccount({ owner: a.owner, data: Buffer.from(a.data[0], "base64") }, slot) : null));
  }

  return {
    async read(mints, options) {
      const deadlineAt = options?.deadlineAt ?? Date.now() + timeoutMs;
      const out = new Map<string, ChainMint | null>();
      for (let i = 0; i < mints.length; i += MAX_ACCOUNTS_PER_CALL) {
        const chunk = mints.slice(i, i + MAX_ACCOUNTS_PER_CALL);
        const read = await retryWithin((ms) => fetchChunk(chunk, ms), { deadlineAt, attemptTimeoutMs: timeoutMs, onRetry });
        chunk.forEach((mint, j) => out.set(mint, read[j] ?? null));
      }
      return out;
    },
  };
}
