import { PAYMENT_MINTS, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../../lib/program";
import { deriveKeypair } from "./keys";

export type TokenProgramKind = "spl-token" | "token-2022";

export interface LocalMint {
  readonly address: string;
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
  readonly tokenProgram: TokenProgramKind;
  /** What one whole token is worth in USD when the simulator starts; prices then drift. */
  readonly referenceUsd: number;
  readonly role: "token" | "payment";
  /**
   * A mint a buyer should be warned about: its authority may also freeze
   * holders' accounts and, by a PermanentDelegate extension (Token-2022), move
   * or burn their tokens. Neither changes how the local cluster trades it.
   */
  readonly risky?: boolean;
}

/**
 * Mints outside the four payment mints, for the simulator to trade. Real
 * mainnet addresses and decimals, so a token-metadata service with internet
 * shows real names and logos; the local cluster serves their mint accounts.
 * LTT is a local Token-2022 mint with 0 decimals and no metadata anywhere,
 * for the unknown-token and integer-unit paths, and a risky one (freeze
 * authority, permanent delegate) for the token-safety warnings.
 */
export const LOCAL_TOKEN_MINTS: readonly LocalMint[] = [
  { address: "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN", symbol: "JUP", name: "Jupiter", decimals: 6, tokenProgram: "spl-token", referenceUsd: 0.85, role: "token" },
  { address: "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263", symbol: "Bonk", name: "Bonk", decimals: 5, tokenProgram: "spl-token", referenceUsd: 0.000022, role: "token" },
  { address: "EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm", symbol: "WIF", name: "dogwifhat", decimals: 6, tokenProgram: "spl-token", referenceUsd: 1.9, role: "token" },
  { address: "HZ1JovNiVvGrGNiiYvEozEVgZ58xaU3RKwX8eACQBCt3", symbol: "PYTH", name: "Pyth Network", decimals: 6, tokenProgram: "spl-token", referenceUsd: 0.35, role: "token" },
  { address: "jtojtomepa8beP8AuQc6eXt5FriJwfFMwQx2v2f9mCL", symbol: "JTO", name: "Jito", decimals: 9, tokenProgram: "spl-token", referenceUsd: 2.4, role: "token" },
  { address: "4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R", symbol: "RAY", name: "Raydium", decimals: 6, tokenProgram: "spl-token", referenceUsd: 2.1, role: "token" },
  { address: "orcaEKTdK7LKz57vaAYr9QeNsVEPfiu6QeMU1kektZE", symbol: "ORCA", name: "Orca", decimals: 6, tokenProgram: "spl-token", referenceUsd: 2.8, role: "token" },
  { address: "mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So", symbol: "mSOL", name: "Marinade staked SOL", decimals: 9, tokenProgram: "spl-token", referenceUsd: 185, role: "token" },
  { address: "2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo", symbol: "PYUSD", name: "PayPal USD", decimals: 6, tokenProgram: "token-2022", referenceUsd: 1, role: "token" },
  {
    address: deriveKeypair("local-cluster", "mint/LTT").address,
    symbol: "LTT",
    name: "Localnet Test Token",
    decimals: 0,
    tokenProgram: "token-2022",
    referenceUsd: 12.5,
    role: "token",
    risky: true,
  },
];

const PAYMENT_USD: Record<string, number> = { USDC: 1, USDT: 1, SOL: 150 };

/** The four accepted payment mints with the metadata the simulator needs. */
export const LOCAL_PAYMENT_MINTS: readonly LocalMint[] = PAYMENT_MINTS.map((m) => ({
  address: m.address,
  symbol: m.symbol,
  name: m.name,
  decimals: m.decimals,
  tokenProgram: "spl-token" as const,
  referenceUsd: PAYMENT_USD[m.symbol] ?? 1,
  role: "payment" as const,
}));

export const ALL_LOCAL_MINTS: readonly LocalMint[] = [...LOCAL_TOKEN_MINTS, ...LOCAL_PAYMENT_MINTS];

export function tokenProgramAddress(kind: TokenProgramKind): string {
  return kind === "token-2022" ? TOKEN_2022_PROGRAM_ADDRESS : TOKEN_PROGRAM_ADDRESS;
}

export const MINT_SIZE = 82;
export const TOKEN_ACCOUNT_SIZE = 165;
/** Token-2022: the account-type byte after the 165-byte base (1 = mint, 2 = token account). */
const TOKEN_2022_ACCOUNT_TYPE_OFFSET = 165;
const EXTENSION_MINT_CLOSE_AUTHORITY = 3;
const EXTENSION_IMMUTABLE_OWNER = 7;
const EXTENSION_PERMANENT_DELEGATE = 12;

function writeU64(view: DataView, offset: number, value: bigint): void {
  view.setBigUint64(offset, value, true);
}

/**
 * SPL Token mint layout: mint_authority COption<Pubkey> (36), supply u64 at 36,
 * decimals u8 at 44, is_initialized at 45, freeze_authority COption<Pubkey> at 46.
 * Token-2022 mints carry an account-type byte at 165 and TLV extensions after
 * it (u16 type, u16 length, value): here MintCloseAuthority, then for a risky
 * mint PermanentDelegate, each holding the mint authority.
 */
export function encodeMint(args: { mintAuthority: Uint8Array; supply: bigint; decimals: number; kind: TokenProgramKind; risky?: boolean }): Uint8Array {
  const extensions = args.kind === "token-2022" ? [EXTENSION_MINT_CLOSE_AUTHORITY, ...(args.risky ? [EXTENSION_PERMANENT_DELEGATE] : [])] : [];
  const data = new Uint8Array(extensions.length > 0 ? TOKEN_2022_ACCOUNT_TYPE_OFFSET + 1 + extensions.length * (4 + 32) : MINT_SIZE);
  const view = new DataView(data.buffer);
  view.setUint32(0, 1, true);
  data.set(args.mintAuthority, 4);
  writeU64(view, 36, args.supply);
  data[44] = args.decimals;
  data[45] = 1;
  if (args.risky) {
    view.setUint32(46, 1, true);
    data.set(args.mintAuthority, 50);
  }
  if (extensions.length > 0) data[TOKEN_2022_ACCOUNT_TYPE_OFFSET] = 1;
  extensions.forEach((type, i) => {
    const tlv = TOKEN_2022_ACCOUNT_TYPE_OFFSET + 1 + i * (4 + 32);
    view.setUint16(tlv, type, true);
    view.setUint16(tlv + 2, 32, true);
    data.set(args.mintAuthority, tlv + 4);
  });
  return data;
}

/** A Token-2022 mint's extensions as (type, value) pairs, walking its TLV area; empty for an 82-byte mint. */
export function mintExtensions(data: Uint8Array): Array<{ type: number; value: Uint8Array }> {
  const out: Array<{ type: number; value: Uint8Array }> = [];
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let at = TOKEN_2022_ACCOUNT_TYPE_OFFSET + 1; at + 4 <= data.length; ) {
    const type = view.getUint16(at, true);
    const end = at + 4 + view.getUint16(at + 2, true);
    if (type === 0 || end > data.length) break;
    out.push({ type, value: data.subarray(at + 4, end) });
    at = end;
  }
  return out;
}

