import type { TrendingItem } from "./types";

export type TrendingSortKey = "symbol" | "priceUsd" | "change24h" | "volume24h" | "liquidityUsd" | "fdv" | "marketCap" | "holders" | "organicScore";

/** Sorted copy; missing figures (null) always last, whichever the direction. */
export function sortTrending(items: readonly TrendingItem[], key: TrendingSortKey | null, descending: boolean): TrendingItem[] {
  if (key === null) return [...items];
  return [...items].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    if (x === null && y === null) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    const order = typeof x === "string" ? x.localeCompare(y as string) : (x as number) - (y as number);
    return descending ? -order : order;
  });
}
