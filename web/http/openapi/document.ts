import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiResponsesObject } from "zod-openapi";
import { ERROR_STATUS } from "../errors";
import { address, BASE58_ADDRESS, MAX_QUERY_VALUE } from "../params";
import { bookQuery, candleQuery, fillListQuery, makerLeaderboardQuery, makerOfferListQuery, makerStatsQuery, MAX_MINTS, offerFillListQuery, offerListQuery, walletTradeQuery } from "../query-schemas";
import { errorHeaders, okHeaders, streamHeaders } from "./headers";
import * as body from "./response-schemas";
import { adapterPaths, type ErrorForm } from "./adapter-paths";

// GET /v1/openapi.json: built from the zod schemas that validate each route's
// query (web/http/query-schemas.ts) and describe its answer
// (./response-schemas.ts); nothing here restates a parameter or a field.

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "A parameter is missing (missing_parameter) or invalid (invalid_parameter); `param` names it. Also a request target that is not a path (`GET *`) or a request Node's parser cannot read",
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

export type ErrorStatus = (typeof ERROR_STATUS)[keyof typeof ERROR_STATUS];

const OUR_ERRORS: ErrorForm = { schema: body.errorBody, shape: (b) => b };

function errorResponses(statuses: ErrorStatus[], form: ErrorForm = OUR_ERRORS): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const status of statuses) {
    responses[String(status) as "400"] = {
      description: ERROR_DESCRIPTIONS[status]!,
      headers: errorHeaders(status),
      content: { "application/json": { schema: form.schema, example: form.shape(ERROR_EXAMPLES[status]!) } },
    };
  }
  return responses;
}

interface Read {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  query?: z.ZodObject;
  path?: z.ZodObject;
  ok: z.ZodType;
  example?: unknown;
  /** Error statuses beyond the ones every read can meet (405, 429, 500, 503). */
  errors?: ErrorStatus[];
  /** Also answers text/csv (format=csv or Accept: text/csv): the list's rows as CSV. */
  csv?: boolean;
  errorForm?: ErrorForm;
}

/** A CSV export's body: a header row of the list's field names, then one row per item, without end but the data's. */
const csvBody = z.string().max(1_000_000_000_000).meta({
  description: "CSV (RFC 4180, CRLF): a header row of the JSON item's field names, then every selected row in the list's order; amounts as decimal strings",
});

function read({ operationId, summary, description, tags, query, path, ok, example, errors = [], csv = false, errorForm }: Read): { get: ZodOpenApiOperationObject } {
  return {
    get: {
      operationId,
      summary,
      description,
      tags,
      requestParams: { ...(query ? { query } : {}), ...(path ? { path } : {}) },
      responses: {
        "200": {
          description: csv ? "OK: a page as JSON, or with format=csv (or Accept: text/csv) every row as a CSV attachment, streamed" : "OK",
          headers: okHeaders,
          content: {
            "application/json": { schema: ok, ...(example ? { example } : {}) },
            ...(csv ? { "text/csv": { schema: csvBody } } : {}),
          },
        },
        "304": { description: "Not modified: If-None-Match named the current ETag (no body)", headers: okHeaders },
        ...errorResponses([...errors, 405, 429, 500, 503].sort() as ErrorStatus[], errorForm),
      },
    },
  };
}

const pdaPath = z.object({ pda: address("pda").meta({ description: "The offer's account address" }) });
const makerPath = z.object({ maker: address("maker").meta({ description: "The maker's wallet" }) });
const walletPath = z.object({ address: address("address").meta({ description: "The wallet" }) });
const mintList = `\\s*${BASE58_ADDRESS}\\s*`;
const tokensQuery = z.object({
  mints: z.string().meta({
    description:
      `1 to ${MAX_MINTS} distinct comma-separated base58 mints (each decoding to 32 bytes); spaces around them and repeats are ignored`,
    example: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v,Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB",
    override: { type: "string", pattern: `^(\\s*,)*${mintList}(,(${mintList})?)*$`, minLength: 32, maxLength: MAX_QUERY_VALUE },
  }),
});
const FEED_TYPE = "(fill|offer|revoke|candle)";
const eventIdSchema = (what: string) =>
  z.string().regex(/^\d{1,19}$/).max(19).meta({ description: `${what}: an event id, the decimal string of an earlier event's id: line`, example: "1234" });
