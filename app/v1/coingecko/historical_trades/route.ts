import { checkTradeWindow, coinGeckoTradesQuery } from "@/web/http/adapter-query-schemas";
import { parseQuery } from "@/web/http/params";
import { CACHE } from "@/web/http/response";
import { listCoinGeckoTrades } from "@/lib/adapters/coingecko";
import { knownPairDecimals } from "@/web/mint-decimals";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/coingecko/historical_trades", async (_request, url) => {
  const q = parseQuery(url, coinGeckoTradesQuery);
  checkTradeWindow(q);
  const decimals = await knownPairDecimals(q.ticker_id, "ticker_id");
  const trades = await listCoinGeckoTrades(
    database(),
    { ...q.ticker_id, type: q.type, limit: q.limit, startTime: q.start_time, endTime: q.end_time },
    decimals,
  );
  return { body: { value: trades }, cache: CACHE.list };
});
