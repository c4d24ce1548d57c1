import { exponentialBackoff, FULL_JITTER } from "../lib/resilience";

/**
 * The wait before the worker retries a dependency that failed (an RPC
 * request, a JSON-RPC call, a scan round): from up to 250 ms, doubling to 30 s
 * at most, with full jitter so that the calls in flight when the RPC or the
 * database went away do not all come back at once.
 */
export const retryDelay = exponentialBackoff({ baseMs: 250, maxMs: 30_000, jitter: FULL_JITTER });
