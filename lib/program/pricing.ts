import { FEE_BPS, FEE_DENOMINATOR, isAcceptedPaymentMint, MAX_EXPIRY_SECONDS, MAX_PRICE_SCALE, U64_MAX } from "./constants";
import { type Decimal, formatDecimal, normalizeDecimal, parseDecimal, pow10 } from "./decimal";
import type { OfferProgramErrorName } from "./errors";
import type { CreateOfferArgs } from "./instruction-data";
import type { OfferAccount } from "./offer-account";

/**
 * The program's arithmetic (docs/program.md#arithmetic), in bigint so the u128
 * intermediates are exact: payment rounds down, the fee rounds up.
 */

export function paymentAmount(fillAmount: bigint, pricePerToken: bigint, priceScale: number): bigint {
  return (fillAmount * pricePerToken) / pow10(priceScale);
}

export function feeAmount(payment: bigint): bigint {
  return (payment * FEE_BPS + FEE_DENOMINATOR - 1n) / FEE_DENOMINATOR;
}

export interface TakeAmounts {
  fillAmount: bigint;
  /** Gross amount between maker and taker. */
  paymentAmount: bigint;
  /** To the treasury. */
  feeAmount: bigint;
  /** paymentAmount - feeAmount: to the maker (sell offer) or the taker (buy offer). */
  netAmount: bigint;
}

export function takeAmounts(fillAmount: bigint, pricePerToken: bigint, priceScale: number): TakeAmounts {
  const payment = paymentAmount(fillAmount, pricePerToken, priceScale);
  const fee = feeAmount(payment);
  return { fillAmount, paymentAmount: payment, feeAmount: fee, netAmount: payment - fee };
}

/** size * price / 10^scale, rounded down; create_offer requires it to be exact. */
export function offerTotal(size: bigint, pricePerToken: bigint, priceScale: number): bigint {
  return paymentAmount(size, pricePerToken, priceScale);
}

export function isExactOfferTotal(size: bigint, pricePerToken: bigint, priceScale: number): boolean {
  return (size * pricePerToken) % pow10(priceScale) === 0n;
}

/**
 * The smallest size step at which an offer at this price totals exactly:
 * `size * price / 10^scale` is an integer iff size is a multiple of it.
 */
export function exactSizeStep(pricePerToken: bigint, priceScale: number): bigint {
  const denominator = pow10(priceScale);
  return denominator / gcd(pricePerToken, denominator);
}

export function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export interface ScaledPrice {
  pricePerToken: bigint;
  priceScale: number;
}

/**
 * A raw price (payment raw units per token raw unit) as pricePerToken /
 * 10^priceScale with the smallest scale that holds it exactly. Null when it
 * needs more than 18 decimals, is not positive, or pricePerToken overflows u64.
 */
export function scaledPriceFromDecimal(price: Decimal | string): ScaledPrice | null {
  const d = normalizeDecimal(typeof price === "string" ? parseDecimal(price) : price);
  if (d.mantissa <= 0n) return null;
  const priceScale = Math.max(0, -d.exponent);
  if (priceScale > MAX_PRICE_SCALE) return null;
  const pricePerToken = d.exponent > 0 ? d.mantissa * pow10(d.exponent) : d.mantissa;
  return pricePerToken > U64_MAX ? null : { pricePerToken, priceScale };
}

/**
 * The smallest price scale for an offer of `size` at `price`, with the whole
 * offer pricing to an exact total; null when no scale up to 18 does. Once the
 * price is exactly representable, every larger scale gives the same total, so
 * the smallest representing scale is the answer and exactness is a property of
 * (size, price) alone.
 */
export function smallestExactScale(size: bigint, price: Decimal | string): ScaledPrice | null {
  const scaled = scaledPriceFromDecimal(price);
  if (scaled === null || !isExactOfferTotal(size, scaled.pricePerToken, scaled.priceScale)) return null;
  return scaled;
}

/**
 * A human price (payment per whole token, e.g. "1.25" USDC per JUP) as the
 * program's raw price: human × 10^(paymentDecimals − tokenDecimals) raw payment
 * units per raw token unit, at its smallest scale.
 */
