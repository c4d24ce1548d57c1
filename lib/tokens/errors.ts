/** Why an upstream call produced no usable answer. */
export type UpstreamFailure =
  | "rate_limited" // the provider answered 429
  | "budget" // our own outbound budget refused the call (queue full, wait too long, backing off)
  | "timeout"
  | "network"
  | "http" // any other non-2xx
  | "malformed"; // a 2xx whose body does not match the schema

/**
 * The provider failed and nothing cached could stand in. Route handlers map it
 * to 502 `upstream_error`; callers inside lib/tokens fall back on it.
 */
export class UpstreamError extends Error {
  override name = "UpstreamError";

  constructor(
    readonly failure: UpstreamFailure,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown; retryAfterMs?: number },
  ) {
    super(message, options);
    this.retryAfterMs = options?.retryAfterMs;
  }

  /** How long the provider (or our budget) asked us to stay away, when known. */
  readonly retryAfterMs: number | undefined;
}

export const isUpstreamError = (error: unknown): error is UpstreamError => error instanceof UpstreamError;

/**
 * The chain did not answer a mint's decimals within the request's budget.
 * Never answered as `decimals: null` (that means "not a mint"): routes map it
 * to 503 `unavailable` with `retry-after`, and nothing of it is cached.
 */
export class ChainUnavailable extends Error {
  override name = "ChainUnavailable";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export const isChainUnavailable = (error: unknown): error is ChainUnavailable => error instanceof ChainUnavailable;
