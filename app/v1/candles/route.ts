import { parseQuery } from "@/web/http/params";
import { CANDLE_RESOLUTIONS, candleQuery, checkTimeRange } from "@/web/http/query-schemas";
import { CACHE } from "@/web/http/response";
import { listCandles } from "@/lib/db/reads/candles";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/candles", async (_request, url) => {
  const query = parseQuery(url, candleQuery);
  checkTimeRange(query);
  const body = await listCandles(database(), { ...query, resolution: CANDLE_RESOLUTIONS[query.resolution] });
  return { body: { text: body }, cache: CACHE.candles };
});
