import type { BucketShape, SlotSource } from "./budget";

/** The bucket in this process's memory: right for a single web instance. */
export function memorySlotSource({ capacity, refillPerMs }: BucketShape, now: () => number): SlotSource {
  let tokens = capacity;
  let last = now();
  let pausedUntil = 0;

  const refill = (t: number) => {
    if (t > last) {
      tokens = Math.min(capacity, tokens + (t - last) * refillPerMs);
      last = t;
    }
  };

  return {
    async take() {
      const t = now();
      refill(t);
      if (t < pausedUntil) return { ok: false, waitMs: pausedUntil - t };
      if (tokens >= 1) {
        tokens -= 1;
        return { ok: true };
      }
      return { ok: false, waitMs: Math.ceil((1 - tokens) / refillPerMs) };
    },
    async pause(delayMs) {
      const t = now();
      refill(t);
      const until = t + delayMs;
      if (until <= pausedUntil) return;
      // One slot when the provider's window reopens, then the steady rate: no burst into a fresh window.
      pausedUntil = until;
      tokens = Math.min(tokens, 1);
      last = until;
    },
  };
}
