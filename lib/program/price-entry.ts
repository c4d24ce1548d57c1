import { MAX_PRICE_SCALE } from "./constants";
import { normalizeDecimal, parseDecimal, pow10 } from "./decimal";
import { feeAmount as feeOf, gcd, offerTotal, type ScaledPrice, scaledPriceFromDecimal } from "./pricing";
import { humanPrice, parseUnits } from "./units";

/**
 * Order entry by price, as traders type it: a price per whole token and an
 * amount (or the payment total), turned into an offer the program accepts.
 * create_offer needs `size * price` to be an exact multiple of
 * 10^price_scale; for a size S the prices that satisfy this at some scale up
 * to 18 are exactly the multiples of 1/gcd(S, 10^18) raw payment units per raw
 * token unit. So a typed price is never refused: it is moved to the nearest
 * point of that grid, and the form shows the price it will use.
 */

/** A positive rational num/den (a raw price: payment raw units per token raw unit). */
export interface Ratio {
  num: bigint;
  den: bigint;
}

/** A human price (payment per whole token) as a raw ratio; null when it is not a positive decimal. */
export function rawPriceRatio(human: string, tokenDecimals: number, paymentDecimals: number): Ratio | null {
  let d;
  try {
    d = parseDecimal(human);
  } catch {
    return null;
  }
  if (d.mantissa <= 0n) return null;
  const exponent = d.exponent + paymentDecimals - tokenDecimals;
  return exponent >= 0 ? { num: d.mantissa * pow10(exponent), den: 1n } : { num: d.mantissa, den: pow10(-exponent) };
}

/** num/den rounded to the nearest integer, halves up. */
function roundRatio(num: bigint, den: bigint): bigint {
  return (2n * num + den) / (2n * den);
}

/** A coarser grid (a divisor of `grid`) for when the fine one's price needs more digits than a u64 holds. */
function coarser(grid: bigint): bigint {
  if (grid % 10n === 0n) return grid / 10n;
  if (grid % 2n === 0n) return grid / 2n;
  if (grid % 5n === 0n) return grid / 5n;
  return 1n;
}

/**
 * The exact price nearest to `target` (or the nearest at or below it, for
 * `down`) at which `size` raw tokens total a whole number of raw payment
 * units, at its smallest scale. Never zero (the smallest grid step instead).
 * Null only when no price of the grid fits the program's u64 price (a price
 * beyond 1.8e19 raw units per raw token).
 */
export function nearestExactPrice(size: bigint, target: Ratio, rounding: "nearest" | "down" = "nearest"): ScaledPrice | null {
  if (size <= 0n) return null;
  const full = pow10(MAX_PRICE_SCALE);
  let grid = gcd(size, full);
  for (;;) {
    let steps = rounding === "down" ? (target.num * grid) / target.den : roundRatio(target.num * grid, target.den);
    if (steps === 0n) steps = 1n;
    const scaled = scaledPriceFromDecimal(normalizeDecimal({ mantissa: steps * (full / grid), exponent: -MAX_PRICE_SCALE }));
    if (scaled) return scaled;
    if (grid === 1n) return null;
    grid = coarser(grid);
  }
}

const relativeError = (value: number, target: number) => Math.abs(value - target) / target;

/**
 * A size near `size` and the exact price for it nearest to `target`. An
 * arbitrary size (3.141593 tokens, 3141593 raw) allows only whole raw prices,
 * which can be far from the target; a size rounded to 10^k raw units allows a
 * grid 10^k times finer. So sizes rounded to each power of ten are tried and
 * the one whose larger relative change (of size or of price) is smallest
 * wins, the least rounded on a tie. Only for choosing: the amounts are exact.
 */
export function bestExactOrder(size: bigint, target: Ratio, options: { sizeRounding: "nearest" | "down"; priceRounding: "nearest" | "down" }): { size: bigint; price: ScaledPrice } | null {
  const targetPrice = Number(target.num) / Number(target.den);
  let best: { size: bigint; price: ScaledPrice; error: number } | null = null;
  for (let k = 0; k <= MAX_PRICE_SCALE; k++) {
    const unit = pow10(k);
    if (unit > size) break;
    const rounded = options.sizeRounding === "down" ? (size / unit) * unit : roundRatio(size, unit) * unit;
    if (rounded <= 0n) continue;
    const price = nearestExactPrice(rounded, target, options.priceRounding);
    if (!price) continue;
    const value = Number(price.pricePerToken) / 10 ** price.priceScale;
    const error = Math.max(relativeError(Number(rounded), Number(size)), relativeError(value, targetPrice));
    if (!best || error < best.error) best = { size: rounded, price, error };
    if (error === 0) break;
  }
  return best && { size: best.size, price: best.price };
}

export type PriceEntryField = "price" | "amount";

export interface PriceEntryInput {
  /** Payment per whole token, as typed. */
  price: string;
  /** "amount": whole tokens; "total": whole payment units to spend (buy) or receive (sell). */
  mode: "amount" | "total";
  /** As typed, in the unit `mode` says. */
  quantity: string;
  tokenDecimals: number;
  paymentDecimals: number;
}

