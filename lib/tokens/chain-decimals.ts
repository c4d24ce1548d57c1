import { Connection, PublicKey, type AccountInfo } from "@solana/web3.js";

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

/** Decimals of an initialized SPL Token or Token-2022 mint account; null for anything else. */
export function mintDecimals(account: Pick<AccountInfo<Buffer>, "owner" | "data"> | null): number | null {
  if (!account) return null;
  const owner = account.owner.toBase58();
  const data = account.data;
  if (owner !== TOKEN_PROGRAM_ID && owner !== TOKEN_2022_PROGRAM_ID) return null;
  const isMint =
    data.length === MINT_SIZE ||
    (owner === TOKEN_2022_PROGRAM_ID && data.length > ACCOUNT_TYPE_OFFSET && data[ACCOUNT_TYPE_OFFSET] === ACCOUNT_TYPE_MINT);
  if (!isMint || data[INITIALIZED_OFFSET] !== 1) return null;
  return data[DECIMALS_OFFSET] ?? null;
}

export interface ChainDecimalsReader {
  /** Decimals by mint (null: not a mint account); one RPC call per 100 mints. */
  read(mints: readonly string[]): Promise<Map<string, number | null>>;
}

export function createChainDecimalsReader(rpcUrl: string, { timeoutMs, onCall }: { timeoutMs: number; onCall?: () => void }): ChainDecimalsReader {
  const connection = new Connection(rpcUrl, {
    commitment: "confirmed",
    // web3.js retries 429s itself with growing sleeps; a bounded request falls back instead.
    disableRetryOnRateLimit: true,
    fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }),
  });

  return {
    async read(mints) {
      const out = new Map<string, number | null>();
      for (let i = 0; i < mints.length; i += MAX_ACCOUNTS_PER_CALL) {
        const chunk = mints.slice(i, i + MAX_ACCOUNTS_PER_CALL);
        onCall?.();
        const accounts = await connection.getMultipleAccountsInfo(chunk.map((m) => new PublicKey(m)));
        chunk.forEach((mint, j) => out.set(mint, mintDecimals(accounts[j] ?? null)));
      }
      return out;
    },
  };
}
