import { ApiError } from "@/web/http/errors";
import { parseQuery } from "@/web/http/params";
import { CANDLE_RESOLUTIONS, candleQuery, checkTimeRange } from "@/web/http/query-schemas";
import { CACHE } from "@/web/http/response";
import { tokenApiError } from "@/web/http/token-errors";
import { listCandles } from "@/lib/db/reads/candles";
import { listChartCandles } from "@/lib/db/reads/chart-candles";
import { database, route, tokenService } from "@/web/services";

export const dynamic = "force-dynamic";

/** The mints' decimals for units=human, from the token service (provider, then chain); a mint neither knows is the caller's 400. */
async function pairDecimals(tokenMint: string, paymentMint: string): Promise<{ token: number; payment: number }> {
  const [token, payment] = await tokenService()
    .resolve(tokenMint === paymentMint ? [tokenMint] : [tokenMint, paymentMint])
    .catch((error: unknown) => {
      throw tokenApiError(error);
    });
  const paymentToken = payment ?? token;
  for (const [param, t] of [["tokenMint", token], ["paymentMint", paymentToken]] as const) {
    if (t?.decimals == null) {
      throw new ApiError("invalid_parameter", `units=human needs the decimals of ${param}, which neither the token provider nor the chain knows; use units=raw`, "units");
    }
  }
  return { token: token!.decimals!, payment: paymentToken!.decimals! };
}

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/candles", async (_request, url) => {
  const { units, invert, includeEmpty, ...query } = parseQuery(url, candleQuery);
  checkTimeRange(query);
  const q = { ...query, resolution: CANDLE_RESOLUTIONS[query.resolution] };
  if (units === "raw" && !invert && !includeEmpty) return { body: { text: await listCandles(database(), q) }, cache: CACHE.candles };
  const decimals = units === "human" ? await pairDecimals(q.tokenMint, q.paymentMint) : undefined;
  return { body: { text: await listChartCandles(database(), q, { includeEmpty, invert, decimals }) }, cache: CACHE.candles };
});
