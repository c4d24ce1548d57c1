import { sleep } from "../resilience";
import { UpstreamError } from "./errors";

/**
 * Where outbound call slots come from: a token bucket in this process or in
 * Redis. `take` never waits; it says how long until a slot could be free.
 */
export interface SlotSource {
  take(): Promise<{ ok: true } | { ok: false; waitMs: number }>;
  /** The provider answered 429: hand out nothing for `delayMs`, then resume gently. */
  pause(delayMs: number): Promise<void>;
}

/** The outbound budget as the provider client sees it. */
export interface OutboundBudget {
  /** Resolves when a call may go out; rejects with UpstreamError("budget") rather than wait past its bound. */
  acquire(): Promise<void>;
  pause(delayMs: number): Promise<void>;
  /** Calls waiting right now (for stats and tests). */
  waiting(): number;
  close(): void;
}

export interface BucketShape {
  /** Slots the bucket holds when full (back-to-back calls). */
  capacity: number;
  /** Slots added per millisecond. */
  refillPerMs: number;
}

/**
 * A bucket that never lets more than `limit` calls through in any window of
 * `windowMs`: at most `capacity` stored at the window's start plus what refills
 * during it, and capacity + refill·window = limit. A plain bucket refilling at
 * limit/window would allow capacity more than the provider's sliding window.
 */
export function bucketShape(limit: number, windowMs: number, burst?: number): BucketShape {
  if (!(limit >= 1)) throw new RangeError("the outbound budget needs at least one call per window");
  if (limit === 1) return { capacity: 1, refillPerMs: 1 / windowMs };
  const wanted = burst ?? Math.floor(limit / 6);
  const capacity = Math.min(Math.max(1, Math.floor(wanted)), limit - 1);
  return { capacity, refillPerMs: (limit - capacity) / windowMs };
}

interface Waiter {
  resolve(): void;
  reject(error: UpstreamError): void;
  deadline: number;
  timer: ReturnType<typeof setTimeout>;
}

export interface QueueOptions {
  maxQueue: number;
  maxWaitMs: number;
  now: () => number;
}

/**
 * Callers beyond the budget wait here in order instead of failing, but the
 * queue is bounded in length and in time: a client is better served by stale
 * cache or chain decimals in seconds than by a full answer in a minute.
 */
export function queuedBudget(source: SlotSource, { maxQueue, maxWaitMs, now }: QueueOptions): OutboundBudget {
  const queue: Waiter[] = [];
  let pumping = false;
  let closed = false;

  const refuse = (waiter: Waiter, why: string, retryAfterMs?: number) => {
    clearTimeout(waiter.timer);
    const at = queue.indexOf(waiter);
    if (at >= 0) queue.splice(at, 1);
    waiter.reject(new UpstreamError("budget", `outbound budget: ${why}`, undefined, { retryAfterMs }));
  };

  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    try {
      while (!closed && queue.length > 0) {
        const head = queue[0]!;
        let slot: Awaited<ReturnType<SlotSource["take"]>>;
        try {
          slot = await source.take();
        } catch (error) {
          // Without the shared bucket nobody knows the budget left; sending anyway could break it for every instance.
          refuse(head, `bucket unavailable (${(error as Error).message})`);
          continue;
        }
        if (slot.ok) {
          // The head may have timed out while the slot was being taken; the next in line gets it then.
          const first = queue.shift();
          if (first) {
            clearTimeout(first.timer);
            first.resolve();
          }
        } else if (queue[0] !== head) {
          continue;
        } else if (now() + slot.waitMs > head.deadline) {
          refuse(head, `no slot within ${maxWaitMs} ms`, slot.waitMs);
        } else {
          await sleep(Math.max(5, slot.waitMs));
        }
      }
    } finally {
      pumping = false;
    }
  }

  return {
    acquire() {
      if (closed) return Promise.reject(new UpstreamError("budget", "outbound budget: closed"));
      if (queue.length >= maxQueue) {
        return Promise.reject(new UpstreamError("budget", `outbound budget: ${maxQueue} calls already waiting`));
      }
      return new Promise<void>((resolve, reject) => {
        const waiter: Waiter = { resolve, reject, deadline: now() + maxWaitMs, timer: undefined as never };
        waiter.timer = setTimeout(() => refuse(waiter, `no slot within ${maxWaitMs} ms`), maxWaitMs);
        queue.push(waiter);
        void pump();
      });
    },
    pause: (delayMs) => source.pause(delayMs),
    waiting: () => queue.length,
    close() {
      closed = true;
      for (const waiter of [...queue]) refuse(waiter, "closed");
    },
  };
}
