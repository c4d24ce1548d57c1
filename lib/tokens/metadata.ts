import type { Batcher } from "./batcher";
import type { TypedCache } from "./cache";
import { withDeadline } from "./deadline";
import type { TokenMetadata } from "./mapping";

/** What the provider says about a mint: its metadata, "unknown" (absent from its answer), or nothing (unreachable, nothing cached). */
export type MetadataAnswer = { kind: "known"; metadata: TokenMetadata } | { kind: "unknown" } | { kind: "unavailable"; error: unknown };

/** Cached value of a mint: metadata, or null for a mint the provider does not know. */
export type CachedMetadata = TokenMetadata | null;

export const metadataKey = (mint: string) => `meta:${mint}`;

const answer = (value: CachedMetadata): MetadataAnswer => (value ? { kind: "known", metadata: value } : { kind: "unknown" });

export interface MetadataLookupDeps {
  cache: TypedCache;
  batcher: Batcher<CachedMetadata>;
  staleWaitMs: number;
  onStale(): void;
  onCache?(result: "hit" | "miss" | "stale"): void;
}

/**
 * Fresh entries answer at once; missing ones wait for the (shared, batched)
 * provider call; expired ones wait a little for it and otherwise answer stale,
 * the refresh still landing in the cache for the next request.
 */
export async function lookUpMetadata(mints: readonly string[], deps: MetadataLookupDeps): Promise<Map<string, MetadataAnswer>> {
  const lookups = await deps.cache.read<CachedMetadata>(mints.map(metadataKey));
  const needed = mints.filter((_, i) => lookups[i]!.state !== "fresh");
  const loads = needed.length > 0 ? deps.batcher.load(needed) : new Map<string, Promise<CachedMetadata>>();

  const answers = await Promise.all(
    mints.map(async (mint, i): Promise<MetadataAnswer> => {
      const lookup = lookups[i]!;
      deps.onCache?.(lookup.state === "fresh" ? "hit" : lookup.state === "missing" ? "miss" : "stale");
      if (lookup.state === "fresh") return answer(lookup.entry.value);
      const load = loads.get(mint)!;
      if (lookup.state === "missing") return load.then(answer, (error: unknown) => ({ kind: "unavailable", error }) as const);
      try {
        return answer(await withDeadline(load, deps.staleWaitMs));
      } catch {
        deps.onStale();
        return answer(lookup.entry.value);
      }
    }),
  );
  return new Map(mints.map((mint, i) => [mint, answers[i]!]));
}
