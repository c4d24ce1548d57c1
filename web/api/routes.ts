import { env } from "../../platform/env";
import { readBook } from "../../lib/db/reads/book";
import { listCandles } from "../../lib/db/reads/candles";
import { listChartCandles } from "../../lib/db/reads/chart-candles";
import { exportFills, listFills, listOfferFills } from "../../lib/db/reads/fills";
import { listMakerLeaderboard } from "../../lib/db/reads/makers";
import { listMarkets } from "../../lib/db/reads/markets";
import { exportOffers, getOffer, listOffers } from "../../lib/db/reads/offers";
import { makerStats, protocolStats } from "../../lib/db/reads/stats";
import { exportWalletTrades, listWalletTrades } from "../../lib/db/reads/wallet-trades";
import { checkCsvPage, csvReply, wantsCsv } from "../http/csv";
import { endpoint, endpointMatcher, type Endpoint } from "../http/endpoint";
import { notFound } from "../http/errors";
import { openApiDocument } from "../http/openapi/document";
import { address } from "../http/params";
import {
  bookQuery,
  candleQuery,
  CANDLE_RESOLUTIONS,
  checkBookSort,
  checkMakerSort,
  checkPage,
  checkTimeRange,
  fillListQuery,
  makerLeaderboardQuery,
  makerOfferListQuery,
  makerStatsQuery,
  offerFillListQuery,
  offerListQuery,
  parseMints,
  streamQuery,
  walletTradeQuery,
} from "../http/query-schemas";
import { CACHE, onOrigin, requestOrigin, taggedBody, type TaggedBody } from "../http/response";
import { tokenApiError } from "../http/token-errors";
import { database, tokenService } from "../services";
import { knownPairDecimals } from "../mint-decimals";
import { ADAPTER_ROUTES } from "./adapter-routes";
import { feedStream } from "./stream";

/**
 * The /v1 route table: every endpoint declared once, here. An entry names its
 * path (Next's folder spelling), the query and path parameters it reads (zod
 * schemas: a failure is the 400 naming the parameter), its Cache-Control, and
 * the handler that calls lib/ and returns the JSON (PostgreSQL's own text,
 * written as it came). The budget, the ETag, 304s, CORS, errors and metrics
 * are web/http/api.ts's, the same for every entry.
 *
 * Adding an endpoint: an entry here, and app/v1/<path>/route.ts re-exporting
 * `nextRoute("<path>")` (web/api/next-route.ts) so that `next start` serves
 * it too; the web launcher serves it from this table without Next.
 */

const ENDPOINTS = [
  "GET /v1/offers",
  "GET /v1/offers/:pda",
  "GET /v1/offers/:pda/fills",
  "GET /v1/fills",
  "GET /v1/makers (extension: the makers leaderboard of a window)",
  "GET /v1/makers/:maker/stats",
  "GET /v1/makers/:maker/offers",
  "GET /v1/stats",
  "GET /v1/tokens?mints=",
  "GET /v1/trending",
  "GET /v1/markets (extension: pairs with open offers or recent fills)",
  "GET /v1/stream (extension: Server-Sent Events of fills, offer changes and revokes)",
  "GET /v1/candles?tokenMint=&paymentMint=&resolution= (extension: OHLC candles of one pair)",
  "GET /v1/book?tokenMint=&paymentMint= (extension: price levels of one pair)",
  "GET /v1/wallets/:address/trades (extension: a wallet's fills as maker or taker)",
  "GET /v1/coingecko/pairs, /tickers, /orderbook?ticker_id=, /historical_trades?ticker_id= (extension: the CoinGecko exchange API standard)",
  "GET /v1/dextools/latest-block, /block, /asset?id=, /pair?id=, /events?fromBlock=&toBlock= (extension: the DEXTools HTTP adapter)",
  "GET /v1/openapi.json (OpenAPI 3.1; rendered at /docs)",
];

// Constant documents: serialised and tagged (the ETag's hash) once, not per request (the OpenAPI one on first use).
const INDEX = taggedBody(JSON.stringify({ version: "v1", endpoints: ENDPOINTS }));
let openApi: TaggedBody | undefined;

const origin = (request: { headers: { get(name: string): string | null } }, url: URL) => onOrigin(requestOrigin(request, url, env().TRUST_PROXY));
const fromTokens = (error: unknown) => {
  throw tokenApiError(error);
};

