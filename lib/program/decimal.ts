/**
 * Exact decimal numbers as mantissa × 10^exponent, so prices and amounts never
 * pass through floating point.
 */
export interface Decimal {
  mantissa: bigint;
  exponent: number;
}

/**
 * 10^n for every n a price scale, a mint's decimals or a reciprocal's digits
 * reach, made once: made at each call, the BigInt power was a tenth of the
 * CPU of a chart's inverted candles (/v1/candles?invert=true, some 3,000
 * calls an answer; docs/benchmarks-api.md, session 19).
 */
const POW10_KEPT = 128;
const POW10 = Array.from({ length: POW10_KEPT }, (_, n) => 10n ** BigInt(n));

export function pow10(n: number): bigint {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`pow10 needs a non-negative integer, got ${n}`);
  return n < POW10_KEPT ? POW10[n]! : 10n ** BigInt(n);
}

const DECIMAL_PATTERN = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** The sign and the digits either side of the point of "123", "-0.0015", ".5"; no exponents, no separators. Throws on anything else. */
function decimalParts(text: string): { negative: boolean; whole: string; fraction: string } {
  const match = DECIMAL_PATTERN.exec(text.trim());
  const whole = match?.[2] ?? "";
  const fraction = match?.[3] ?? "";
  if (!match || whole.length + fraction.length === 0) throw new Error(`not a decimal number: "${text}"`);
  return { negative: match[1] === "-", whole, fraction };
}

/** Parses "123", "-0.0015", ".5"; no exponents, no separators. Throws on anything else. */
export function parseDecimal(text: string): Decimal {
  const { negative, whole, fraction } = decimalParts(text);
  const magnitude = BigInt(whole + fraction || "0");
  return normalizeDecimal({ mantissa: negative ? -magnitude : magnitude, exponent: -fraction.length });
}

/** Strips trailing zeros from the mantissa, so each value has one representation. */
export function normalizeDecimal(d: Decimal): Decimal {
  if (d.mantissa === 0n) return { mantissa: 0n, exponent: 0 };
  let { mantissa, exponent } = d;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent += 1;
  }
  return { mantissa, exponent };
}

/** The exact decimal string: no exponent, no trailing fractional zeros, no trailing dot. */
export function formatDecimal(d: Decimal): string {
  const { mantissa, exponent } = normalizeDecimal(d);
  const negative = mantissa < 0n;
  const text = placeDigits((negative ? -mantissa : mantissa).toString(), exponent);
  return negative ? `-${text}` : text;
}

/** Digits (no leading zero, no trailing zero) × 10^exponent as unsigned decimal text: zeros added, or the point put in. */
function placeDigits(digits: string, exponent: number): string {
  if (exponent >= 0) return digits + "0".repeat(exponent);
  const padded = digits.padStart(1 - exponent, "0");
  return `${padded.slice(0, padded.length + exponent)}.${padded.slice(padded.length + exponent)}`;
}

/**
 * `text` × 10^places, exact: the decimal point moved, as a token's decimals
 * move a raw amount to whole tokens. The same text as formatDecimal writes of
 * the parsed value, but moved as characters, without a BigInt: the aggregator
 * adapters shift some 1,400 figures an answer (/v1/coingecko/tickers), where
 * the BigInt round trip (a division per trailing zero) was about 1 µs each
 * and most of the answer's garbage.
 */
export function shiftDecimal(text: string, places: number): string {
  if (!Number.isInteger(places)) {
    const d = parseDecimal(text);
    return formatDecimal({ mantissa: d.mantissa, exponent: d.exponent + places });
  }
  const { negative, whole, fraction } = decimalParts(text);
  const all = whole + fraction;
  let first = 0;
  while (first < all.length && all.charCodeAt(first) === 48) first++;
  if (first === all.length) return "0";
  let end = all.length;
  while (all.charCodeAt(end - 1) === 48) end--;
  const shifted = placeDigits(all.slice(first, end), all.length - end - fraction.length + places);
  return negative ? `-${shifted}` : shifted;
}

/**
 * Significant digits of a reciprocal: 1/x is rarely a finite decimal, so each
 * inverted price the API serves (a candle's `invert=true`) is 1/x rounded to
 * this many significant digits, half away from zero.
 */
export const RECIPROCAL_SIGNIFICANT_DIGITS = 18;

/** 1/x for a positive decimal x, rounded to `digits` significant digits, half away from zero (RECIPROCAL_SIGNIFICANT_DIGITS). */
export function reciprocal(text: string, digits = RECIPROCAL_SIGNIFICANT_DIGITS): string {
  const { mantissa, exponent } = parseDecimal(text);
  if (mantissa <= 0n) throw new RangeError(`reciprocal needs a positive decimal, got "${text}"`);
  // 1/(m·10^e) = (10^k / m) · 10^(-e-k); with k = digits + len(m) - 1 the quotient 10^k / m lies in (10^(digits-1), 10^digits].
  const k = digits + mantissa.toString().length - 1;
  const numerator = pow10(k);
  let quotient = numerator / mantissa;
  if (2n * (numerator % mantissa) >= mantissa) quotient += 1n;
  return formatDecimal({ mantissa: quotient, exponent: -exponent - k });
}
