import type { SlotSource } from "./budget";
import type { CacheStore } from "./cache-store";

// While Redis is unreachable the token cache and the provider budget live in
// this process's memory, as the request budget does: each instance then
// keeps its own (a budget per instance rather than none), and when Redis is
// back they use it again. What was cached in memory meanwhile is dropped then:
// the shared copy is the one instances agree on.

/** The shared store while Redis is usable, the local one otherwise. */
export function fallbackStore(shared: CacheStore, local: CacheStore, usable: () => boolean): CacheStore {
  return {
    getMany: (keys) => (usable() ? shared.getMany(keys) : local.getMany(keys)),
    setMany: (entries) => (usable() ? shared.setMany(entries) : local.setMany(entries)),
  };
}

/** The shared bucket while Redis answers, this process's bucket otherwise. A 429 back-off is kept in both. */
export function fallbackSlotSource(shared: SlotSource, local: SlotSource, usable: () => boolean): SlotSource {
  return {
    async take() {
      if (usable()) {
        try {
          return await shared.take();
        } catch {
          // Redis failed under us: this call is paced by the local bucket instead of refused.
        }
      }
      return local.take();
    },
    async pause(delayMs) {
      await local.pause(delayMs);
      if (usable()) await shared.pause(delayMs).catch(() => {});
    },
  };
}
