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
  /** Set when the waiter is to be refused: how long its turn is away. */
  turnMs?: number;
}

export interface QueueOptions {
  maxQueue: number;
  maxWaitMs: number;
  now: () => number;
  /**
   * The steady time between two slots (1 / the bucket's refill rate). With it,
   * a call whose turn cannot come within maxWaitMs (the callers ahead of it,
   * one slot each) is refused at once, with that wait, instead of waiting out
   * maxWaitMs to be refused then.
   */
  msPerSlot?: number;
}

/**
 * Callers beyond the budget wait here in order instead of failing, but the
 * queue is bounded in length and in time: a client is better served by stale
 * cache or chain decimals in seconds than by a full answer in a minute. A call
 * that cannot be served in time is told so as soon as that is known, with the
 * real wait (retryAfterMs): on arrival when the queue ahead is too long, and
 * every waiter the head's wait (a provider's pause) puts past its bound.
 */
export function queuedBudget(source: SlotSource, { maxQueue, maxWaitMs, now, msPerSlot = 0 }: QueueOptions): OutboundBudget {
  const queue: Waiter[] = [];
  let pumping = false;
  let closed = false;
  /** The least wait for a call with `ahead` calls before it, one slot each. */
  const turnOf = (ahead: number) => ahead * msPerSlot;

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
          // Every waiter whose turn the head's wait pushes past its bound is told now, not at its bound.
          const t = now();
          queue.forEach((waiter, i) => {
            const wait = slot.waitMs + i * msPerSlot;
            if (i === 0 || t + wait > waiter.deadline) waiter.turnMs = wait;
          });
          for (const waiter of queue.filter((w) => w.turnMs !== undefined)) refuse(waiter, `no slot within ${maxWaitMs} ms`, waiter.turnMs);
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
        return Promise.reject(new UpstreamError("budget", `outbound budget: ${maxQueue} calls already waiting`, undefined, { retryAfterMs: turnOf(queue.length) }));
      }
      const turn = turnOf(queue.length);
      if (turn > maxWaitMs) {
        return Promise.reject(new UpstreamError("budget", `outbound budget: no slot within ${maxWaitMs} ms (${queue.length} calls ahead)`, undefined, { retryAfterMs: turn }));
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
