/**
 * Coalesces lookups by key: a key already being fetched joins that fetch, and
 * keys asked for within `windowMs` of each other (by any number of callers)
 * go out together in chunks of `maxBatch`. One upstream call per chunk is the
 * whole point: the provider's budget is counted in calls, not in mints.
 */
export interface Batcher<V> {
  /** One promise per key; each settles with its chunk's outcome. */
  load(keys: readonly string[]): Map<string, Promise<V>>;
}

export interface BatcherOptions<V> {
  maxBatch: number;
  windowMs: number;
  /** Must answer every key it is given (a key absent from the map rejects). */
  fetch(keys: string[]): Promise<Map<string, V>>;
}

interface Pending<V> {
  resolve(value: V): void;
  reject(error: unknown): void;
}

export function createBatcher<V>({ maxBatch, windowMs, fetch }: BatcherOptions<V>): Batcher<V> {
  const inFlight = new Map<string, Promise<V>>();
  let pending = new Map<string, Pending<V>>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function send(chunk: Map<string, Pending<V>>): Promise<void> {
    const keys = [...chunk.keys()];
    try {
      const results = await fetch(keys);
      for (const [key, waiter] of chunk) {
        if (results.has(key)) waiter.resolve(results.get(key) as V);
        else waiter.reject(new Error(`no result for ${key}`));
      }
    } catch (error) {
      for (const waiter of chunk.values()) waiter.reject(error);
    } finally {
      // Removed only after `fetch` has stored its results, so a late caller finds them in the cache.
      for (const key of keys) inFlight.delete(key);
    }
  }

  function flush(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const all = [...pending];
    pending = new Map();
    for (let i = 0; i < all.length; i += maxBatch) void send(new Map(all.slice(i, i + maxBatch)));
  }

  return {
    load(keys) {
      const out = new Map<string, Promise<V>>();
      for (const key of keys) {
        let promise = inFlight.get(key);
        if (!promise) {
          promise = new Promise<V>((resolve, reject) => pending.set(key, { resolve, reject }));
          // A caller may stop waiting (stale answer served); the outcome still reaches the cache.
          promise.catch(() => {});
          inFlight.set(key, promise);
          if (pending.size >= maxBatch) flush();
        }
        out.set(key, promise);
      }
      if (pending.size > 0 && !timer) timer = setTimeout(flush, windowMs);
      return out;
    },
  };
}

/** Same-key callers share one running promise (trending: one upstream call per refresh). */
export function singleFlight<V>(): (key: string, run: () => Promise<V>) => Promise<V> {
  const running = new Map<string, Promise<V>>();
  return (key, run) => {
    const existing = running.get(key);
    if (existing) return existing;
    const promise = run().finally(() => running.delete(key));
    running.set(key, promise);
    return promise;
  };
}
