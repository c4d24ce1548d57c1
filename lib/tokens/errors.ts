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
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const isUpstreamError = (error: unknown): error is UpstreamError => error instanceof UpstreamError;
