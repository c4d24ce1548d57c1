import createClient from "openapi-fetch";
import type { FillFilters } from "../lib/db/reads/fills";
import type { paths } from "./api-schema";
import type { ApiErrorBody, Token } from "./types";

// The browser's client for /v1, same origin: openapi-fetch typed from the
// OpenAPI document (client/api-schema.d.ts, `npm run api:types`), so a path,
// parameter or answer the document does not have fails to compile.

export class ApiRequestError extends Error {
  override name = "ApiRequestError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | undefined | null>;

export function queryString(query: Query): string {
  const text = new URLSearchParams(wire<Record<string, string>>(query)).toString();
  return text ? `?${text}` : "";
}

type QueryOf<P extends keyof paths> = paths[P]["get"]["parameters"] extends { query?: infer Q } ? NonNullable<Q> : never;

/** A query as the UI holds it: numbers where the wire has digits, and empty values that are left out. */
type UiQuery<Q> = { [K in keyof Q]?: Q[K] | number | null };

/** The query as sent: every value a string, the empty ones dropped. */
function wire<Q>(query: UiQuery<Q>): Q {
  const sent: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== "") sent[key] = String(value);
  return sent as Q;
}

/** The answer's body, or an ApiRequestError with the API's error code. */
async function answer<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await pending;
  if (response.ok && data !== undefined) return data;
  const body = (typeof error === "object" ? error : null) as Partial<ApiErrorBody> | null;
  throw new ApiRequestError(response.status, body?.code ?? "http_error", body?.error ?? `HTTP ${response.status}`);
}

export type OfferQuery = UiQuery<QueryOf<"/v1/offers">>;

/** The /v1/fills filters, as the query layer defines them, and a page. */
export type FillQuery = FillFilters & { limit?: number; cursor?: string };

type CandleQuery = UiQuery<QueryOf<"/v1/candles">> & { tokenMint: string; paymentMint: string; resolution: QueryOf<"/v1/candles">["resolution"] };

/** The client of the /v1 API at `baseUrl` (the page's own origin when empty). */
export function createApi(baseUrl = "") {
  // JSON answers only: the CSV exports (text/csv) are downloads, not read by the pages.
  const client = createClient<paths, "application/json">({ baseUrl, headers: { accept: "application/json" } });
  return {
    offers: (q: OfferQuery, signal?: AbortSignal) => answer(client.GET("/v1/offers", { params: { query: wire(q) }, signal })),
    offer: (pda: string, signal?: AbortSignal) => answer(client.GET("/v1/offers/{pda}", { params: { path: { pda } }, signal })),
    offerFills: (pda: string, signal?: AbortSignal) => answer(client.GET("/v1/offers/{pda}/fills", { params: { path: { pda } }, signal })),
    fills: (q: FillQuery, signal?: AbortSignal) => answer(client.GET("/v1/fills", { params: { query: wire<QueryOf<"/v1/fills">>(q) }, signal })),
    makerStats: (maker: string, signal?: AbortSignal) => answer(client.GET("/v1/makers/{maker}/stats", { params: { path: { maker } }, signal })),
    makerOffers: (maker: string, q: UiQuery<QueryOf<"/v1/makers/{maker}/offers">>, signal?: AbortSignal) =>
      answer(client.GET("/v1/makers/{maker}/offers", { params: { path: { maker }, query: wire(q) }, signal })),
    stats: (signal?: AbortSignal) => answer(client.GET("/v1/stats", { signal })),
    markets: (signal?: AbortSignal) => answer(client.GET("/v1/markets", { signal })),
    candles: (q: CandleQuery, signal?: AbortSignal) => answer(client.GET("/v1/candles", { params: { query: wire<QueryOf<"/v1/candles">>(q) }, signal })),
    trending: (signal?: AbortSignal) => answer(client.GET("/v1/trending", { signal })),
    tokens: (mints: string[], signal?: AbortSignal) => answer(client.GET("/v1/tokens", { params: { query: { mints: mints.join(",") } }, signal })),
    book: (q: UiQuery<QueryOf<"/v1/book">>, signal?: AbortSignal) => answer(client.GET("/v1/book", { params: { query: wire(q) }, signal })),
    walletTrades: (address: string, q: UiQuery<QueryOf<"/v1/wallets/{address}/trades">>, signal?: AbortSignal) =>
      answer(client.GET("/v1/wallets/{address}/trades", { params: { path: { address }, query: wire(q) }, signal })),
  };
}

export const api = createApi();

const MAX_MINTS_PER_CALL = 100;

/**
 * Collects the token lookups of one render pass (each cell asks for its own
 * mint) into a /v1/tokens call per 100 mints.
 */
export function createTokenBatcher(fetchTokens: (mints: string[]) => Promise<Token[]> = async (m) => (await api.tokens(m)).tokens) {
  let pending = new Map<string, { resolve: (t: Token) => void; reject: (e: unknown) => void }[]>();
  let scheduled = false;

  async function flush() {
    const batch = pending;
    pending = new Map();
    scheduled = false;
    const mints = [...batch.keys()];
    for (let i = 0; i < mints.length; i += MAX_MINTS_PER_CALL) {
      const chunk = mints.slice(i, i + MAX_MINTS_PER_CALL);
      try {
        const tokens = new Map((await fetchTokens(chunk)).map((t) => [t.mint, t]));
        for (const mint of chunk) {
          const token = tokens.get(mint) ?? { mint, symbol: null, name: null, decimals: null, imageUrl: "/token-placeholder.svg", isVerified: null, safety: null };
          for (const waiter of batch.get(mint) ?? []) waiter.resolve(token);
        }
      } catch (error) {
        for (const mint of chunk) for (const waiter of batch.get(mint) ?? []) waiter.reject(error);
      }
    }
  }

  return function load(mint: string): Promise<Token> {
    return new Promise((resolve, reject) => {
      const waiters = pending.get(mint) ?? [];
      waiters.push({ resolve, reject });
      pending.set(mint, waiters);
      if (!scheduled) {
        scheduled = true;
        setTimeout(flush, 10);
      }
    });
  };
}
