import { formatDecimal, pow10 } from "../lib/program/decimal";
import { humanPrice } from "../lib/program/units";
import type { ScaledPrice } from "./types";

// Prices in human units: payment per whole token, exact where the program's
// price is exact (an offer), and to a fixed 18 fractional digits where it is a
// ratio (a fill's payment over its size).

/** An offer's price, payment per whole token; null when either decimals is unknown. */
export function offerPrice(price: ScaledPrice, tokenDecimals: number | null | undefined, paymentDecimals: number | null | undefined): string | null {
  if (tokenDecimals == null || paymentDecimals == null) return null;
  return humanPrice(BigInt(price.pricePerToken), price.priceScale, tokenDecimals, paymentDecimals);
}

/** The raw price (payment raw units per token raw unit) as an exact decimal string. */
export function rawPrice(price: ScaledPrice): string {
  return formatDecimal({ mantissa: BigInt(price.pricePerToken), exponent: -price.priceScale });
}

const RATIO_PLACES = 18;

/** num / den × 10^shift, rounded half up to 18 fractional digits. */
function ratio(num: bigint, den: bigint, shift: number): string {
  if (den === 0n) return "0";
  // Scale the numerator so the quotient carries RATIO_PLACES digits after the shift.
  const places = RATIO_PLACES + shift;
  const scaledNum = places >= 0 ? num * pow10(places) : num;
  const scaledDen = places >= 0 ? den : den * pow10(-places);
  let q = scaledNum / scaledDen;
  if ((scaledNum % scaledDen) * 2n >= scaledDen) q += 1n;
  return formatDecimal({ mantissa: q, exponent: -RATIO_PLACES });
}

/** A fill's effective price, payment per whole token (before fee); null when decimals are unknown. */
export function fillPrice(fillAmount: string, paymentAmount: string, tokenDecimals: number | null | undefined, paymentDecimals: number | null | undefined): string | null {
  if (tokenDecimals == null || paymentDecimals == null) return null;
  return ratio(BigInt(paymentAmount), BigInt(fillAmount), tokenDecimals - paymentDecimals);
}

/** The two prices brought to one integer scale, for exact comparison and differences. */
function common(a: ScaledPrice, b: ScaledPrice): [bigint, bigint, number] {
  const scale = Math.max(a.priceScale, b.priceScale);
  return [BigInt(a.pricePerToken) * pow10(scale - a.priceScale), BigInt(b.pricePerToken) * pow10(scale - b.priceScale), scale];
}

export interface Spread {
  /** Ask minus bid in payment per whole token; null when decimals are unknown. */
  absolute: string | null;
  /** (ask − bid) / ask, in percent, two decimals; negative when the book is crossed. */
  percent: string;
}

export function spread(ask: ScaledPrice, bid: ScaledPrice, tokenDecimals: number | null | undefined, paymentDecimals: number | null | undefined): Spread {
  const [a, b, scale] = common(ask, bid);
  const diff = a - b;
  const percent = ratio(diff * 100n, a, 0);
  const absolute =
    tokenDecimals == null || paymentDecimals == null ? null : formatDecimal({ mantissa: diff, exponent: tokenDecimals - paymentDecimals - scale });
  return { absolute, percent: roundTo(percent, 2) };
}

function roundTo(exact: string, places: number): string {
  const negative = exact.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? exact.slice(1) : exact).split(".");
  const padded = (fraction + "0".repeat(places + 1)).slice(0, places + 1);
  let digits = BigInt(whole + padded.slice(0, places));
  if (Number(padded[places]) >= 5) digits += 1n;
  const text = formatDecimal({ mantissa: digits, exponent: -places });
  const [w = "0", f = ""] = text.split(".");
  const out = `${w}.${f.padEnd(places, "0")}`;
  return negative && digits !== 0n ? `-${out}` : out;
}

/** A cumulative depth as a share of the side's total, in percent for a bar width (display only). */
export function depthPercent(cumulative: bigint, total: bigint): number {
  if (total === 0n) return 0;
  return Number((cumulative * 10_000n) / total) / 100;
}

/** A decimal string as a float, for chart coordinates only (never for amounts shown as text). */
export function chartNumber(exact: string): number {
  return Number(exact);
}
