import { parseQuery } from "@/lib/http/params";
import { CANDLE_RESOLUTIONS, candleQuery, checkTimeRange } from "@/lib/http/query-schemas";
import { CACHE } from "@/lib/http/response";
import { listCandles } from "@/lib/queries/candles";
import { database, route } from "@/lib/runtime";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/candles", async (_request, url) => {
  const query = parseQuery(url, candleQuery);
  checkTimeRange(query);
  const body = await listCandles(database(), { ...query, resolution: CANDLE_RESOLUTIONS[query.resolution] });
  return { body: { text: body }, cache: CACHE.candles };
});
