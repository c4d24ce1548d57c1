import type { CacheStore } from "./cache-store";

/** A cached value with the time it was fetched and the time it stops being fresh. */
export interface Entry<T> {
  value: T;
  fetchedAt: number;
  freshUntil: number;
}

export type Lookup<T> = { state: "fresh"; entry: Entry<T> } | { state: "stale"; entry: Entry<T> } | { state: "missing" };

export interface TypedCache {
  read<T>(keys: readonly string[]): Promise<Array<Lookup<T>>>;
  /** `keepMs` is how long the entry stays readable (fresh, then stale); undefined keeps it for good. */
  write<T>(items: ReadonlyArray<{ key: string; value: T; freshMs: number; keepMs?: number; fetchedAt?: number }>): Promise<void>;
}

/**
 * Entries outlive their freshness on purpose: an expired entry is what answers
 * while the provider is down, so expiry in the store is the retention and
 * freshness is a field of the entry.
 */
export function typedCache(store: CacheStore, now: () => number, maxParsed = 50_000): TypedCache {
  // The stores hold text (Redis can hold nothing else); a hot key's text is
  // parsed once and reused while the store returns the same text.
  let parsed = new Map<string, { text: string; entry: Entry<unknown> }>();
  const parse = (key: string, text: string): Entry<unknown> => {
    const memo = parsed.get(key);
    if (memo?.text === text) return memo.entry;
    const entry = JSON.parse(text) as Entry<unknown>;
    if (parsed.size >= maxParsed) parsed = new Map();
    parsed.set(key, { text, entry });
    return entry;
  };
  return {
    async read<T>(keys: readonly string[]) {
      const raw = await store.getMany(keys);
      const t = now();
      return raw.map((text, i): Lookup<T> => {
        if (text === null) return { state: "missing" };
        let entry: Entry<T>;
        try {
          entry = parse(keys[i]!, text) as Entry<T>;
        } catch {
          return { state: "missing" };
        }
        return { state: entry.freshUntil > t ? "fresh" : "stale", entry };
      });
    },
    async write(items) {
      const t = now();
      await store.setMany(
        items.map(({ key, value, freshMs, keepMs, fetchedAt = t }) => ({
          key,
          value: JSON.stringify({ value, fetchedAt, freshUntil: fetchedAt + freshMs } satisfies Entry<unknown>),
          ttlMs: keepMs,
        })),
      );
    },
  };
}
