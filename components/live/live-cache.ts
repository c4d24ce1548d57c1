"use client";

import type { Query, QueryClient, QueryKey } from "@tanstack/react-query";
import type { FillQuery } from "@/client/api";
import type { LiveEvent } from "@/client/live-events";
import { dropSignature, mergeBookOffer, mergeFill, mergeMakerOffer, mergeOfferFill, upsertCandle } from "@/client/live-merge";
import { POLL_MS } from "@/client/refresh";
import type { Candle, FillList, OfferFillList, OfferList, OfferStatus, Side } from "@/client/types";
import { CANDLE_LIMIT } from "../data/candle-limit";

// The stream's events applied to the React Query caches of components/data/queries.ts:
// lists are merged in place (client/live-merge.ts); aggregates that the client
// cannot compute (markets, protocol and maker stats, a pair's candles) are refetched when shown,
// at once and then at most once per their cache lifetime however many events
// arrive (a sooner fetch could only get the browser's cached copy).

/** The query keys the stream keeps fresh; a reset or a gap refetches these. */
export const LIVE_KEYS: readonly QueryKey[] = [["fills"], ["book"], ["offer"], ["offer-fills"], ["maker-offers"], ["markets"], ["stats"], ["maker-stats"], ["candles"]];


function update<T>(client: QueryClient, prefix: QueryKey, change: (data: T, key: readonly unknown[]) => T): void {
  for (const query of client.getQueryCache().findAll({ queryKey: prefix }) as Query<T>[]) {
    const data = query.state.data;
    if (data === undefined) continue;
    const next = change(data, query.queryKey);
    if (next !== data) client.setQueryData(query.queryKey, next);
  }
}

/** Aggregates are refetched on change, but no sooner than their cache header lets a fetch see something new. */
const AGGREGATE_PACE_MS: Record<string, number> = { markets: POLL_MS.markets, stats: POLL_MS.stats, "maker-stats": POLL_MS.makerStats, candles: POLL_MS.list };

export class LiveCache {
  private readonly lastRun = new Map<string, number>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly client: QueryClient) {}

  apply(event: LiveEvent): void {
    const client = this.client;
    switch (event.type) {
      case "fill": {
        const fill = event.fill;
        update<FillList>(client, ["fills"], (list, key) => {
          const query = key[1] as FillQuery;
          return query.cursor ? list : mergeFill(list, fill, query);
        });
        update<OfferFillList>(client, ["offer-fills", fill.offerPda], (list) => mergeOfferFill(list, fill, fill.offerPda));
        this.refreshAggregates(fill.maker);
        break;
      }
      case "candle": {
        // The chart's list upserted by bucket: the pair's candles at each resolution a chart shows.
        update<{ candles: Candle[] }>(client, ["candles", event.tokenMint, event.paymentMint], (list, key) => {
          const candle = event.candles[key[3] as string];
          return candle ? { candles: upsertCandle(list.candles, candle, CANDLE_LIMIT) } : list;
        });
        break;
      }
      case "offer": {
        const offer = event.offer;
        update<typeof offer>(client, ["offer", offer.pda], () => offer);
        update<OfferList>(client, ["book"], (list, key) => mergeBookOffer(list, offer, { tokenMint: key[1] as string, paymentMint: key[2] as string, side: key[3] as Side }));
        update<OfferList>(client, ["maker-offers", offer.maker], (list, key) => (key[3] === null ? mergeMakerOffer(list, offer, key[1] as string, key[2] as OfferStatus) : list));
        this.refreshAggregates(offer.maker);
        break;
      }
      case "revoke":
        update<FillList>(client, ["fills"], (list) => dropSignature(list, event.signature));
        update<OfferFillList>(client, ["offer-fills"], (list) => dropSignature(list, event.signature));
        this.refreshAggregates(undefined);
        this.refreshSoon("candles", ["candles"]);
        break;
      case "reset":
        this.refetchAll();
        break;
    }
  }

  /** Everything the stream keeps fresh, fetched again: after a reset, or to close the gap before a fresh stream opened. */
  refetchAll(): void {
    for (const queryKey of LIVE_KEYS) void this.client.invalidateQueries({ queryKey });
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private refreshAggregates(maker: string | undefined): void {
    this.refreshSoon("markets", ["markets"]);
    this.refreshSoon("stats", ["stats"]);
    this.refreshSoon("maker-stats", maker ? ["maker-stats", maker] : ["maker-stats"]);
  }

  /** At once when the last refetch of this kind is older than its pace, else once at the end of it. */
  private refreshSoon(kind: string, queryKey: QueryKey): void {
    if (this.client.getQueryCache().findAll({ queryKey, type: "active" }).length === 0) return;
    const key = JSON.stringify(queryKey);
    if (this.timers.has(key)) return;
    const wait = Math.max(0, (this.lastRun.get(key) ?? -Infinity) + (AGGREGATE_PACE_MS[kind] ?? 0) - Date.now());
    const run = () => {
      this.timers.delete(key);
      this.lastRun.set(key, Date.now());
      void this.client.invalidateQueries({ queryKey });
    };
    if (wait === 0) run();
    else this.timers.set(key, setTimeout(run, wait));
  }
}