export const API_ROUTES: readonly Endpoint[] = [
  endpoint({ path: "/v1", cache: CACHE.index, answer: async () => ({ tagged: INDEX }) }),
  endpoint({
    path: "/v1/openapi.json",
    cache: CACHE.index,
    answer: async () => ({ tagged: (openApi ??= taggedBody(JSON.stringify(openApiDocument()))) }),
  }),
  endpoint({ path: "/v1/stats", cache: CACHE.stats, answer: async () => ({ text: await protocolStats(database()) }) }),
  endpoint({ path: "/v1/markets", cache: CACHE.markets, answer: async () => ({ text: await listMarkets(database()) }) }),
  endpoint({
    path: "/v1/offers",
    query: offerListQuery,
    cache: CACHE.list,
    answer: async ({ query, request }) => {
      checkPage(query);
      checkBookSort(query);
      if (wantsCsv(request, query.format)) {
        checkCsvPage(request.url);
        return csvReply(request, "offers.csv", exportOffers(database(), query));
      }
      return { text: await listOffers(database(), query) };
    },
  }),
  endpoint({
    path: "/v1/offers/[pda]",
    params: { pda: address("pda") },
    cache: CACHE.offer,
    answer: async ({ params: { pda } }) => {
      const offer = await getOffer(database(), pda);
      if (offer === undefined) throw notFound(`offer ${pda} is unknown to the indexer`);
      return { text: offer };
    },
  }),
  endpoint({
    path: "/v1/offers/[pda]/fills",
    params: { pda: address("pda") },
    query: offerFillListQuery,
    cache: CACHE.list,
    answer: async ({ params: { pda }, query }) => {
      checkPage(query);
      const text = await listOfferFills(database(), pda, query);
      if (text === undefined) throw notFound(`offer ${pda} is unknown to the indexer`);
      return { text };
    },
  }),
  endpoint({
    path: "/v1/fills",
    query: fillListQuery,
    cache: CACHE.list,
    answer: async ({ query, request }) => {
      checkPage(query);
      checkTimeRange(query);
      if (wantsCsv(request, query.format)) {
        checkCsvPage(request.url);
        return csvReply(request, "fills.csv", exportFills(database(), query, query.cursor));
      }
      return { text: await listFills(database(), query) };
    },
  }),
  endpoint({
    path: "/v1/makers",
    query: makerLeaderboardQuery,
    cache: CACHE.maker,
    answer: async ({ query }) => {
      checkPage(query);
      checkMakerSort(query);
      return { text: await listMakerLeaderboard(database(), query) };
    },
  }),
  endpoint({
    path: "/v1/makers/[maker]/stats",
    params: { maker: address("maker") },
    query: makerStatsQuery,
    cache: CACHE.maker,
    answer: async ({ params: { maker }, query }) => ({ text: await makerStats(database(), maker, query.window) }),
  }),
  endpoint({
    path: "/v1/makers/[maker]/offers",
    params: { maker: address("maker") },
    query: makerOfferListQuery,
    cache: CACHE.list,
    answer: async ({ params: { maker }, query }) => {
      checkPage(query);
      return { text: await listOffers(database(), { ...query, maker }) };
    },
  }),
  endpoint({
    path: "/v1/wallets/[address]/trades",
    params: { address: address("address") },
    query: walletTradeQuery,
    cache: CACHE.list,
    answer: async ({ params, query, request }) => {
      checkPage(query);
      if (wantsCsv(request, query.format)) {
        checkCsvPage(request.url);
        return csvReply(request, `trades-${params.address}.csv`, exportWalletTrades(database(), { ...query, address: params.address }));
      }
      return { text: await listWalletTrades(database(), { ...query, address: params.address }) };
    },
  }),
  endpoint({
    path: "/v1/candles",
    query: candleQuery,
    cache: CACHE.candles,
    answer: async ({ query: { units, invert, includeEmpty, ...query } }) => {
      checkTimeRange(query);
      const q = { ...query, resolution: CANDLE_RESOLUTIONS[query.resolution] };
      if (units === "raw" && !invert && !includeEmpty) return { text: await listCandles(database(), q) };
      const decimals = units === "human" ? await knownPairDecimals(q, "units", "; use units=raw") : undefined;
      return { text: await listChartCandles(database(), q, { includeEmpty, invert, decimals }) };
    },
  }),
  endpoint({ path: "/v1/book", query: bookQuery, cache: CACHE.list, answer: async ({ query }) => ({ text: await readBook(database(), query) }) }),
  endpoint({
    path: "/v1/tokens",
    cache: CACHE.tokens,
    answer: async ({ request }) => {
      const tokens = await tokenService().resolve(parseMints(request.url)).catch(fromTokens);
      return { value: { tokens: tokens.map(origin(request, request.url)) } };
    },
  }),
  endpoint({
    path: "/v1/trending",
    cache: CACHE.trending,
    answer: async ({ request }) => {
      const trending = await tokenService().trending().catch(fromTokens);
      return { value: { ...trending, items: trending.items.map(origin(request, request.url)) } };
    },
  }),
  endpoint({ path: "/v1/stream", query: streamQuery, cache: CACHE.none, answer: ({ query, request }) => feedStream(query, request) }),
  ...ADAPTER_ROUTES,
  // Any other path under /v1: the JSON 404 (Next's catch-all route, the launcher's no-match).
  endpoint({
    path: "/v1/[...path]",
    cache: CACHE.none,
    answer: async ({ request }) => {
      throw notFound(`no endpoint at ${request.url.pathname}; see GET /v1 for the list`);
    },
  }),
];

export const apiRoutes = endpointMatcher(API_ROUTES);
