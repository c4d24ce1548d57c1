import { isChainUnavailable, isUpstreamError } from "../../lib/tokens";
import { ApiError } from "./errors";

/** Seconds a client should wait after a provider failure the provider gave no delay for. */
const UPSTREAM_RETRY_SECONDS = 10;
/** The chain's read is retried at once on the next request, so a short wait is enough. */
const CHAIN_RETRY_SECONDS = 2;

/**
 * The token service's failures as the API's errors: our own budget of calls
 * to the provider refusing is 503 unavailable, a provider outage with
 * nothing cached is 502 upstream_error, a chain that could not say a mint's
 * decimals in time is 503 unavailable; both with `retry-after`. Anything else
 * is passed through for the route wrapper.
 */
export function tokenApiError(error: unknown): unknown {
  if (isUpstreamError(error) && error.failure === "budget") {
    // Our own limit on calls to the provider, not the provider's failure: said in our words, at once, with the real wait.
    const seconds = error.retryAfterMs === undefined ? UPSTREAM_RETRY_SECONDS : Math.max(1, Math.ceil(error.retryAfterMs / 1000));
    return new ApiError(
      "unavailable",
      `this server's budget of calls to the token data provider cannot serve these mints now; retry after ${seconds} s`,
      undefined,
      { "retry-after": String(seconds) },
    );
  }
  if (isUpstreamError(error)) {
    const seconds = error.retryAfterMs === undefined ? UPSTREAM_RETRY_SECONDS : Math.max(1, Math.ceil(error.retryAfterMs / 1000));
    return new ApiError("upstream_error", `the token provider failed (${error.failure}) and nothing cached can answer`, undefined, {
      "retry-after": String(seconds),
    });
  }
  if (isChainUnavailable(error)) {
    return new ApiError("unavailable", "the chain did not answer a mint's decimals in time; try again shortly", undefined, {
      "retry-after": String(CHAIN_RETRY_SECONDS),
    });
  }
  return error;
}
