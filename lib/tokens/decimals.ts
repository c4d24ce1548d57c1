import type { Batcher } from "./batcher";
import type { TypedCache } from "./cache";

export const decimalsKey = (mint: string) => `decimals:${mint}`;

/**
 * Chain decimals of mints the provider cannot describe. A mint's decimals
 * never change, so they are cached for good; "not a mint" is cached briefly,
 * since the address may yet become one. A failed RPC call yields null, uncached.
 */
export async function lookUpChainDecimals(
  mints: readonly string[],
  deps: { cache: TypedCache; batcher: Batcher<number | null> | undefined },
): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>();
  if (mints.length === 0) return out;
  const lookups = await deps.cache.read<number | null>(mints.map(decimalsKey));
  const needed: string[] = [];
  mints.forEach((mint, i) => {
    const lookup = lookups[i]!;
    if (lookup.state === "fresh") out.set(mint, lookup.entry.value);
    else needed.push(mint);
  });
  if (needed.length === 0) return out;
  if (!deps.batcher) {
    for (const mint of needed) out.set(mint, null);
    return out;
  }
  const loads = deps.batcher.load(needed);
  await Promise.all(
    needed.map(async (mint) => {
      out.set(mint, await loads.get(mint)!.catch(() => null));
    }),
  );
  return out;
}
