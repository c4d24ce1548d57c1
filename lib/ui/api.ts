import type { FillFilters } from "../queries/fills";
import type { Candle, FillList, MakerStats, Market, Offer, OfferFillList, OfferList, OfferStatus, ProtocolStats, Token, Trending } from "./types";

// The browser's client for /v1: one function per endpoint, same origin.

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
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : "";
}

async function get<T>(path: string, query: Query = {}, signal?: AbortSignal): Promise<T> {
  const response = await fetch(`/v1${path}${queryString(query)}`, { signal, headers: { accept: "application/json" } });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string; code?: string } | null;
    throw new ApiRequestError(response.status, body?.code ?? "http_error", body?.error ?? `HTTP ${response.status}`);
  }
  return (await response.json()) as T;
}

export interface OfferQuery {
  status?: OfferStatus;
  maker?: string;
  tokenMint?: string;
  paymentMint?: string;
  side?: "sell" | "buy";
  sort?: "price" | "created";
  limit?: number;
  offset?: number;
  cursor?: string;
}

/** The /v1/fills filters, as the query layer defines them, and a page. */
export type FillQuery = FillFilters & { limit?: number; cursor?: string };

export const api = {
  offers: (q: OfferQuery, signal?: AbortSignal) => get<OfferList>("/offers", { ...q }, signal),
  offer: (pda: string, signal?: AbortSignal) => get<Offer>(`/offers/${pda}`, {}, signal),
  offerFills: (pda: string, signal?: AbortSignal) => get<OfferFillList>(`/offers/${pda}/fills`, {}, signal),
  fills: (q: FillQuery, signal?: AbortSignal) => get<FillList>("/fills", { ...q }, signal),
  makerStats: (maker: string, signal?: AbortSignal) => get<MakerStats>(`/makers/${maker}/stats`, {}, signal),
  makerOffers: (maker: string, q: { status: OfferStatus; limit?: number; cursor?: string }, signal?: AbortSignal) =>
    get<OfferList>(`/makers/${maker}/offers`, { ...q }, signal),
  stats: (signal?: AbortSignal) => get<ProtocolStats>("/stats", {}, signal),
  markets: (signal?: AbortSignal) => get<{ markets: Market[] }>("/markets", {}, signal),
  candles: (q: { tokenMint: string; paymentMint: string; resolution: string; limit?: number }, signal?: AbortSignal) =>
    get<{ candles: Candle[] }>("/candles", { ...q }, signal),
  trending: (signal?: AbortSignal) => get<Trending>("/trending", {}, signal),
  tokens: (mints: string[], signal?: AbortSignal) => get<{ tokens: Token[] }>("/tokens", { mints: mints.join(",") }, signal),
};

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
          const token = tokens.get(mint) ?? { mint, symbol: null, name: null, decimals: null, imageUrl: "/token-placeholder.svg" };
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
