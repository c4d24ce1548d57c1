import { dexToolsErrorShape } from "../adapter-errors";
import { coinGeckoOrderbookQuery, coinGeckoTradesQuery, dexAssetQuery, dexBlockQuery, dexEventsQuery, dexPairQuery } from "../adapter-query-schemas";
import * as adapter from "./adapter-schemas";
import type { z } from "zod";
import type { ZodOpenApiOperationObject } from "zod-openapi";
import type { ERROR_STATUS } from "../errors";
import type { ErrorShape } from "../endpoint";

// The aggregator adapters' paths in the OpenAPI document (./document.ts
// passes its `read` builder in, so nothing here restates a response's headers).

/** A route family's own error body (the DEXTools adapter's): its schema, and how it reshapes ours. */
export interface ErrorForm {
  schema: z.ZodType;
  shape: ErrorShape;
}

/** What ./document.ts's `read` builder takes, as far as these paths use it. */
interface AdapterRead {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  query?: z.ZodObject;
  ok: z.ZodType;
  errors?: (typeof ERROR_STATUS)[keyof typeof ERROR_STATUS][];
  errorForm?: ErrorForm;
}

type ReadPath = (r: AdapterRead) => { get: ZodOpenApiOperationObject };

const DEXTOOLS_ERRORS: ErrorForm = { schema: adapter.dexToolsError, shape: dexToolsErrorShape };

const UNITS =
  "Prices are payment per whole token and amounts whole tokens (shifted by the mints' decimals), exact decimal strings; " +
  "a ticker_id is TOKEN_PAYMENT (the mints, base58).";

export function adapterPaths(read: ReadPath) {
  const dex = (r: Omit<AdapterRead, "tags">) => read({ ...r, tags: ["dextools"], errorForm: DEXTOOLS_ERRORS });
  return {
    "/v1/coingecko/pairs": read({
      operationId: "listCoinGeckoPairs",
      summary: "CoinGecko standard: the pairs",
      description: `The pairs of /v1/coingecko/tickers. ${UNITS}`,
      tags: ["coingecko"],
      ok: adapter.coinGeckoPairs,
      errors: [502],
    }),
    "/v1/coingecko/tickers": read({
      operationId: "listCoinGeckoTickers",
      summary: "CoinGecko standard: 24-hour tickers",
      description:
        "Every pair with an open offer or a fill in the last 24 hours whose two mints' decimals are known, busiest first: last, best " +
        `bid and ask, the day's high, low and volumes. ${UNITS}`,
      tags: ["coingecko"],
      ok: adapter.coinGeckoTickers,
      errors: [502],
    }),
    "/v1/coingecko/orderbook": read({
      operationId: "getCoinGeckoOrderbook",
      summary: "CoinGecko standard: one pair's order book",
      description: `/v1/book's levels as [price, quantity] pairs, bids highest first, asks lowest first. ${UNITS} 400 when a mint's decimals are unknown.`,
      tags: ["coingecko"],
      query: coinGeckoOrderbookQuery,
      ok: adapter.coinGeckoOrderbook,
      errors: [400, 502],
    }),
    "/v1/coingecko/historical_trades": read({
      operationId: "listCoinGeckoTrades",
      summary: "CoinGecko standard: one pair's trades",
      description: `The newest fills in [start_time, end_time], newest first, split by the taker's side. ${UNITS} start_time must not be after end_time.`,
      tags: ["coingecko"],
      query: coinGeckoTradesQuery,
      ok: adapter.coinGeckoTrades,
      errors: [400, 502],
    }),
    "/v1/dextools/latest-block": dex({
      operationId: "getDexToolsLatestBlock",
      summary: "DEXTools adapter: the newest block whose events are all served",
      description:
        "A block is a slot with an indexed program transaction. Announced only once complete and final: below the scanner's checkpoint " +
        "slot and below every slot not yet finalized. 404 before any is.",
      ok: adapter.dexBlockAnswer,
      errors: [404],
    }),
    "/v1/dextools/block": dex({
      operationId: "getDexToolsBlock",
      summary: "DEXTools adapter: a block by number or timestamp",
      description: "By number (the slot; wins when both are given), or the newest announced block at or before timestamp; 400 with neither, 404 when none.",
      query: dexBlockQuery,
      ok: adapter.dexBlockAnswer,
      errors: [400, 404],
    }),
    "/v1/dextools/asset": dex({
      operationId: "getDexToolsAsset",
      summary: "DEXTools adapter: a token",
      description: "Name and symbol from the token provider; 404 for a mint no offer trades.",
      query: dexAssetQuery,
      ok: adapter.dexAssetAnswer,
      errors: [400, 404, 502],
    }),
    "/v1/dextools/pair": dex({
      operationId: "getDexToolsPair",
      summary: "DEXTools adapter: a pair (a market)",
      description: "The market TOKEN:PAYMENT, created with its first indexed offer; the factory is the offer-book program. 404 when no offer was made on it.",
      query: dexPairQuery,
      ok: adapter.dexPairAnswer,
      errors: [400, 404],
    }),
    "/v1/dextools/events": dex({
      operationId: "listDexToolsEvents",
      summary: "DEXTools adapter: swaps in a range of blocks",
      description:
        "Every fill in [fromBlock, toBlock] up to the announced block, as a swap seen from the taker, in block order. fromBlock must not " +
        "be after toBlock; a range spans at most 100,000 slots.",
      query: dexEventsQuery,
      ok: adapter.dexEventsAnswer,
      errors: [400, 502],
    }),
  };
}
