"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, type FillQuery } from "@/lib/ui/api";
import { POLL_MS } from "@/lib/ui/refresh";
import type { FillList, MakerStats, Market, Offer, OfferFillList, OfferList, OfferStatus, ProtocolStats, Trending } from "@/lib/ui/types";

// Every live query of the UI. Each starts from the server's first render
// (initialData, so nothing refetches on mount) and polls at its endpoint's
// cache lifetime (lib/ui/refresh.ts); polling pauses in background tabs.

const seeded = <T,>(initial: T | undefined) => (initial === undefined ? {} : { initialData: initial, initialDataUpdatedAt: Date.now() });

export function useMarkets(initial?: Market[]) {
  return useQuery({
    queryKey: ["markets"],
    queryFn: ({ signal }) => api.markets(signal),
    select: (d) => d.markets,
    refetchInterval: POLL_MS.markets,
    ...seeded(initial && { markets: initial }),
  });
}

export function useStats(initial?: ProtocolStats) {
  return useQuery({ queryKey: ["stats"], queryFn: ({ signal }) => api.stats(signal), refetchInterval: POLL_MS.stats, staleTime: POLL_MS.stats, ...seeded(initial) });
}

export function useBookSide(tokenMint: string, paymentMint: string, side: "sell" | "buy", initial?: OfferList) {
  return useQuery({
    queryKey: ["book", tokenMint, paymentMint, side],
    queryFn: ({ signal }) => api.offers({ tokenMint, paymentMint, side, status: "open", sort: "price", limit: 200 }, signal),
    refetchInterval: POLL_MS.list,
    ...seeded(initial),
  });
}

/** A page of fills; only the newest page (no cursor) is live. */
export function useFills(query: FillQuery, initial?: FillList) {
  return useQuery({
    queryKey: ["fills", query],
    queryFn: ({ signal }) => api.fills(query, signal),
    refetchInterval: query.cursor ? false : POLL_MS.list,
    placeholderData: keepPreviousData,
    ...seeded(initial),
  });
}

/** A pair's last day of one-minute candles (the book's price chart). */
export function useCandles(tokenMint: string, paymentMint: string) {
  return useQuery({
    queryKey: ["candles", tokenMint, paymentMint],
    queryFn: ({ signal }) => api.candles({ tokenMint, paymentMint, resolution: "1m", limit: 1440 }, signal),
    select: (d) => d.candles,
    refetchInterval: POLL_MS.list,
    placeholderData: keepPreviousData,
  });
}

export function useOffer(pda: string, initial: Offer) {
  return useQuery({ queryKey: ["offer", pda], queryFn: ({ signal }) => api.offer(pda, signal), refetchInterval: POLL_MS.offer, ...seeded(initial) });
}

export function useOfferFills(pda: string, initial: OfferFillList) {
  return useQuery({ queryKey: ["offer-fills", pda], queryFn: ({ signal }) => api.offerFills(pda, signal), refetchInterval: POLL_MS.list, ...seeded(initial) });
}

export function useMakerStats(maker: string, initial: MakerStats) {
  return useQuery({ queryKey: ["maker-stats", maker], queryFn: ({ signal }) => api.makerStats(maker, signal), refetchInterval: POLL_MS.makerStats, ...seeded(initial) });
}

export function useMakerOffers(maker: string, status: OfferStatus, cursor: string | undefined, initial?: OfferList) {
  return useQuery({
    queryKey: ["maker-offers", maker, status, cursor ?? null],
    queryFn: ({ signal }) => api.makerOffers(maker, { status, limit: 50, cursor }, signal),
    refetchInterval: cursor ? false : POLL_MS.list,
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