export interface PricedOrder {
  ok: true;
  /** Raw tokens. */
  size: bigint;
  /** Raw payment units, exact at `price`. */
  total: bigint;
  price: ScaledPrice;
  /** The exact price per whole token the offer will carry. */
  humanPrice: string;
  /** The typed price was moved to the nearest exact one. */
  adjusted: boolean;
  /** The typed amount was rounded too (to allow a price closer to the typed one). */
  sizeAdjusted: boolean;
}

export interface PriceEntryRefusal {
  ok: false;
  field: PriceEntryField;
  reason: string;
}

function parseQuantity(text: string, decimals: number, unit: string): bigint | PriceEntryRefusal {
  try {
    return parseUnits(text, decimals);
  } catch {
    return { ok: false, field: "amount", reason: `Enter the ${unit} as a number with at most ${decimals} decimals` };
  }
}

/**
 * The offer a price and an amount (or total) make: the size in raw tokens,
 * the nearest exact price for that size, and the exact total at that price.
 * Refuses only what has no meaning: a price or amount that is not a positive
 * number, too many decimals for the mint, or an amount too small for one raw
 * token at this price.
 */
export function priceOrder(input: PriceEntryInput): PricedOrder | PriceEntryRefusal {
  const { tokenDecimals, paymentDecimals } = input;
  if (input.price.trim() === "") return { ok: false, field: "price", reason: "Enter a price" };
  const target = rawPriceRatio(input.price, tokenDecimals, paymentDecimals);
  if (!target) return { ok: false, field: "price", reason: "Enter the price as a positive number, like 1.25" };
  if (input.quantity.trim() === "") return { ok: false, field: "amount", reason: input.mode === "amount" ? "Enter an amount" : "Enter a total" };
  let size: bigint;
  if (input.mode === "amount") {
    const parsed = parseQuantity(input.quantity, tokenDecimals, "amount");
    if (typeof parsed !== "bigint") return parsed;
    size = parsed;
    if (size <= 0n) return { ok: false, field: "amount", reason: "Enter an amount above zero" };
  } else {
    const spend = parseQuantity(input.quantity, paymentDecimals, "total");
    if (typeof spend !== "bigint") return spend;
    if (spend <= 0n) return { ok: false, field: "amount", reason: "Enter a total above zero" };
    size = (spend * target.den) / target.num;
    if (size <= 0n) return { ok: false, field: "amount", reason: "This total buys less than one raw unit of the token at this price; enter a larger total" };
  }
  const typedSize = size;
  // Spending: never more tokens or a higher price than the total allows.
  const spending = input.mode === "total";
  const chosen = bestExactOrder(size, target, { sizeRounding: spending ? "down" : "nearest", priceRounding: spending ? "down" : "nearest" });
  if (!chosen) return { ok: false, field: "price", reason: "This price is beyond what the program can store (a u64 per raw token unit); enter a lower price" };
  const price = chosen.price;
  const exact = price.pricePerToken * target.den === target.num * pow10(price.priceScale);
  return {
    ok: true,
    size: chosen.size,
    total: offerTotal(chosen.size, price.pricePerToken, price.priceScale),
    price,
    humanPrice: humanPrice(price.pricePerToken, price.priceScale, tokenDecimals, paymentDecimals),
    adjusted: !exact,
    sizeAdjusted: input.mode === "amount" && chosen.size !== typedSize,
  };
}

/**
 * How far `price` lies from `reference` (both raw prices as decimal strings
 * or ScaledPrice), in percent of the reference, for display ("+2.1%").
 * Floating point is fine here: the figure is shown, never used in amounts.
 */
export function percentFrom(price: ScaledPrice, reference: string): number | null {
  const ref = Number(reference);
  if (!Number.isFinite(ref) || ref <= 0) return null;
  const value = Number(price.pricePerToken) / 10 ** price.priceScale;
  return ((value - ref) / ref) * 100;
}

/**
 * The largest fill (raw tokens, at most `remaining`) whose payment does not
 * exceed `payment` raw units: the gross the taker of a sell offer pays, or
 * the net the taker of a buy offer receives. Both grow with the fill (the fee
 * rounds up by at most one unit per unit of payment), so a binary search finds it.
 */
export function fillForPayment(terms: { pricePerToken: bigint; priceScale: number; remaining: bigint }, payment: bigint, counted: "gross" | "net"): bigint {
  const measure = (fill: bigint) => {
    const gross = (fill * terms.pricePerToken) / pow10(terms.priceScale);
    return counted === "gross" ? gross : gross - feeOf(gross);
  };
  let low = 0n;
  let high = terms.remaining;
  while (low < high) {
    const mid = (low + high + 1n) / 2n;
    if (measure(mid) <= payment) low = mid;
    else high = mid - 1n;
  }
  return low;
}
