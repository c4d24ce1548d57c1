import { formatDecimal, parseDecimal, pow10 } from "./decimal";

/** A raw token amount in whole-token units, exact: formatUnits(1500000n, 6) === "1.5". */
export function formatUnits(raw: bigint, decimals: number): string {
  return formatDecimal({ mantissa: raw, exponent: -decimals });
}

/** The inverse of formatUnits; throws when the text has more fractional digits than the mint. */
export function parseUnits(text: string, decimals: number): bigint {
  const d = parseDecimal(text);
  const shift = d.exponent + decimals;
  if (shift < 0) throw new RangeError(`"${text}" has more than ${decimals} decimals`);
  return d.mantissa * pow10(shift);
}

/**
 * Payment per whole token, exact: pricePerToken / 10^priceScale raw payment
 * units per raw token unit, times 10^(tokenDecimals − paymentDecimals).
 */
export function humanPrice(pricePerToken: bigint, priceScale: number, tokenDecimals: number, paymentDecimals: number): string {
  return formatDecimal({ mantissa: pricePerToken, exponent: tokenDecimals - paymentDecimals - priceScale });
}