const streamQuery = z.object({
  tokenMint: address("tokenMint").optional(),
  paymentMint: address("paymentMint").optional(),
  maker: address("maker").optional(),
  offerPda: address("offerPda").optional(),
  types: z.string().optional().meta({
    description: "Comma-separated event types to receive, of fill, offer, revoke and candle (fill, offer and revoke when absent)",
    example: "fill,offer",
    override: { type: "string", pattern: `^(\\s*,)*\\s*${FEED_TYPE}\\s*(,(\\s*${FEED_TYPE}\\s*)?)*$`, maxLength: MAX_QUERY_VALUE },
  }),
  after: eventIdSchema("Resume after this event").optional(),
});
const streamHeaderParams = z.object({
  "last-event-id": eventIdSchema("Resume after this event, as EventSource sends on reconnecting; wins over `after`").optional(),
});

const EXAMPLE_CANDLES = {
  candles: [
    { time: 1780617600, open: "2.5", high: "2.61", low: "2.48", close: "2.6", volume: "1500000000", quoteVolume: "3862500000", fills: 12 },
  ],
};

/** Every integer the API reads or writes is a safe JavaScript integer: int64 says so for each (the OWASP ruleset asks it be said). */
function integersAreInt64({ jsonSchema }: { jsonSchema: { type?: unknown; format?: string } }): void {
  if (jsonSchema.type === "integer" && jsonSchema.format === undefined) jsonSchema.format = "int64";
}

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
    servers: [{ url: "/", description: "The origin serving this document: production, or a local run", "x-internal": false }],
    tags: [
      { name: "offers" },
      { name: "fills" },
      { name: "stats" },
      { name: "tokens" },
      { name: "markets" },
      { name: "meta" },
      { name: "coingecko", description: "The CoinGecko exchange API standard for order-book venues" },
      { name: "dextools", description: "The DEXTools HTTP adapter (dextools-io/integration-sdk)" },
    ],
    paths: {
      "/v1": read({
        operationId: "listEndpoints",
        summary: "The list of endpoints",
        description: "The endpoints of /v1, one line each; the same for every request until a deploy.",
        tags: ["meta"],
        ok: body.endpointIndex,
      }),
      "/v1/openapi.json": read({
        operationId: "getOpenApiDocument",
        summary: "This document (OpenAPI 3.1)",
        description: "This document, generated from the schemas the server validates with; rendered at /docs.",
        tags: ["meta"],
        ok: body.openApiDocument,
      }),
      "/v1/offers": read({
        operationId: "listOffers",
        summary: "Offers, newest first or by price within one book",
        tags: ["offers"],
        query: offerListQuery,
        ok: body.offerList,
        errors: [400],
        csv: true,
        description:
          "Rules across parameters (a 400 naming the parameter when broken): sort=price needs both tokenMint and paymentMint and pages by " +
          "offset, never by cursor; cursor and offset cannot be combined (a cursor with offset other than 0 is refused). Otherwise page by " +
          "`cursor` (extension) or offset.",
      }),
      "/v1/offers/{pda}": read({
        operationId: "getOffer",
        summary: "One offer",
        description: "The offer at this account address, in any status; 404 when the index has never seen it.",
        tags: ["offers"],
        path: pdaPath,
        ok: body.offer,
        errors: [400, 404],
      }),
      "/v1/offers/{pda}/fills": read({
        operationId: "listOfferFills",
        summary: "One offer's fills, newest first",
        description: "cursor and offset cannot be combined; limit defaults to 200 here.",
        tags: ["offers", "fills"],
        path: pdaPath,
        query: offerFillListQuery,
        ok: body.offerFillList,
        errors: [400, 404],
      }),
      "/v1/fills": read({
        operationId: "listFills",
        summary: "The fill feed, newest first (slot, signature, position)",
        description: "fromTime must not be after toTime; cursor and offset cannot be combined (400 naming the parameter).",
        tags: ["fills"],
        query: fillListQuery,
        ok: body.fillList,
        errors: [400],
        csv: true,
      }),
      "/v1/makers/{maker}/stats": read({
        operationId: "getMakerStats",
        summary: "A maker's offer counts and volumes",
        description:
          "Zeros for a wallet that has made no offer. Extensions: fillRate and medianSecondsToFirstFill over all time, and `activity` " +
          "in the window asked.",
        tags: ["stats"],
        path: makerPath,
        query: makerStatsQuery,
        ok: body.makerStats,
        errors: [400],
      }),
      "/v1/makers": read({
        operationId: "listMakers",
        summary: "Extension: the makers leaderboard of a window",
        description:
          "Makers with fills or offers created in the window, ranked by the sort key descending, then by maker. sort=volume needs " +
          "paymentMint (400 otherwise: volumes in different payment mints do not add up); paymentMint limits every figure to that " +
          "mint. Page by `cursor` or offset, not both. Kept by triggers in hourly and daily buckets: never a scan of the fills.",
        tags: ["stats"],
        query: makerLeaderboardQuery,
        ok: body.makerLeaderboard,
        errors: [400],
      }),
      "/v1/makers/{maker}/offers": read({
        operationId: "listMakerOffers",
        summary: "A maker's offers",
        description: "Newest first; cursor and offset cannot be combined.",
        tags: ["offers"],
        path: makerPath,
        query: makerOfferListQuery,
        ok: body.offerList,
        errors: [400],
      }),
      "/v1/stats": read({
        operationId: "getProtocolStats",
        summary: "Protocol totals",
        description: "Counts of offers by status and volumes by mint over the whole index.",
        tags: ["stats"],
        ok: body.protocolStats,
      }),
      "/v1/tokens": read({
        operationId: "listTokens",
        summary: "Token metadata for mints",
        description:
          "Metadata from the token data provider (cached), decimals from the chain where the provider has none, and each mint's safety " +
          "read from its account on chain (authorities, token program, the Token-2022 extensions that matter to a buyer) in the same read. " +
          "502 when the provider " +
          "failed and nothing cached answers; 503 when our own budget of calls to the provider cannot serve the request in time, or the " +
          "chain did not answer; both with retry-after.",
        tags: ["tokens"],
        query: tokensQuery,
        ok: body.tokenList,
        errors: [400, 502],
      }),
      "/v1/trending": read({
        operationId: "listTrendingTokens",
        summary: "Trending tokens from the data provider",
        description: "The provider's trending list of the last 24 hours, refreshed at most every 30 seconds.",
        tags: ["tokens"],
        ok: body.trending,
        errors: [502],
      }),
      "/v1/markets": read({
        operationId: "listMarkets",
        summary: "Extension: pairs with open offers or fills in the last 24 hours, busiest first",
        description: "Every pair with an open offer or a fill in the last 24 hours, with its best prices and 24-hour volume.",
        tags: ["markets"],
        ok: body.marketList,
      }),
      "/v1/candles": read({
        operationId: "listCandles",
        summary: "Extension: OHLC candles of one pair",
        description:
          "Buckets with fills whose start lies in [fromTime, toTime], the newest `limit` of them, oldest first. Prices are raw payment " +
          "units per raw token unit (pricePerToken / 10^priceScale of the filled offer); open and close by slot, then signature and " +
          "position. To page back, pass toTime = the oldest time minus one; fromTime must not be after toTime. includeEmpty=true answers every bucket up to toTime's " +
          "(or now's), from the pair's first candle on, the newest `limit` of them. units=human and invert=true reshape the values " +
          "(see docs/api.md#candles).",
        tags: ["markets"],
        query: candleQuery,
        ok: body.candleList,
        example: EXAMPLE_CANDLES,
        errors: [400, 502],
      }),
      "/v1/book": read({
        operationId: "getBook",
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
        operationId: "listWalletTrades",
        summary: "Extension: a wallet's fills as maker or taker, newest first",
        description: "Each row is a Fill with the wallet's role in it. Page by `cursor` (the fill feed's keyset) or offset.",
        tags: ["fills"],
        path: walletPath,
        query: walletTradeQuery,
        ok: body.walletTradeList,
        errors: [400],
        csv: true,
      }),
      "/v1/stream": {
        get: {
          operationId: "streamEvents",
          summary: "Extension: live events as server-sent events",
          description:
            "Each event's id can be passed back as `after` (or the Last-Event-ID header, which wins when both are sent) to resume. " +
            "429 also when this client has too many streams open.",
          tags: ["fills"],
          requestParams: { query: streamQuery, header: streamHeaderParams },
          responses: {
            "200": {
              description: "An event stream",
              headers: streamHeaders,
              content: { "text/event-stream": { schema: z.string().max(1_000_000_000).meta({ description: "Server-sent events, without end" }) } },
            },
            ...errorResponses([400, 405, 429, 500, 503]),
          },
        },
      },
      ...adapterPaths(read),
    },
  }, { override: integersAreInt64 });
}
