import { describe, expect, it } from "vitest";
import { bucketShape } from "../../lib/tokens/budget";
import { rateLimitDelayMs } from "../../lib/tokens/retry-after";

// The outbound budget's arithmetic: the bucket's shape for a provider's limit,
// and the back-off a 429's headers ask for. The budget at work against the
// stand-in is tests/integration/tokens/budget.test.ts.

describe("bucket shape", () => {
  it("never allows more than the limit in any window", () => {
    for (const limit of [1, 2, 24, 30, 600, 9_000]) {
      const { capacity, refillPerMs } = bucketShape(limit, 60_000);
      expect(capacity).toBeGreaterThanOrEqual(1);
      expect(capacity + refillPerMs * 60_000).toBeLessThanOrEqual(limit + 1e-9 + (limit === 1 ? 1 : 0));
    }
    expect(bucketShape(24, 60_000)).toEqual({ capacity: 4, refillPerMs: 20 / 60_000 });
  });
});

describe("429 back-off headers", () => {
  const at = Date.parse("2025-10-01T12:00:00Z");
  const h = (init: Record<string, string>) => new Headers(init);
  it("reads retry-after as seconds or an HTTP date, and x-ratelimit-reset as delta, epoch s or epoch ms; the longest wins", () => {
    expect(rateLimitDelayMs(h({ "retry-after": "7" }), at)).toBe(7_000);
    expect(rateLimitDelayMs(h({ "retry-after": new Date(at + 12_000).toUTCString() }), at)).toBe(12_000);
    expect(rateLimitDelayMs(h({ "x-ratelimit-reset": "20" }), at)).toBe(20_000);
    expect(rateLimitDelayMs(h({ "x-ratelimit-reset": String(at / 1000 + 30) }), at)).toBe(30_000);
    expect(rateLimitDelayMs(h({ "x-ratelimit-reset": String(at + 40_000) }), at)).toBe(40_000);
    expect(rateLimitDelayMs(h({ "retry-after": "5", "x-ratelimit-reset": "9" }), at)).toBe(9_000);
    expect(rateLimitDelayMs(h({ "retry-after": "soon" }), at)).toBeUndefined();
    expect(rateLimitDelayMs(h({}), at)).toBeUndefined();
  });
});
