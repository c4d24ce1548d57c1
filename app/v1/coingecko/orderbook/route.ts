import { coinGeckoOrderbookQuery, levelsPerSide } from "@/web/http/adapter-query-schemas";
import { parseQuery } from "@/web/http/params";
import { CACHE } from "@/web/http/response";
import { readCoinGeckoOrderbook } from "@/lib/adapters/coingecko";
import { knownPairDecimals } from "@/web/mint-decimals";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/coingecko/orderbook", async (_request, url) => {
  const { ticker_id: pair, depth } = parseQuery(url, coinGeckoOrderbookQuery);
  const decimals = await knownPairDecimals(pair, "ticker_id");
  return { body: { value: await readCoinGeckoOrderbook(database(), pair, decimals, levelsPerSide(depth)) }, cache: CACHE.list };
});