export const NATIVE_MINT = "So11111111111111111111111111111111111111112";
const IS_NATIVE_OFFSET = 109;

/**
 * SPL token account: mint 0..32, owner 32..64, amount u64 at 64, state at 108
 * (1 = initialized), is_native COption<u64> at 109 (the rent-exempt reserve of
 * a wrapped-SOL account, whose lamports above it are its amount).
 */
export function encodeTokenAccount(args: {
  mint: Uint8Array;
  owner: Uint8Array;
  amount: bigint;
  kind: TokenProgramKind;
  nativeReserve?: bigint;
}): Uint8Array {
  const withExtensions = args.kind === "token-2022";
  const data = new Uint8Array(withExtensions ? TOKEN_ACCOUNT_SIZE + 1 + 4 : TOKEN_ACCOUNT_SIZE);
  const view = new DataView(data.buffer);
  data.set(args.mint, 0);
  data.set(args.owner, 32);
  writeU64(view, 64, args.amount);
  data[108] = 1;
  if (args.nativeReserve !== undefined) {
    view.setUint32(IS_NATIVE_OFFSET, 1, true);
    writeU64(view, IS_NATIVE_OFFSET + 4, args.nativeReserve);
  }
  if (withExtensions) {
    data[TOKEN_ACCOUNT_SIZE] = 2;
    view.setUint16(TOKEN_ACCOUNT_SIZE + 1, EXTENSION_IMMUTABLE_OWNER, true);
    view.setUint16(TOKEN_ACCOUNT_SIZE + 3, 0, true);
  }
  return data;
}

export const TOKEN_AMOUNT_OFFSET = 64;

export function tokenAccountAmount(data: Uint8Array): bigint {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(TOKEN_AMOUNT_OFFSET, true);
}

export function withTokenAccountAmount(data: Uint8Array, amount: bigint): Uint8Array {
  const copy = data.slice();
  new DataView(copy.buffer).setBigUint64(TOKEN_AMOUNT_OFFSET, amount, true);
  return copy;
}

/** The rent-exempt reserve of a wrapped-SOL account, null for any other token account. */
export function nativeReserveOf(data: Uint8Array): bigint | null {
  if (data.length < TOKEN_ACCOUNT_SIZE) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return view.getUint32(IS_NATIVE_OFFSET, true) === 1 ? view.getBigUint64(IS_NATIVE_OFFSET + 4, true) : null;
}

/** A token account's data (not a mint's): 165 bytes, or Token-2022's with account type 2 after them. */
export function isTokenAccountData(data: Uint8Array): boolean {
  return (data.length === TOKEN_ACCOUNT_SIZE || (data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] === 2)) && data[108] !== 0;
}

export function mintDecimals(data: Uint8Array): number | undefined {
  return data.length >= MINT_SIZE ? data[44] : undefined;
}

/** Address lookup table: a 56-byte header (type 1, deactivation slot u64::MAX, authority) then 32-byte addresses. */
export const LOOKUP_TABLE_META_SIZE = 56;

export function encodeLookupTable(args: { authority: Uint8Array; lastExtendedSlot: bigint; addresses: Uint8Array[] }): Uint8Array {
  const data = new Uint8Array(LOOKUP_TABLE_META_SIZE + 32 * args.addresses.length);
  const view = new DataView(data.buffer);
  view.setUint32(0, 1, true);
  writeU64(view, 4, (1n << 64n) - 1n);
  writeU64(view, 12, args.lastExtendedSlot);
  data[20] = 0;
  data[21] = 1;
  data.set(args.authority, 22);
  args.addresses.forEach((a, i) => data.set(a, LOOKUP_TABLE_META_SIZE + 32 * i));
  return data;
}
