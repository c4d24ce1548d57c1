import { formatDecimal, parseDecimal } from "@/lib/program/decimal";
import { formatUnits } from "@/lib/program/units";
import { chartNumber } from "@/client/price";
import type { Candle, Token } from "@/client/types";

export interface ChartCandle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Payment volume, whole payment tokens. */
  volume: number;
}

/**
 * The pair's candles (GET /v1/candles, oldest first, raw units) in payment per
 * whole token. Prices are exact decimals turned into floats only here, for
 * plotting; without both decimals there is nothing honest to draw.
 */
export function chartCandles(candles: readonly Candle[], token: Token | undefined, payment: Token | undefined): ChartCandle[] {
  const tokenDecimals = token?.decimals;
  const paymentDecimals = payment?.decimals;
  if (tokenDecimals == null || paymentDecimals == null) return [];
  const shift = tokenDecimals - paymentDecimals;
  const human = (raw: string) => {
    const d = parseDecimal(raw);
    return chartNumber(formatDecimal({ mantissa: d.mantissa, exponent: d.exponent + shift }));
  };
  return candles.map((c) => ({
    time: c.time,
    open: human(c.open),
    high: human(c.high),
    low: human(c.low),
    close: human(c.close),
    volume: chartNumber(formatUnits(BigInt(c.quoteVolume), paymentDecimals)),
  }));
}
