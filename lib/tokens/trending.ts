import type { TypedCache, Entry } from "./cache";
import { withDeadline } from "./deadline";
import { UpstreamError } from "./errors";
import type { TrendingItem, TrendingResult } from "./types";

export const trendingKey = (limit: number) => `trending:24h:${limit}`;

export interface TrendingDeps {
  cache: TypedCache;
  key: string;
  /** Fetches, stores and returns a new snapshot; shared by concurrent callers. */
  refresh(): Promise<{ entry: Entry<TrendingItem[]>; source: "cache" | "live" }>;
  staleWaitMs: number;
  onStale(): void;
  onCache?(result: "hit" | "miss" | "stale"): void;
}

const envelope = (entry: Entry<TrendingItem[]>, source: "cache" | "live"): TrendingResult => ({
  items: entry.value,
  fetchedAt: Math.floor(entry.fetchedAt / 1000),
  source,
  count: entry.value.length,
});

export async function readTrending(deps: TrendingDeps): Promise<TrendingResult> {
  const [lookup] = await deps.cache.read<TrendingItem[]>([deps.key]);
  deps.onCache?.(lookup?.state === "fresh" ? "hit" : lookup?.state === "stale" ? "stale" : "miss");
  if (lookup?.state === "fresh") return envelope(lookup.entry, "cache");
  const refresh = deps.refresh();
  if (lookup?.state === "stale") {
    try {
      const { entry, source } = await withDeadline(refresh, deps.staleWaitMs);
      return envelope(entry, source);
    } catch {
      deps.onStale();
      return envelope(lookup.entry, "cache");
    }
  }
  try {
    const { entry, source } = await refresh;
    return envelope(entry, source);
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    throw new UpstreamError("network", `trending unavailable: ${String(error)}`, undefined, { cause: error });
  }
}
