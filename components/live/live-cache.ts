"use client";

import type { Query, QueryClient, QueryKey } from "@tanstack/react-query";
import type { FillQuery } from "@/lib/ui/api";
import type { LiveEvent } from "@/lib/ui/live-events";
import { dropSignature, mergeBookOffer, mergeFill, mergeMakerOffer, mergeOfferFill } from "@/lib/ui/live-merge";
import type { FillList, OfferFillList, OfferList, OfferStatus, Side } from "@/lib/ui/types";

// The stream's events applied to the React Query caches of components/data/queries.ts:
// lists are merged in place (lib/ui/live-merge.ts); aggregates that the client
// cannot compute (markets, protocol and maker stats) are refetched, at most
// once a second however many events arrive.

/** The query keys the stream keeps fresh; a reset or a gap refetches these. */
export const LIVE_KEYS: readonly QueryKey[] = [["fills"], ["book"], ["offer"], ["offer-fills"], ["maker-offers"], ["markets"], ["stats"], ["maker-stats"]];

const AGGREGATE_THROTTLE_MS = 1_000;

function update<T>(client: QueryClient, prefix: QueryKey, change: (data: T, key: readonly unknown[]) => T): void {
  for (const query of client.getQueryCache().findAll({ queryKey: prefix }) as Query<T>[]) {
    const data = query.state.data;
    if (data === undefined) continue;
    const next = change(data, query.queryKey);
    if (next !== data) client.setQueryData(query.queryKey, next);
  }
}

export class LiveCache {
  private pending = new Map<string, QueryKey>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastFlush = 0;

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
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private refreshAggregates(maker: string | undefined): void {
    this.pending.set("markets", ["markets"]);
    this.pending.set("stats", ["stats"]);
    this.pending.set(maker ? `maker:${maker}` : "maker", maker ? ["maker-stats", maker] : ["maker-stats"]);
    if (this.timer) return;
    const wait = Math.max(0, this.lastFlush + AGGREGATE_THROTTLE_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.lastFlush = Date.now();
      const keys = [...this.pending.values()];
      this.pending.clear();
      for (const queryKey of keys) void this.client.invalidateQueries({ queryKey });
    }, wait);
  }
}
