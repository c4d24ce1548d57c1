import type { Batcher } from "./batcher";
import type { TypedCache } from "./cache";
import { ChainUnavailable } from "./errors";

export const decimalsKey = (mint: string) => `decimals:${mint}`;

export interface DecimalsLookupDeps {
  cache: TypedCache;
  batcher: Batcher<number | null> | undefined;
  onCache?(result: "hit" | "miss"): void;
}

/**
 * Chain decimals of mints the provider cannot describe. A mint's decimals
 * never change, so they are cached for good; "not a mint" is cached briefly,
 * since the address may yet become one. A read the chain could not answer in
 * time is never cached nor answered as null: it rejects with ChainUnavailable.
 */
export async function lookUpChainDecimals(mints: readonly string[], deps: DecimalsLookupDeps): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>();
  if (mints.length === 0) return out;
  const lookups = await deps.cache.read<number | null>(mints.map(decimalsKey));
  const needed: string[] = [];
  mints.forEach((mint, i) => {
    const lookup = lookups[i]!;
    deps.onCache?.(lookup.state === "fresh" ? "hit" : "miss");
    if (lookup.state === "fresh") out.set(mint, lookup.entry.value);
    else needed.push(mint);
  });
  if (needed.length === 0) return out;
  // No RPC configured: nothing can say more than the provider did.
  if (!deps.batcher) {
    for (const mint of needed) out.set(mint, null);
    return out;
  }
  const loads = deps.batcher.load(needed);
  const settled = await Promise.allSettled(needed.map((mint) => loads.get(mint)!));
  settled.forEach((result, i) => {
    if (result.status === "rejected") {
      const error = result.reason as unknown;
      throw error instanceof ChainUnavailable ? error : new ChainUnavailable(`the chain did not answer: ${String(error)}`, { cause: error });
    }
    out.set(needed[i]!, result.value);
  });
  return out;
}
