import { backoffDelay, HALF_JITTER } from "./backoff";
import { sleep } from "./sleep";

/**
 * Runs `attempt` until it succeeds or `deadlineAt` (epoch ms) passes, with
 * exponential back-off between attempts. Each attempt is given the time it
 * may take: its own cap, never past the deadline. The last failure is
 * rethrown when no time is left for another try.
 */
export interface RetryOptions {
  deadlineAt: number;
  /** Longest one attempt may take. */
  attemptTimeoutMs: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  now?: () => number;
  onRetry?(error: unknown, attempt: number): void;
}

export async function retryWithin<T>(attempt: (timeoutMs: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const { deadlineAt, attemptTimeoutMs, baseDelayMs = 50, maxDelayMs = 1_000, now = Date.now } = options;
  // Half jitter: concurrent callers that failed together do not retry together, nor much sooner than planned.
  const policy = { baseMs: baseDelayMs, maxMs: maxDelayMs, jitter: HALF_JITTER };
  for (let n = 0; ; n++) {
    const remaining = deadlineAt - now();
    try {
      return await attempt(Math.max(1, Math.min(attemptTimeoutMs, remaining)));
    } catch (error) {
      const delay = backoffDelay(policy, n);
      if (now() + delay >= deadlineAt) throw error;
      options.onRetry?.(error, n + 1);
      await sleep(delay);
    }
  }
}
