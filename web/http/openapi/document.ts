import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiResponsesObject } from "zod-openapi";
import { ERROR_STATUS } from "../errors";
import { address, cursor } from "../params";
import { bookQuery, candleQuery, fillListQuery, makerOfferListQuery, MAX_MINTS, offerFillListQuery, offerListQuery, walletTradeQuery } from "../query-schemas";
import * as body from "./response-schemas";

// GET /v1/openapi.json: built from the zod schemas that validate each route's
// query (web/http/query-schemas.ts) and describe its answer
// (./response-schemas.ts); nothing here restates a parameter or a field.

const rateLimitHeaders = {
  "ratelimit-limit": z.string().meta({ description: "Requests allowed per window", example: "1200" }),
  "ratelimit-remaining": z.string().meta({ description: "Requests left in this window", example: "1187" }),
  "ratelimit-reset": z.string().meta({ description: "Seconds until the window refills; a 429's retry-after", example: "42" }),
  "ratelimit-policy": z.string().meta({ description: "The budget: requests;w=window seconds", example: "1200;w=60" }),
};

const okHeaders = z.object({
  etag: z.string().meta({ description: "A strong validator of the body; send it back as If-None-Match", example: '"q2Fz0cX3bW1hZm0yZQ"' }),
  "cache-control": z.string().meta({ example: "public, max-age=2, s-maxage=2, stale-while-revalidate=5" }),
  ...rateLimitHeaders,
});

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "A parameter is missing (missing_parameter) or invalid (invalid_parameter); `param` names it",
  404: "Not found (not_found)",
  405: "Only GET, HEAD and OPTIONS (method_not_allowed); the allow header lists them",
  429: "Over the request budget (rate_limited); retry after retry-after seconds",
  500: "Internal error (internal_error)",
  502: "The token data provider failed and nothing cached or on chain answers (upstream_error)",
  503: "The database is unreachable (unavailable); retry after retry-after seconds",
};

const ERROR_EXAMPLES: Record<number, z.infer<typeof body.errorBody>> = {
  400: { error: "tokenMint must be a base58 address of 32 bytes", code: "invalid_parameter", param: "tokenMint" },
  404: { error: "no endpoint at /v1/orders; see GET /v1 for the list", code: "not_found" },
  405: { error: "POST is not allowed: this API is read-only (GET)", code: "method_not_allowed" },
  429: { error: "too many requests: slow down and retry after the delay given", code: "rate_limited" },
  500: { error: "internal error", code: "internal_error" },
  502: { error: "the token data provider failed; retry shortly", code: "upstream_error" },
  503: { error: "the database is unreachable; try again shortly", code: "unavailable" },
};

type ErrorStatus = (typeof ERROR_STATUS)[keyof typeof ERROR_STATUS];

function errorResponses(statuses: ErrorStatus[]): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const status of statuses) {
    const retry = status === 429 || status === 503 || status === 502;
    responses[String(status) as "400"] = {
      description: ERROR_DESCRIPTIONS[status]!,
      headers: z.object({
        ...(retry ? { "retry-after": z.string().meta({ description: "Seconds to wait", example: "5" }) } : {}),
        ...(status === 405 ? { allow: z.string().meta({ example: "GET, HEAD, OPTIONS" }) } : {}),
      }),
      content: { "application/json": { schema: body.errorBody, example: ERROR_EXAMPLES[status] } },
    };
  }
  return responses;
}

interface Read {
  summary: string;
  description?: string;
  tags: string[];
  query?: z.ZodObject;
  path?: z.ZodObject;
  ok: z.ZodType;
  example?: unknown;
  /** Error statuses beyond the ones every read can meet (405, 429, 500, 503). */
  errors?: ErrorStatus[];
}

function read({ summary, description, tags, query, path, ok, example, errors = [] }: Read): { get: ZodOpenApiOperationObject } {
  return {
    get: {
      summary,
      description,
      tags,
      requestParams: { ...(query ? { query } : {}), ...(path ? { path } : {}) },
      responses: {
        "200": { description: "OK", headers: okHeaders, content: { "application/json": { schema: ok, ...(example ? { example } : {}) } } },
        "304": { description: "Not modified: If-None-Match named the current ETag (no body)", headers: okHeaders },
        ...errorResponses([...errors, 405, 429, 500, 503].sort() as ErrorStatus[]),
      },
    },
  };
}

