"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, type FillQuery } from "@/client/api";
import { shareFillRows } from "@/client/fill-rows";
import { POLL_MS } from "@/client/refresh";
import { usePollInterval } from "../live/live-status";
import { CANDLE_LIMIT } from "./candle-limit";
import type { FillList, MakerStats, Market, Offer, OfferFillList, OfferList, OfferStatus, ProtocolStats, Trending } from "@/client/types";

// Every live query of the UI. Each starts from the server's first render
// (initialData, so nothing refetches on mount). The page's stream
// (components/live) merges changes in; while it is not live, each query polls
// at its endpoint's cache lifetime (client/refresh.ts), as the fallback.
// Polling pauses in background tabs.

const seeded = <T,>(initial: T | undefined) => (initial === undefined ? {} : { initialData: initial, initialDataUpdatedAt: Date.now() });

export function useMarkets(initial?: Market[]) {
  const poll = usePollInterval(POLL_MS.markets);
  return useQuery({
    queryKey: ["markets"],
    queryFn: ({ signal }) => api.markets(signal),
    select: (d) => d.markets,
    refetchInterval: poll,
    ...seeded(initial && { markets: initial }),
  });
}

export function useStats(initial?: ProtocolStats) {
  const poll = usePollInterval(POLL_MS.stats);
  return useQuery({ queryKey: ["stats"], queryFn: ({ signal }) => api.stats(signal), refetchInterval: poll, staleTime: POLL_MS.stats, ...seeded(initial) });
}

export function useBookSide(tokenMint: string, paymentMint: string, side: "sell" | "buy", initial?: OfferList) {
  const poll = usePollInterval(POLL_MS.list);
  return useQuery({
    queryKey: ["book", tokenMint, paymentMint, side],
    queryFn: ({ signal }) => api.offers({ tokenMint, paymentMint, side, status: "open", sort: "price", limit: 200 }, signal),
    refetchInterval: poll,
    ...seeded(initial),
  });
}

/** A page of fills; only the newest page (no cursor) is live. */
export function useFills(query: FillQuery, initial?: FillList) {
  const poll = usePollInterval(POLL_MS.list);
  return useQuery({
    queryKey: ["fills", query],
    queryFn: ({ signal }) => api.fills(query, signal),
    refetchInterval: query.cursor ? false : poll,
    placeholderData: keepPreviousData,
    // A merged or refetched page keeps its unchanged rows' objects, so only new rows draw.
    structuralSharing: shareFillRows,
    ...seeded(initial),
  });
}

/** The chart's timeframes, each a resolution /v1/candles serves. */
export const TIMEFRAMES = ["1m", "5m", "1h", "1d"] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];

/** A pair's newest candles at one timeframe (the book's chart); the stream's candle events upsert them. */
export function useCandles(tokenMint: string, paymentMint: string, resolution: Timeframe) {
  const poll = usePollInterval(POLL_MS.list);
  return useQuery({
    queryKey: ["candles", tokenMint, paymentMint, resolution],
    queryFn: ({ signal }) => api.candles({ tokenMint, paymentMint, resolution, limit: CANDLE_LIMIT }, signal),
    select: (d) => d.candles,
    refetchInterval: poll,
    placeholderData: keepPreviousData,
  });
}

export function useOffer(pda: string, initial: Offer) {
  const poll = usePollInterval(POLL_MS.offer);
  return useQuery({ queryKey: ["offer", pda], queryFn: ({ signal }) => api.offer(pda, signal), refetchInterval: poll, ...seeded(initial) });
}

export function useOfferFills(pda: string, initial: OfferFillList) {
  const poll = usePollInterval(POLL_MS.list);
  return useQuery({ queryKey: ["offer-fills", pda], queryFn: ({ signal }) => api.offerFills(pda, signal), refetchInterval: poll, structuralSharing: shareFillRows, ...seeded(initial) });
}

export function useMakerStats(maker: string, initial: MakerStats) {
  const poll = usePollInterval(POLL_MS.makerStats);
  return useQuery({ queryKey: ["maker-stats", maker], queryFn: ({ signal }) => api.makerStats(maker, signal), refetchInterval: poll, ...seeded(initial) });
}

export function useMakerOffers(maker: string, status: OfferStatus, cursor: string | undefined, initial?: OfferList) {
  const poll = usePollInterval(POLL_MS.list);
  return useQuery({
    queryKey: ["maker-offers", maker, status, cursor ?? null],
    queryFn: ({ signal }) => api.makerOffers(maker, { status, limit: 50, cursor }, signal),
    refetchInterval: cursor ? false : poll,
    placeholderData: keepPreviousData,
    ...seeded(initial),
  });
}

export function useTrending(initial: Trending | null) {
  return useQuery({
    queryKey: ["trending"],
    queryFn: ({ signal }) => api.trending(signal),
    refetchInterval: POLL_MS.trending,
    staleTime: POLL_MS.trending,
    ...seeded(initial ?? undefined),
  });
}
