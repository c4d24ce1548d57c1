import { listCoinGeckoTrades, readCoinGeckoOrderbook } from "../../lib/adapters/coingecko";
import { coinGeckoMarkets } from "../../lib/adapters/coingecko-markets";
import { findDexBlock, latestDexBlock, listDexEvents, mintIsTraded, readDexPair } from "../../lib/adapters/dextools";
import { dexToolsErrorShape } from "../http/adapter-errors";
import {
  checkBlockRange,
  checkTradeWindow,
  coinGeckoOrderbookQuery,
  coinGeckoTradesQuery,
  dexAssetQuery,
  dexBlockQuery,
  dexEventsQuery,
  dexPairQuery,
  levelsPerSide,
} from "../http/adapter-query-schemas";
import { endpoint, type Endpoint } from "../http/endpoint";
import { ApiError, notFound } from "../http/errors";
import { CACHE } from "../http/response";
import { tokenApiError } from "../http/token-errors";
import { knownPairDecimals, mintDecimals } from "../mint-decimals";
import { database, tokenService } from "../services";

/**
 * The aggregator adapters' entries of the /v1 route table (web/api/routes.ts):
 * the CoinGecko exchange API standard and the DEXTools HTTP adapter, read from
 * lib/adapters. DEXTools' answers carry its error body (`errorShape`), which
 * the API core writes for every error of theirs, on both servers.
 */

const dexTools = { errorShape: dexToolsErrorShape } as const;

const markets = coinGeckoMarkets(mintDecimals);

export const ADAPTER_ROUTES: readonly Endpoint[] = [
  endpoint({ path: "/v1/coingecko/pairs", cache: CACHE.markets, answer: async () => ({ text: await markets.pairs(database()) }) }),
  endpoint({ path: "/v1/coingecko/tickers", cache: CACHE.markets, answer: async () => ({ text: await markets.tickers(database()) }) }),
  endpoint({
    path: "/v1/coingecko/orderbook",
    query: coinGeckoOrderbookQuery,
    cache: CACHE.list,
    answer: async ({ query: { ticker_id: pair, depth } }) => {
      const decimals = await knownPairDecimals(pair, "ticker_id");
      return { text: await readCoinGeckoOrderbook(database(), pair, decimals, levelsPerSide(depth)) };
    },
  }),
  endpoint({
    path: "/v1/coingecko/historical_trades",
    query: coinGeckoTradesQuery,
    cache: CACHE.list,
    answer: async ({ query: q }) => {
      checkTradeWindow(q);
      const decimals = await knownPairDecimals(q.ticker_id, "ticker_id");
      const filters = { ...q.ticker_id, type: q.type, limit: q.limit, startTime: q.start_time, endTime: q.end_time };
      return { text: await listCoinGeckoTrades(database(), filters, decimals) };
    },
  }),
  endpoint({
    ...dexTools,
    path: "/v1/dextools/latest-block",
    cache: CACHE.offer,
    answer: async () => {
      const block = await latestDexBlock(database());
      if (!block) throw notFound("no block is announced yet: the index has no final, complete slot with program activity");
      return { value: { block } };
    },
  }),
  endpoint({
    ...dexTools,
    path: "/v1/dextools/block",
    query: dexBlockQuery,
    cache: CACHE.offer,
    answer: async ({ query: q }) => {
      if (q.number === undefined && q.timestamp === undefined) throw new ApiError("missing_parameter", "number or timestamp is required", "number");
      const block = await findDexBlock(database(), q.number !== undefined ? { number: q.number } : { timestamp: q.timestamp! });
      if (!block) throw notFound("no announced block there: a slot without an indexed program transaction, or one not yet final");
      return { value: { block } };
    },
  }),
  endpoint({
    ...dexTools,
    path: "/v1/dextools/asset",
    query: dexAssetQuery,
    cache: CACHE.tokens,
    answer: async ({ query: { id } }) => {
      if (!(await mintIsTraded(database(), id))) throw notFound(`no offer in this index trades ${id}`);
      const [token] = await tokenService()
        .resolve([id])
        .catch((error: unknown) => {
          throw tokenApiError(error);
        });
      return { value: { asset: { id, ...(token?.name ? { name: token.name } : {}), ...(token?.symbol ? { symbol: token.symbol } : {}) } } };
    },
  }),
  endpoint({
    ...dexTools,
    path: "/v1/dextools/pair",
    query: dexPairQuery,
    cache: CACHE.markets,
    answer: async ({ query: { id } }) => {
      const pair = await readDexPair(database(), id);
      if (!pair) throw notFound("no offer was ever made on this pair");
      return { value: { pair } };
    },
  }),
  endpoint({
    ...dexTools,
    path: "/v1/dextools/events",
    query: dexEventsQuery,
    cache: CACHE.list,
    answer: async ({ query: range }) => {
      checkBlockRange(range);
      return { value: { events: await listDexEvents(database(), range, mintDecimals) } };
    },
  }),
];
