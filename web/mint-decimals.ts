import { pairDecimals, type DecimalsOf, type Pair, type PairDecimals } from "../lib/adapters/pair-units";
import { ApiError } from "./http/errors";
import { tokenApiError } from "./http/token-errors";
import { tokenService } from "./services";

/**
 * Decimals this process has been told, by mint. A mint's decimals never
 * change (the token service keeps the chain's for good too), so a known one
 * is not asked again: /v1/coingecko/tickers names some 50 mints an answer,
 * and the token service's look-up (its cache entries, a promise and a metric
 * per mint) was about a tenth of the web's own work on it. Bounded like the
 * token cache's parsed entries: emptied when full.
 */
const KNOWN_DECIMALS_MAX = 50_000;
let knownDecimals = new Map<string, number>();

/**
 * The mints' decimals for the aggregator adapters, from the token service
 * (provider, then chain), as /v1/candles?units=human reads them; a mint
 * neither knows is absent from the map (and asked again next time). A
 * provider failure is the API's 502/503.
 */
export const mintDecimals: DecimalsOf = async (mints) => {
  const found = new Map<string, number>();
  const unknown: string[] = [];
  for (const mint of mints) {
    const d = knownDecimals.get(mint);
    if (d === undefined) unknown.push(mint);
    else found.set(mint, d);
  }
  if (unknown.length === 0) return found;
  const decimals = await tokenService()
    .decimals(unknown)
    .catch((error: unknown) => {
      throw tokenApiError(error);
    });
  if (knownDecimals.size + decimals.size > KNOWN_DECIMALS_MAX) knownDecimals = new Map();
  for (const [mint, d] of decimals) {
    if (d == null) continue;
    found.set(mint, d);
    knownDecimals.set(mint, d);
  }
  return found;
};

/**
 * Both decimals of a pair (the adapters' ids, /v1/candles?units=human), or the
 * caller's 400 naming `param` when a mint's are unknown (its amounts cannot be
 * stated in whole tokens); `remedy` ends the message with what to ask instead.
 */
export async function knownPairDecimals(pair: Pair, param: string, remedy = ""): Promise<PairDecimals> {
  const known = await mintDecimals([...new Set([pair.tokenMint, pair.paymentMint])]);
  const decimals = pairDecimals(known, pair);
  if (!decimals) {
    const unknown = (["tokenMint", "paymentMint"] as const).filter((side) => !known.has(pair[side])).join(" and ");
    throw new ApiError("invalid_parameter", `${param}: neither the token provider nor the chain knows the decimals of ${unknown}, so its prices cannot be stated in whole tokens${remedy}`, param);
  }
  return decimals;
}
