/**
 * Exponential back-off: retry n (from 0) waits `baseMs`·2ⁿ, capped at
 * `maxMs`, scaled by a random factor (the jitter) so that callers that failed
 * together do not come back together, and never less than `minMs`.
 */
export interface BackoffPolicy {
  /** The wait before retry 0, before the jitter. */
  baseMs: number;
  /** The longest wait, before the jitter. */
  maxMs: number;
  /** The random factor's range; none when unset. */
  jitter?: Jitter;
  /** The shortest wait, after the jitter. */
  minMs?: number;
}

/** The wait is multiplied by a factor drawn evenly between `low` and `high`. */
export interface Jitter {
  readonly low: number;
  readonly high: number;
}

/** Anywhere from nothing to the whole wait: spreads a crowd of retries the most. */
export const FULL_JITTER: Jitter = { low: 0, high: 1 };
/** At least half the wait: spread, yet never much sooner than planned. */
export const HALF_JITTER: Jitter = { low: 0.5, high: 1 };
/** The wait give or take `fraction` of it. */
export const jitterAround = (fraction: number): Jitter => ({ low: 1 - fraction, high: 1 + fraction });

/** Past this many doublings every policy is at its cap; bounding it keeps 2ⁿ finite. */
const MAX_DOUBLINGS = 40;

/** The wait before retry `attempt` (0 for the first retry); `random` in [0, 1) is injectable for tests. */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  const { baseMs, maxMs, jitter, minMs = 0 } = policy;
  const capped = Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(0, attempt), MAX_DOUBLINGS));
  const factor = jitter ? jitter.low + (jitter.high - jitter.low) * random() : 1;
  return Math.max(minMs, capped * factor);
}

/** A policy as a function of the attempt, for callers that retry one thing many times. */
export function exponentialBackoff(policy: BackoffPolicy, random: () => number = Math.random): (attempt: number) => number {
  return (attempt) => backoffDelay(policy, attempt, random);
}