export function scaledPriceFromHuman(humanPrice: string, tokenDecimals: number, paymentDecimals: number): ScaledPrice | null {
  const d = parseDecimal(humanPrice);
  return scaledPriceFromDecimal({ mantissa: d.mantissa, exponent: d.exponent + paymentDecimals - tokenDecimals });
}

export interface CreateOfferContext {
  /** Block time (unix seconds) the instruction executes at. */
  now: bigint;
  paymentMint: string;
}

/**
 * create_offer's argument checks in docs/program.md's order; the first failure's
 * name, or null when the offer is valid. InvalidSide and ArithmeticOverflow
 * are not in the interface's list: a side byte other than 0/1 has no meaning,
 * and a buy offer escrows its total, which must fit a u64 token amount.
 */
export function checkCreateOffer(args: CreateOfferArgs, context: CreateOfferContext): OfferProgramErrorName | null {
  if (args.size <= 0n) return "InvalidSize";
  if (args.pricePerToken <= 0n) return "InvalidPrice";
  if (args.priceScale > MAX_PRICE_SCALE) return "InvalidPriceScale";
  if (!isExactOfferTotal(args.size, args.pricePerToken, args.priceScale)) return "InexactTotal";
  if (args.minFill > args.size) return "MinFillTooLarge";
  if (!(context.now < args.expiresAt && args.expiresAt <= context.now + MAX_EXPIRY_SECONDS)) return "InvalidExpiry";
  if (!isAcceptedPaymentMint(context.paymentMint)) return "PaymentMintNotAccepted";
  if (offerTotal(args.size, args.pricePerToken, args.priceScale) > U64_MAX) return "ArithmeticOverflow";
  return null;
}

type OfferTerms = Pick<OfferAccount, "state" | "expiresAt" | "remainingSize" | "minFill" | "pricePerToken" | "priceScale">;

/**
 * take_offer's checks in docs/program.md's order. ArithmeticOverflow (payment
 * beyond u64) cannot happen for offers created through checkCreateOffer,
 * since a fill's payment is at most the offer's total.
 */
export function checkTakeOffer(offer: OfferTerms, fillAmount: bigint, now: bigint): OfferProgramErrorName | null {
  if (offer.state !== "active") return "OfferNotActive";
  if (!(now < offer.expiresAt)) return "OfferExpired";
  if (fillAmount > offer.remainingSize) return "FillExceedsRemaining";
  if (fillAmount < offer.minFill && fillAmount !== offer.remainingSize) return "FillBelowMinimum";
  if (paymentAmount(fillAmount, offer.pricePerToken, offer.priceScale) > U64_MAX) return "ArithmeticOverflow";
  return null;
}

export function checkCancelOffer(offer: Pick<OfferAccount, "state">): OfferProgramErrorName | null {
  return offer.state === "active" ? null : "OfferNotActive";
}

export function checkExpireOffer(offer: Pick<OfferAccount, "state" | "expiresAt">, now: bigint): OfferProgramErrorName | null {
  if (offer.state !== "active") return "OfferNotActive";
  return now >= offer.expiresAt ? null : "OfferNotExpired";
}

export function checkCloseOffer(offer: Pick<OfferAccount, "state">): OfferProgramErrorName | null {
  return offer.state === "active" ? "OfferStillActive" : null;
}

/** The API's status (docs/program.md#what-the-index-shows): an active offer past expiry shows as expired. */
export type OfferStatus = "open" | "filled" | "expired" | "cancelled";

export function offerStatus(offer: Pick<OfferAccount, "state" | "expiresAt">, nowUnixSeconds: bigint): OfferStatus {
  switch (offer.state) {
    case "filled":
      return "filled";
    case "cancelled":
      return "cancelled";
    case "expired":
      return "expired";
    case "active":
      return nowUnixSeconds < offer.expiresAt ? "open" : "expired";
  }
}

/** A fill's price as the API writes it: pricePerToken / 10^priceScale, exact, no trailing zeros (as SQL fill_price). */
export function priceString(pricePerToken: bigint, priceScale: number): string {
  return formatDecimal({ mantissa: pricePerToken, exponent: -priceScale });
}
