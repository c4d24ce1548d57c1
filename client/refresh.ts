// How often the client polls each endpoint: never faster than the endpoint's
// own cache-control max-age (web/http/response.ts CACHE), so a poll never asks
// for what the browser may still hold.

export const POLL_MS = {
  /** /v1/stats: public, max-age=10. */
  stats: 10_000,
  /** /v1/markets and /v1/makers/:maker/stats: max-age=5. */
  markets: 5_000,
  makerStats: 5_000,
  /** Lists of offers and fills, one offer: max-age=2. */
  list: 2_000,
  offer: 2_000,
  /** /v1/trending: max-age=30. */
  trending: 30_000,
} as const;

/** /v1/tokens: max-age=60; token metadata barely changes, so it is not polled, only kept this long. */
export const TOKEN_STALE_MS = 10 * 60_000;
