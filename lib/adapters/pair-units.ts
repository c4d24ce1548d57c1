import { shiftDecimal } from "../program/decimal";

// What both aggregator adapters (./coingecko.ts, ./dextools.ts) do to a raw
// figure: move it to whole tokens by the mints' decimals, exactly. The
// standards they follow speak in whole tokens; our reads speak in raw units.

/** A mint's decimals, from the token service (provider, then chain); absent when neither knows. */
export type DecimalsOf = (mints: readonly string[]) => Promise<ReadonlyMap<string, number>>;

export interface PairDecimals {
  token: number;
  payment: number;
}

/** A market's two mints, as the adapters' ids join them. */
export interface Pair {
  tokenMint: string;
  paymentMint: string;
}

/** Both decimals of a pair, or null when either mint's is unknown. */
export function pairDecimals(decimals: ReadonlyMap<string, number>, pair: Pair): PairDecimals | null {
  const token = decimals.get(pair.tokenMint);
  const payment = decimals.get(pair.paymentMint);
  return token === undefined || payment === undefined ? null : { token, payment };
}

/** A raw price (raw payment units per raw token unit) as payment per whole token, exact. */
export const humanPriceOf = (rawPrice: string, d: PairDecimals): string => shiftDecimal(rawPrice, d.token - d.payment);

/** A raw amount of a mint with `decimals` in whole units, exact. */
export const wholeUnits = (raw: string, decimals: number): string => shiftDecimal(raw, -decimals);
