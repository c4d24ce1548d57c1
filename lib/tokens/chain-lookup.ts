import type { Batcher } from "./batcher";
import type { TypedCache } from "./cache";
import type { ChainMint } from "./chain-mints";
import { withDeadline } from "./deadline";

/** One cache entry per mint for what its account says: decimals and safety, from one read. */
export const chainMintKey = (mint: string) => `mint:${mint}`;

/** Cached value of a mint's account: read, or null for an address that is not a mint account. */
export type CachedChainMint = ChainMint | null;

/** What the chain says of a mint: its account (null: not a mint), or nothing (unreachable, nothing cached). */
export type ChainAnswer = { kind: "read"; mint: CachedChainMint } | { kind: "unavailable"; error: unknown };

export interface ChainLookupDeps {
  cache: TypedCache;
  batcher: Batcher<CachedChainMint> | undefined;
  /** With a stale entry at hand, how long to wait for a fresh read before answering from it. */
  staleWaitMs: number;
  onStale(): void;
  onCache?(result: "hit" | "miss" | "stale"): void;
}

/**
 * Mint accounts from the cache, else from the (shared, batched) chain read.
 * Decimals never change, so for `"decimals"` any entry answers, however old;
 * `"safety"` wants a fresh one (authorities and fees change), waits a little
 * for a stale one's refresh and otherwise answers from it, the refresh still
 * landing in the cache. A read the chain could not answer is never cached.
 */
export async function lookUpChainMints(mints: readonly string[], need: "decimals" | "safety", deps: ChainLookupDeps): Promise<Map<string, ChainAnswer>> {
  const out = new Map<string, ChainAnswer>();
  // No RPC configured: nothing was ever read, so nothing is cached either.
  if (!deps.batcher) {
    for (const mint of mints) out.set(mint, { kind: "read", mint: null });
    return out;
  }
  if (mints.length === 0) return out;
  const lookups = await deps.cache.read<CachedChainMint>(mints.map(chainMintKey));
  const usable = (i: number) => {
    const lookup = lookups[i]!;
    // "Not a mint" is kept only while fresh (the address may yet become one), so a stale entry is always a mint.
    return lookup.state === "fresh" || (need === "decimals" && lookup.state === "stale" && lookup.entry.value !== null);
  };
  const needed = mints.filter((_, i) => !usable(i));
  const loads = needed.length > 0 ? deps.batcher.load(needed) : new Map<string, Promise<CachedChainMint>>();

  const answers = await Promise.all(
    mints.map(async (mint, i): Promise<ChainAnswer> => {
      const lookup = lookups[i]!;
      deps.onCache?.(lookup.state === "fresh" ? "hit" : lookup.state === "missing" ? "miss" : "stale");
      if (lookup.state !== "missing" && usable(i)) return { kind: "read", mint: lookup.entry.value };
      const load = loads.get(mint)!;
      if (lookup.state === "missing") return load.then((value) => ({ kind: "read", mint: value }) as const, (error: unknown) => ({ kind: "unavailable", error }) as const);
      try {
        return { kind: "read", mint: await withDeadline(load, deps.staleWaitMs) };
      } catch {
        deps.onStale();
        return { kind: "read", mint: lookup.entry.value };
      }
    }),
  );
  mints.forEach((mint, i) => out.set(mint, answers[i]!));
  return out;
}
