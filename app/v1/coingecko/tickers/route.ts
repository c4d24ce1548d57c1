import { CACHE } from "@/web/http/response";
import { listCoinGeckoTickers } from "@/lib/adapters/coingecko";
import { mintDecimals } from "@/web/mint-decimals";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/coingecko/tickers", async () => ({
  body: { value: await listCoinGeckoTickers(database(), mintDecimals) },
  cache: CACHE.markets,
}));
