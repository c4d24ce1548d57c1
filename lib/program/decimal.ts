/**
 * Exact decimal numbers as mantissa × 10^exponent, so prices and amounts never
 * pass through floating point.
 */
export interface Decimal {
  mantissa: bigint;
  exponent: number;
}

export function pow10(n: number): bigint {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`pow10 needs a non-negative integer, got ${n}`);
  return 10n ** BigInt(n);
}

const DECIMAL_PATTERN = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** Parses "123", "-0.0015", ".5"; no exponents, no separators. Throws on anything else. */
export function parseDecimal(text: string): Decimal {
  const match = DECIMAL_PATTERN.exec(text.trim());
  const whole = match?.[2] ?? "";
  const fraction = match?.[3] ?? "";
  if (!match || whole.length + fraction.length === 0) throw new Error(`not a decimal number: "${text}"`);
  const magnitude = BigInt(whole + fraction || "0");
  return normalizeDecimal({ mantissa: match[1] === "-" ? -magnitude : magnitude, exponent: -fraction.length });
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
  const digits = (negative ? -mantissa : mantissa).toString();
  let text: string;
  if (exponent >= 0) text = digits + "0".repeat(exponent);
  else {
    const places = -exponent;
    const padded = digits.padStart(places + 1, "0");
    text = `${padded.slice(0, padded.length - places)}.${padded.slice(padded.length - places)}`;
  }
  return negative ? `-${text}` : text;
}
