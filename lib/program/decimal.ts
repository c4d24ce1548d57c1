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

const notADecimal = (text: string) => new Error(`not a decimal number: "${text}"`);

/**
 * Where the parts of a decimal text lie ("123", "-0.0015", ".5"; no
 * exponents, no separators), found in one pass over its characters: no match
 * array, no joined or padded copy. The adapters and the charts read
 * thousands of decimals an answer, and those copies were 40% of an answer's
 * garbage (docs/benchmarks-api.md, session 24).
 */
interface DecimalScan {
  /** The text, trimmed. */
  t: string;
  negative: boolean;
  /** The sign's length: 0 or 1. */
  sign: number;
  /** Where the point is, or -1. */
  point: number;
  /** Where the first and the last significant digit are; -1 for a zero. */
  first: number;
  last: number;
}

/** Throws on anything but a decimal. */
function scanDecimal(text: string): DecimalScan {
  const t = text.trim();
  const sign = t.charCodeAt(0) === 45 || t.charCodeAt(0) === 43 ? 1 : 0; // "-" or "+"
  let point = -1;
  let first = -1;
  let last = -1;
  for (let i = sign; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 46 && point < 0) point = i;
    else if (c < 48 || c > 57) throw notADecimal(text);
    else if (c !== 48) {
      if (first < 0) first = i;
      last = i;
    }
  }
  if (t.length - sign - (point < 0 ? 0 : 1) === 0) throw notADecimal(text);
  return { t, negative: sign === 1 && t.charCodeAt(0) === 45, sign, point, first, last };
}

/** How many digits come before the point. */
const wholeDigitsOf = (s: DecimalScan): number => (s.point < 0 ? s.t.length : s.point) - s.sign;

/** The position among the digits alone (the point left out) of the character at `i`. */
const digitIndex = (s: DecimalScan, i: number): number => i - s.sign - (s.point >= 0 && i > s.point ? 1 : 0);

/** Digits [x, y), counted without the point, as text: one slice, or two about the point. */
function cutDigits(s: DecimalScan, x: number, y: number): string {
  const { t, sign, point } = s;
  if (point < 0) return t.slice(sign + x, sign + y);
  const wholeDigits = point - sign;
  const start = sign + x + (x >= wholeDigits ? 1 : 0);
  const end = sign + y + (y > wholeDigits ? 1 : 0);
  return x < wholeDigits && y > wholeDigits ? t.slice(start, point) + t.slice(point + 1, end) : t.slice(start, end);
}

/** The significant digits (no leading or trailing zero; "" for a zero) and the power of ten that scales them. */
function significand(s: DecimalScan): { digits: string; exponent: number } {
  if (s.first < 0) return { digits: "", exponent: 0 };
  const to = digitIndex(s, s.last) + 1;
  return { digits: cutDigits(s, digitIndex(s, s.first), to), exponent: wholeDigitsOf(s) - to };
}

/** Parses "123", "-0.0015", ".5"; no exponents, no separators. Throws on anything else. */
export function parseDecimal(text: string): Decimal {
  const scan = scanDecimal(text);
  const { digits, exponent } = significand(scan);
  if (digits === "") return { mantissa: 0n, exponent: 0 };
  const magnitude = BigInt(digits);
  return { mantissa: scan.negative ? -magnitude : magnitude, exponent };
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
  if (d.mantissa === 0n) return "0";
  const negative = d.mantissa < 0n;
  const all = (negative ? -d.mantissa : d.mantissa).toString();
  // Trailing zeros stripped as characters, not by a BigInt division each.
  let end = all.length;
  while (all.charCodeAt(end - 1) === 48) end--;
  const text = placeDigits(end === all.length ? all : all.slice(0, end), d.exponent + all.length - end);
  return negative ? `-${text}` : text;
}

/** Digits (no leading zero, no trailing zero) × 10^exponent as unsigned decimal text: zeros added, or the point put in. */
function placeDigits(digits: string, exponent: number): string {
  if (exponent >= 0) return exponent === 0 ? digits : digits + "0".repeat(exponent);
  const before = digits.length + exponent;
  return before > 0 ? `${digits.slice(0, before)}.${digits.slice(before)}` : `0.${"0".repeat(-before)}${digits}`;
}

/**
 * `text` × 10^places, exact: the decimal point moved, as a token's decimals
 * move a raw amount to whole tokens. The same text as formatDecimal writes of
 * the parsed value, but cut from the text, without a BigInt: the aggregator
 * adapters shift some 1,400 figures an answer (/v1/coingecko/tickers), where
 * the BigInt round trip (a division per trailing zero) was about 1 µs each
 * and most of the answer's garbage.
 */
export function shiftDecimal(text: string, places: number): string {
  if (!Number.isInteger(places)) {
    const d = parseDecimal(text);
    return formatDecimal({ mantissa: d.mantissa, exponent: d.exponent + places });
  }
  const s = scanDecimal(text);
  if (s.first < 0) return "0";
  // The significant digits are [from, to); the point, once moved, falls before digit `at`.
  const from = digitIndex(s, s.first);
  const to = digitIndex(s, s.last) + 1;
  const at = wholeDigitsOf(s) + places;
  const shifted =
    at >= to ? cutDigits(s, from, to) + "0".repeat(at - to)
    : at <= from ? `0.${"0".repeat(from - at)}${cutDigits(s, from, to)}`
    : `${cutDigits(s, from, at)}.${cutDigits(s, at, to)}`;
  return s.negative ? `-${shifted}` : shifted;
}

/**
 * Significant digits of a reciprocal: 1/x is rarely a finite decimal, so each
 * inverted price the API serves (a candle's `invert=true`) is 1/x rounded to
 * this many significant digits, half away from zero.
 */
export const RECIPROCAL_SIGNIFICANT_DIGITS = 18;

/** 1/x for a positive decimal x, rounded to `digits` significant digits, half away from zero (RECIPROCAL_SIGNIFICANT_DIGITS). */
export function reciprocal(text: string, digits = RECIPROCAL_SIGNIFICANT_DIGITS): string {
  const scan = scanDecimal(text);
  const { digits: significant, exponent } = significand(scan);
  if (significant === "" || scan.negative) throw new RangeError(`reciprocal needs a positive decimal, got "${text}"`);
  const mantissa = BigInt(significant);
  // 1/(m·10^e) = (10^k / m) · 10^(-e-k); with k = digits + len(m) - 1 the quotient 10^k / m lies in (10^(digits-1), 10^digits].
  const k = digits + significant.length - 1;
  const numerator = pow10(k);
  let quotient = numerator / mantissa;
  if (2n * (numerator % mantissa) >= mantissa) quotient += 1n;
  return formatDecimal({ mantissa: quotient, exponent: -exponent - k });
}
