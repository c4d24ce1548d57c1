/**
 * The offer-book program's constants, as docs/program.md#constants states them.
 * Amounts are bigint because the program computes them in u64/u128.
 */

export const FEE_BPS = 20n;
export const FEE_DENOMINATOR = 10_000n;
export const MAX_PRICE_SCALE = 18;
/** An offer may expire at most this long after the block time of its create_offer. */
export const MAX_EXPIRY_SECONDS = 2_592_000n;
/** Deposited by the maker in the offer account; paid to whoever cranks expire_offer. */
export const EXPIRY_BOUNTY_LAMPORTS = 1_000_000n;

/** 32 bytes in base58: 32 characters (all zero bytes) to 44. A pattern's source, to compose into others. */
export const BASE58_ADDRESS = "[1-9A-HJ-NP-Za-km-z]{32,44}";

export const U64_MAX = (1n << 64n) - 1n;
export const I64_MAX = (1n << 63n) - 1n;
export const I64_MIN = -(1n << 63n);

export interface PaymentMint {
  readonly address: string;
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
  readonly network: "mainnet" | "devnet";
}

/** The only mints create_offer accepts as payment; all four are classic SPL Token mints. */
export const PAYMENT_MINTS: readonly PaymentMint[] = [
  { address: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", symbol: "USDC", name: "USD Coin", decimals: 6, network: "mainnet" },
  { address: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU", symbol: "USDC", name: "USD Coin (devnet)", decimals: 6, network: "devnet" },
  { address: "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", symbol: "USDT", name: "Tether USD", decimals: 6, network: "mainnet" },
  { address: "So11111111111111111111111111111111111111112", symbol: "SOL", name: "Wrapped SOL", decimals: 9, network: "mainnet" },
];

const PAYMENT_MINT_BY_ADDRESS = new Map(PAYMENT_MINTS.map((m) => [m.address, m]));

export function paymentMintInfo(address: string): PaymentMint | undefined {
  return PAYMENT_MINT_BY_ADDRESS.get(address);
}

export function isAcceptedPaymentMint(address: string): boolean {
  return PAYMENT_MINT_BY_ADDRESS.has(address);
}

export const TOKEN_PROGRAM_ADDRESS = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
export const TOKEN_2022_PROGRAM_ADDRESS = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
export const SYSTEM_PROGRAM_ADDRESS = "11111111111111111111111111111111";
