import type Redis from "ioredis";

/**
 * A string key-value store with expiry. Values are opaque to it; the typed
 * layer (cache.ts) decides what is fresh. A store that fails answers "miss"
 * and drops writes: the cache is an optimisation, never a reason to fail.
 */
export interface CacheStore {
  getMany(keys: readonly string[]): Promise<Array<string | null>>;
  /** `ttlMs` undefined keeps the value until evicted. */
  setMany(entries: ReadonlyArray<{ key: string; value: string; ttlMs?: number }>): Promise<void>;
}

interface Slot {
  value: string;
  expiresAt: number;
}

/** In-process store, bounded so that requests for endless random mints cannot grow it without limit. */
export function memoryStore({ maxEntries = 50_000, now }: { maxEntries?: number; now: () => number }): CacheStore {
  const slots = new Map<string, Slot>();

  const get = (key: string): string | null => {
    const slot = slots.get(key);
    if (!slot) return null;
    if (slot.expiresAt <= now()) {
      slots.delete(key);
      return null;
    }
    // Re-inserting keeps Map order as least-recently-used first.
    slots.delete(key);
    slots.set(key, slot);
    return slot.value;
  };

  return {
    async getMany(keys) {
      return keys.map(get);
    },
    async setMany(entries) {
      for (const { key, value, ttlMs } of entries) {
        slots.delete(key);
        slots.set(key, { value, expiresAt: ttlMs === undefined ? Infinity : now() + ttlMs });
      }
      while (slots.size > maxEntries) {
        const oldest = slots.keys().next().value;
        if (oldest === undefined) break;
        slots.delete(oldest);
      }
    },
  };
}

export function redisStore(redis: Redis, prefix: string, onError: (error: unknown) => void): CacheStore {
  return {
    async getMany(keys) {
      if (keys.length === 0) return [];
      try {
        return await redis.mget(keys.map((k) => prefix + k));
      } catch (error) {
        onError(error);
        return keys.map(() => null);
      }
    },
    async setMany(entries) {
      if (entries.length === 0) return;
      const batch = redis.multi();
      for (const { key, value, ttlMs } of entries) {
        if (ttlMs === undefined) batch.set(prefix + key, value);
        else batch.set(prefix + key, value, "PX", Math.max(1, Math.ceil(ttlMs)));
      }
      try {
        await batch.exec();
      } catch (error) {
        onError(error);
      }
    },
  };
}

/**
 * A short-lived copy in this process in front of Redis: a hot answer costs no
 * round trip, and the copy lives seconds, so instances disagree for seconds at most.
 */
export function tieredStore(near: CacheStore, far: CacheStore, nearTtlMs: number): CacheStore {
  return {
    async getMany(keys) {
      const local = await near.getMany(keys);
      const missing = keys.filter((_, i) => local[i] === null);
      if (missing.length === 0) return local;
      const remote = await far.getMany(missing);
      const found = missing.flatMap((key, i) => (remote[i] == null ? [] : [{ key, value: remote[i]!, ttlMs: nearTtlMs }]));
      await near.setMany(found);
      const byKey = new Map(found.map((e) => [e.key, e.value]));
      return keys.map((key, i) => local[i] ?? byKey.get(key) ?? null);
    },
    async setMany(entries) {
      await far.setMany(entries);
      await near.setMany(entries.map((e) => ({ ...e, ttlMs: e.ttlMs === undefined ? nearTtlMs : Math.min(e.ttlMs, nearTtlMs) })));
    },
  };
}
