import bs58 from "bs58";
import { createHash } from "node:crypto";
import type { NewOffer } from "../../lib/db/writes";
import type { NewFill } from "../../lib/db/writes";

/** A deterministic base58 address (32 bytes) for a label, so failures name the same keys each run. */
export function addressOf(label: string): string {
  return bs58.encode(createHash("sha256").update(`address:${label}`).digest());
}

/** A deterministic 64-byte transaction signature, base58 as on chain. */
export function signatureOf(label: string): string {
  const a = createHash("sha512").update(`signature:${label}`).digest();
  return bs58.encode(a);
}

export const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
export const USDT = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB";
export const WSOL = "So11111111111111111111111111111111111111112";

const HOUR = 3600_000;

export function offerFixture(label: string, overrides: Partial<NewOffer> = {}): NewOffer {
  return {
    pda: addressOf(`offer:${label}`),
    maker: addressOf("maker:default"),
    tokenMint: addressOf("token:default"),
    paymentMint: USDC,
    side: "sell",
    nonce: 1n,
    originalSize: 1_000_000n,
    remainingSize: 1_000_000n,
    pricePerToken: 2_500_000n,
    priceScale: 6,
    minFill: 1n,
    createdAt: new Date("2026-06-01T00:00:00Z"),
    expiresAt: new Date(Date.now() + 24 * HOUR),
    lastSlot: 100n,
    createdSlot: 100n,
    createdSignature: signatureOf(`create:${label}`),
    ...overrides,
  };
}

export function fillFixture(label: string, offerPda: string, overrides: Partial<NewFill> = {}): NewFill {
  return {
    signature: signatureOf(`fill:${label}`),
    ixIndex: 0,
    offerPda,
    taker: addressOf("taker:default"),
    fillAmount: 1_000n,
    paymentAmount: 2_500n,
    feeAmount: 5n,
    blockTime: new Date("2026-06-02T00:00:00Z"),
    slot: 200n,
    ...overrides,
  };
}
