import { pairDecimals, type DecimalsOf, type Pair, type PairDecimals } from "../lib/adapters/pair-units";
import { ApiError } from "./http/errors";
import { tokenApiError } from "./http/token-errors";
import { tokenService } from "./services";

/**
 * The mints' decimals for the aggregator adapters, from the token service
 * (provider, then chain), as /v1/candles?units=human reads them; a mint
 * neither knows is absent from the map. A provider failure is the API's 502/503.
 */
export const mintDecimals: DecimalsOf = async (mints) => {
  if (mints.length === 0) return new Map();
  const decimals = await tokenService()
    .decimals(mints)
    .catch((error: unknown) => {
      throw tokenApiError(error);
    });
  return new Map([...decimals].flatMap(([mint, d]) => (d == null ? [] : [[mint, d] as const])));
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
