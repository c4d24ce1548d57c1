/** What is read of a response's headers: a fetch Headers, or a wrapper around node's. */
export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * How long a 429 asks us to stay away, in ms, or undefined when it does not
 * say. `retry-after` is seconds or an HTTP date (RFC 9110 10.2.3);
 * `x-ratelimit-reset` is seen as seconds to wait, epoch seconds or epoch ms
 * depending on the gateway, told apart by magnitude. The longer of the two
 * wins: waiting too little extends the provider's window.
 */
export function rateLimitDelayMs(headers: HeaderSource, nowMs: number): number | undefined {
  const delays = [retryAfterMs(headers.get("retry-after"), nowMs), rateLimitResetMs(headers.get("x-ratelimit-reset"), nowMs)];
  const known = delays.filter((d): d is number => d !== undefined);
  return known.length === 0 ? undefined : Math.max(...known);
}

/** A `retry-after` value as ms from `nowMs`: delay-seconds or an HTTP date; undefined when it is neither. */
export function retryAfterMs(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** An `x-ratelimit-reset` value as ms from `nowMs`. */
export function rateLimitResetMs(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) return undefined;
  if (n > 1e12) return Math.max(0, n - nowMs); // epoch milliseconds
  if (n > 1e9) return Math.max(0, n * 1000 - nowMs); // epoch seconds
  return n * 1000; // seconds from now
}
