/**
 * Runs `attempt` until it succeeds or `deadlineAt` (epoch ms) passes, with
 * exponential back-off and jitter between attempts. Each attempt is given the
 * time it may take: its own cap, never past the deadline. The last failure is
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

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function retryWithin<T>(attempt: (timeoutMs: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const { deadlineAt, attemptTimeoutMs, baseDelayMs = 50, maxDelayMs = 1_000, now = Date.now } = options;
  for (let n = 0; ; n++) {
    const remaining = deadlineAt - now();
    try {
      return await attempt(Math.max(1, Math.min(attemptTimeoutMs, remaining)));
    } catch (error) {
      // Full jitter halves: concurrent callers that failed together do not retry together.
      const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** n) * (0.5 + Math.random() / 2);
      if (now() + delay >= deadlineAt) throw error;
      options.onRetry?.(error, n + 1);
      await sleep(delay);
    }
  }
}
