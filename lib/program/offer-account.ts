import { type Address, ByteReader, ByteWriter } from "./bytes";
import { hasDiscriminator, OFFER_ACCOUNT_DISCRIMINATOR } from "./discriminators";

export const OFFER_ACCOUNT_SIZE = 164;

export const OFFER_SIDES = ["sell", "buy"] as const;
/** sell: the maker sells tokens for payment; buy: the maker pays to receive tokens. */
export type OfferSide = (typeof OFFER_SIDES)[number];

export const OFFER_STATES = ["active", "filled", "cancelled", "expired"] as const;
export type OfferState = (typeof OFFER_STATES)[number];

export function sideFromByte(byte: number): OfferSide | null {
  return OFFER_SIDES[byte] ?? null;
}
export function sideToByte(side: OfferSide): number {
  return OFFER_SIDES.indexOf(side);
}
export function stateFromByte(byte: number): OfferState | null {
  return OFFER_STATES[byte] ?? null;
}
export function stateToByte(state: OfferState): number {
  return OFFER_STATES.indexOf(state);
}

/** Byte offsets of the Offer account's fields (docs/program.md#the-offer-account). */
export const OFFER_FIELD_OFFSETS = {
  discriminator: 0,
  maker: 8,
  tokenMint: 40,
  paymentMint: 72,
  side: 104,
  nonce: 105,
  originalSize: 113,
  remainingSize: 121,
  pricePerToken: 129,
  priceScale: 137,
  minFill: 138,
  createdAt: 146,
  expiresAt: 154,
  state: 162,
  bump: 163,
} as const;

export interface OfferAccount {
  maker: Address;
  tokenMint: Address;
  paymentMint: Address;
  side: OfferSide;
  nonce: bigint;
  originalSize: bigint;
  remainingSize: bigint;
  pricePerToken: bigint;
  priceScale: number;
  minFill: bigint;
  /** Unix seconds. */
  createdAt: bigint;
  /** Unix seconds. */
  expiresAt: bigint;
  state: OfferState;
  bump: number;
}

const O = OFFER_FIELD_OFFSETS;

/**
 * Decodes an Offer account's data; null when the data is not an Offer (wrong
 * discriminator, too short, or a side/state byte outside its enum), so a caller
 * scanning accounts can skip it. Bytes past 164 are ignored, as Anchor does.
 */
export function decodeOfferAccount(data: Uint8Array): OfferAccount | null {
  if (data.length < OFFER_ACCOUNT_SIZE || !hasDiscriminator(data, OFFER_ACCOUNT_DISCRIMINATOR)) return null;
  const r = new ByteReader(data);
  const side = sideFromByte(r.u8(O.side));
  const state = stateFromByte(r.u8(O.state));
  if (side === null || state === null) return null;
  return {
    maker: r.address(O.maker),
    tokenMint: r.address(O.tokenMint),
    paymentMint: r.address(O.paymentMint),
    side,
    nonce: r.u64(O.nonce),
    originalSize: r.u64(O.originalSize),
    remainingSize: r.u64(O.remainingSize),
    pricePerToken: r.u64(O.pricePerToken),
    priceScale: r.u8(O.priceScale),
    minFill: r.u64(O.minFill),
    createdAt: r.i64(O.createdAt),
    expiresAt: r.i64(O.expiresAt),
    state,
    bump: r.u8(O.bump),
  };
}

export function encodeOfferAccount(offer: OfferAccount): Uint8Array {
  return new ByteWriter(OFFER_ACCOUNT_SIZE)
    .raw(O.discriminator, OFFER_ACCOUNT_DISCRIMINATOR)
    .address(O.maker, offer.maker)
    .address(O.tokenMint, offer.tokenMint)
    .address(O.paymentMint, offer.paymentMint)
    .u8(O.side, sideToByte(offer.side), "side")
    .u64(O.nonce, offer.nonce, "nonce")
    .u64(O.originalSize, offer.originalSize, "originalSize")
    .u64(O.remainingSize, offer.remainingSize, "remainingSize")
    .u64(O.pricePerToken, offer.pricePerToken, "pricePerToken")
    .u8(O.priceScale, offer.priceScale, "priceScale")
    .u64(O.minFill, offer.minFill, "minFill")
    .i64(O.createdAt, offer.createdAt, "createdAt")
    .i64(O.expiresAt, offer.expiresAt, "expiresAt")
    .u8(O.state, stateToByte(offer.state), "state")
    .u8(O.bump, offer.bump, "bump").bytes;
}
