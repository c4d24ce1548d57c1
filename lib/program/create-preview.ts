import type { Address } from "./bytes";
import { isAcceptedPaymentMint, MAX_EXPIRY_SECONDS, MAX_PRICE_SCALE } from "./constants";
import { pow10 } from "./decimal";
import { OFFER_PROGRAM_ERRORS } from "./errors";
import type { CreateOfferArgs } from "./instruction-data";
import type { OfferSide } from "./offer-account";
import { checkCreateOffer, offerTotal, type ScaledPrice, scaledPriceFromDecimal } from "./pricing";
import { humanPrice, parseUnits } from "./units";

export const EXPIRY_PRESETS = [
  { label: "1d", seconds: 86_400n },
  { label: "3d", seconds: 259_200n },
  { label: "7d", seconds: 604_800n },
  { label: "14d", seconds: 1_209_600n },
  { label: "30d", seconds: MAX_EXPIRY_SECONDS },
] as const;

export type ExpiryPreset = (typeof EXPIRY_PRESETS)[number]["label"];

/**
 * How far the 30-day preset stays inside the program's limit: the program
 * measures from the block time it executes at, which may run behind the
 * clock the preset was computed from.
 */
export const EXPIRY_CLOCK_MARGIN_SECONDS = 300n;

/** The expiry a preset gives from `now`, never beyond 30 days (less the clock margin at the limit). */
export function expiresAtForPreset(now: bigint, preset: ExpiryPreset): bigint {
  const seconds = EXPIRY_PRESETS.find((p) => p.label === preset)?.seconds ?? MAX_EXPIRY_SECONDS;
  const limit = MAX_EXPIRY_SECONDS - EXPIRY_CLOCK_MARGIN_SECONDS;
  return now + (seconds < limit ? seconds : limit);
}

export type PriceForTotal = { ok: true; price: ScaledPrice } | { ok: false; reason: "no-exact-scale" | "price-overflow" };

/**
 * The price at which `size` raw tokens total exactly `total` raw payment units:
 * total / size as pricePerToken / 10^priceScale with the smallest scale up to
 * 18 that holds it exactly. Beyond that the quotient has no exact form (its
 * denominator has a prime factor other than 2 and 5, or needs more decimals).
 */
export function scaledPriceForTotal(size: bigint, total: bigint): PriceForTotal {
  if (size <= 0n || total <= 0n) return { ok: false, reason: "no-exact-scale" };
  for (let scale = 0; scale <= MAX_PRICE_SCALE; scale++) {
    const numerator = total * pow10(scale);
    if (numerator % size !== 0n) continue;
    const price = scaledPriceFromDecimal({ mantissa: numerator / size, exponent: -scale });
    return price ? { ok: true, price } : { ok: false, reason: "price-overflow" };
  }
  return { ok: false, reason: "no-exact-scale" };
}

export interface CreateOfferInput {
  side: OfferSide;
  tokenMint: Address;
  tokenDecimals: number;
  paymentMint: Address;
  paymentDecimals: number;
  /** Whole tokens, as typed. */
  size: string;
  /** Whole payment units for the whole size, as typed. */
  total: string;
  /** Whole tokens; empty means no minimum. */
  minFill: string;
  expiry: ExpiryPreset;
  /** Unix seconds. */
  now: bigint;
  nonce: bigint;
}

/** The line the offer adds to its side of the book. */
export interface BookLinePreview {
  side: OfferSide;
  /** Payment per whole token, exact. */
  humanPrice: string;
  size: bigint;
  total: bigint;
  minFill: bigint;
  expiresAt: bigint;
}

export interface CreatePreview {
  ok: true;
  args: CreateOfferArgs;
  bookLine: BookLinePreview;
  /** What the maker puts in escrow: the tokens of a sell offer, the total of a buy offer. */
  escrow: { mint: Address; amount: bigint };
}

export type CreateField = "paymentMint" | "size" | "total" | "minFill" | "expiry";

export interface CreateRefusal {
  ok: false;
  field: CreateField;
  reason: string;
}

function parseField(text: string, decimals: number, field: CreateField): bigint | CreateRefusal {
  try {
    return parseUnits(text, decimals);
  } catch {
    return { ok: false, field, reason: `Enter a number with at most ${decimals} decimals` };
  }
}

/**
 * A create_offer from human inputs: amounts in raw units, the price at its
 * smallest exact scale, and the program's own create checks (checkCreateOffer),
 * so whatever this accepts the program accepts at `now`.
 */
export function previewCreate(input: CreateOfferInput): CreatePreview | CreateRefusal {
  if (!isAcceptedPaymentMint(input.paymentMint)) return { ok: false, field: "paymentMint", reason: OFFER_PROGRAM_ERRORS.PaymentMintNotAccepted.message };
  const size = parseField(input.size, input.tokenDecimals, "size");
  if (typeof size !== "bigint") return size;
  const total = parseField(input.total, input.paymentDecimals, "total");
  if (typeof total !== "bigint") return total;
  const minFill = input.minFill.trim() === "" ? 0n : parseField(input.minFill, input.tokenDecimals, "minFill");
  if (typeof minFill !== "bigint") return minFill;
  if (size <= 0n) return { ok: false, field: "size", reason: OFFER_PROGRAM_ERRORS.InvalidSize.message };
  if (total <= 0n) return { ok: false, field: "total", reason: OFFER_PROGRAM_ERRORS.InvalidPrice.message };
  const priced = scaledPriceForTotal(size, total);
  if (!priced.ok) {
    const reason =
      priced.reason === "price-overflow"
        ? "The price per raw token unit does not fit the program's u64"
        : "No exact price: this total divided by this size needs more than 18 decimals. Adjust the size or the total.";
    return { ok: false, field: "total", reason };
  }
  const args: CreateOfferArgs = {
    side: input.side,
    nonce: input.nonce,
    size,
    pricePerToken: priced.price.pricePerToken,
    priceScale: priced.price.priceScale,
    minFill,
    expiresAt: expiresAtForPreset(input.now, input.expiry),
  };
  const error = checkCreateOffer(args, { now: input.now, paymentMint: input.paymentMint });
  if (error) {
    const field: CreateField = error === "MinFillTooLarge" ? "minFill" : error === "InvalidExpiry" ? "expiry" : "total";
    return { ok: false, field, reason: OFFER_PROGRAM_ERRORS[error].message };
  }
  const exactTotal = offerTotal(size, args.pricePerToken, args.priceScale);
  return {
    ok: true,
    args,
    bookLine: {
      side: input.side,
      humanPrice: humanPrice(args.pricePerToken, args.priceScale, input.tokenDecimals, input.paymentDecimals),
      size,
      total: exactTotal,
      minFill,
      expiresAt: args.expiresAt,
    },
    escrow: input.side === "sell" ? { mint: input.tokenMint, amount: size } : { mint: input.paymentMint, amount: exactTotal },
  };
}

/**
 * A fresh nonce for the maker's next offer PDA: milliseconds since the epoch
 * times 1000 plus a random part, so two offers made in the same millisecond
 * (two tabs) still differ, and nonces grow over time.
 */
export function newOfferNonce(nowMs: number = Date.now(), random: number = Math.random()): bigint {
  return BigInt(Math.floor(nowMs)) * 1000n + BigInt(Math.floor(random * 1000));
}
