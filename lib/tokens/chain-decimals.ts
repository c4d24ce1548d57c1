import { PublicKey, type AccountInfo } from "@solana/web3.js";
import { retryWithin } from "../resilience";
import { jsonRpc } from "../rpc/json-rpc";

export const TOKEN_PROGRAM_ID = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
export const TOKEN_2022_PROGRAM_ID = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";

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

type MintCandidate = { owner: PublicKey | string; data: Uint8Array } | Pick<AccountInfo<Buffer>, "owner" | "data">;

/** Decimals of an initialized SPL Token or Token-2022 mint account; null for anything else. */
export function mintDecimals(account: MintCandidate | null): number | null {
  if (!account) return null;
  const owner = typeof account.owner === "string" ? account.owner : account.owner.toBase58();
  const data = account.data;
  if (owner !== TOKEN_PROGRAM_ID && owner !== TOKEN_2022_PROGRAM_ID) return null;
  const isMint =
    data.length === MINT_SIZE ||
    (owner === TOKEN_2022_PROGRAM_ID && data.length > ACCOUNT_TYPE_OFFSET && data[ACCOUNT_TYPE_OFFSET] === ACCOUNT_TYPE_MINT);
  if (!isMint || data[INITIALIZED_OFFSET] !== 1) return null;
  return data[DECIMALS_OFFSET] ?? null;
}

export interface ChainReadOptions {
  /** Epoch ms by which the answer is needed; attempts are retried with back-off until then. */
  deadlineAt: number;
}

export interface ChainDecimalsReader {
  /** Decimals by mint (null: not a mint account); one RPC call per 100 mints. Rejects when the chain cannot answer in time. */
  read(mints: readonly string[], options?: ChainReadOptions): Promise<Map<string, number | null>>;
}

export interface ChainDecimalsReaderOptions {
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

function checkAccounts(reply: { value?: unknown } | null, expected: number): Array<RpcAccount | null> {
  const value = reply?.value;
  if (!Array.isArray(value) || value.length !== expected) throw new Error("RPC answer is not a list of accounts");
  return value as Array<RpcAccount | null>;
}

export function createChainDecimalsReader(rpcUrl: string, { timeoutMs, onCall, onRetry }: ChainDecimalsReaderOptions): ChainDecimalsReader {
  // Validated here so that a bad key fails the request, not every retry.
  const keys = (chunk: readonly string[]) => chunk.map((m) => new PublicKey(m).toBase58());

  async function fetchChunk(chunk: readonly string[], attemptMs: number): Promise<Array<number | null>> {
    onCall?.();
    const params = [keys(chunk), { encoding: "base64", commitment: "confirmed" }];
    const reply = await jsonRpc<{ value?: unknown } | null>(rpcUrl, "getMultipleAccounts", params, AbortSignal.timeout(attemptMs));
    const accounts = checkAccounts(reply, chunk.length);
    return accounts.map((a) => (a ? mintDecimals({ owner: a.owner, data: Buffer.from(a.data[0], "base64") }) : null));
  }

  return {
    async read(mints, options) {
      const deadlineAt = options?.deadlineAt ?? Date.now() + timeoutMs;
      const out = new Map<string, number | null>();
      for (let i = 0; i < mints.length; i += MAX_ACCOUNTS_PER_CALL) {
        const chunk = mints.slice(i, i + MAX_ACCOUNTS_PER_CALL);
        const decimals = await retryWithin((ms) => fetchChunk(chunk, ms), { deadlineAt, attemptTimeoutMs: timeoutMs, onRetry });
        chunk.forEach((mint, j) => out.set(mint, decimals[j] ?? null));
      }
      return out;
    },
  };
}