const pdaPath = z.object({ pda: address("pda").meta({ description: "The offer's account address" }) });
const makerPath = z.object({ maker: address("maker").meta({ description: "The maker's wallet" }) });
const walletPath = z.object({ address: address("address").meta({ description: "The wallet" }) });
const tokensQuery = z.object({
  mints: z.string().meta({ description: `1 to ${MAX_MINTS} comma-separated base58 mints`, example: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v,Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB" }),
});
const streamQuery = z.object({
  tokenMint: address("tokenMint").optional(),
  paymentMint: address("paymentMint").optional(),
  maker: address("maker").optional(),
  offerPda: address("offerPda").optional(),
  types: z.string().optional().meta({ description: "Comma-separated event types to receive (all when absent)", example: "fill,offer" }),
  after: cursor.optional().meta({ description: "Resume after this event id (as Last-Event-ID)" }),
});

const EXAMPLE_CANDLES = {
  candles: [
    { time: 1780617600, open: "2.5", high: "2.61", low: "2.48", close: "2.6", volume: "1500000000", quoteVolume: "3862500000", fills: 12 },
  ],
};

export function openApiDocument() {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Offer book explorer API",
      version: "v1",
      description:
        "Read-only JSON over the offer-book program's offers and fills. Raw amounts are decimal strings in base units. " +
        "Every answer carries a strong ETag (If-None-Match gets 304), a cache policy and the request budget's RateLimit headers.",
    },
    servers: [{ url: "/" }],
    tags: [{ name: "offers" }, { name: "fills" }, { name: "stats" }, { name: "tokens" }, { name: "markets" }, { name: "meta" }],
    paths: {
      "/v1": read({ summary: "The list of endpoints", tags: ["meta"], ok: body.endpointIndex }),
      "/v1/openapi.json": read({ summary: "This document (OpenAPI 3.1)", tags: ["meta"], ok: z.object({ openapi: z.string() }).loose() }),
      "/v1/offers": read({
        summary: "Offers, newest first or by price within one book",
        tags: ["offers"],
        query: offerListQuery,
        ok: body.offerList,
        errors: [400],
        description: "sort=price needs tokenMint and paymentMint and pages by offset; otherwise page by `cursor` (extension) or offset.",
      }),
      "/v1/offers/{pda}": read({ summary: "One offer", tags: ["offers"], path: pdaPath, ok: body.offer, errors: [400, 404] }),
      "/v1/offers/{pda}/fills": read({
        summary: "One offer's fills, newest first",
        tags: ["offers", "fills"],
        path: pdaPath,
        query: offerFillListQuery,
        ok: body.offerFillList,
        errors: [400, 404],
      }),
      "/v1/fills": read({ summary: "The fill feed, newest first (slot, signature, position)", tags: ["fills"], query: fillListQuery, ok: body.fillList, errors: [400] }),
      "/v1/makers/{maker}/stats": read({ summary: "A maker's offer counts and volumes", tags: ["stats"], path: makerPath, ok: body.makerStats, errors: [400] }),
      "/v1/makers/{maker}/offers": read({ summary: "A maker's offers", tags: ["offers"], path: makerPath, query: makerOfferListQuery, ok: body.offerList, errors: [400] }),
      "/v1/stats": read({ summary: "Protocol totals", tags: ["stats"], ok: body.protocolStats }),
      "/v1/tokens": read({ summary: "Token metadata for mints", tags: ["tokens"], query: tokensQuery, ok: body.tokenList, errors: [400, 502] }),
      "/v1/trending": read({ summary: "Trending tokens from the data provider", tags: ["tokens"], ok: body.trending, errors: [502] }),
      "/v1/markets": read({
        summary: "Extension: pairs with open offers or fills in the last 24 hours, busiest first",
        tags: ["markets"],
        ok: body.marketList,
      }),
      "/v1/candles": read({
        summary: "Extension: OHLC candles of one pair",
        description:
          "Buckets with fills whose start lies in [fromTime, toTime], the newest `limit` of them, oldest first. Prices are raw payment " +
          "units per raw token unit (pricePerToken / 10^priceScale of the filled offer); open and close by slot, then signature and " +
          "position. To page back, pass toTime = the oldest time minus one. includeEmpty=true answers every bucket up to toTime's " +
          "(or now's), from the pair's first candle on, the newest `limit` of them. units=human and invert=true reshape the values " +
          "(see docs/api.md#candles).",
        tags: ["markets"],
        query: candleQuery,
        ok: body.candleList,
        example: EXAMPLE_CANDLES,
        errors: [400, 502],
      }),
      "/v1/book": read({
        summary: "Extension: the L2 book of one pair",
        description:
          "Open offers (as status=open: active and not past expiry) aggregated by exact price: asks lowest first, bids highest first, " +
          "`depth` levels per side. Prices as on offers and candles (raw payment units per raw token unit). slot and feedId say what " +
          "the book reflects; follow it live with /v1/stream?tokenMint=&paymentMint=&after=feedId.",
        tags: ["markets"],
        query: bookQuery,
        ok: body.book,
        errors: [400],
      }),
      "/v1/wallets/{address}/trades": read({
        summary: "Extension: a wallet's fills as maker or taker, newest first",
        description: "Each row is a Fill with the wallet's role in it. Page by `cursor` (the fill feed's keyset) or offset.",
        tags: ["fills"],
        path: walletPath,
        query: walletTradeQuery,
        ok: body.walletTradeList,
        errors: [400],
      }),
      "/v1/stream": {
        get: {
          summary: "Extension: live events as server-sent events",
          description: "Each event's id can be passed back as `after` (or Last-Event-ID) to resume.",
          tags: ["fills"],
          requestParams: { query: streamQuery },
          responses: {
            "200": { description: "An event stream", content: { "text/event-stream": { schema: z.string() } } },
            ...errorResponses([400, 429, 503]),
          },
        },
      },
    },
  });
}
