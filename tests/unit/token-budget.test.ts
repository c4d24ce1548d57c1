import { describe, expect, it } from "vitest";
import { bucketShape } from "../../lib/tokens/budget";

// The outbound budget's arithmetic: the bucket's shape for a provider's limit
// (a 429's wait is tests/unit/resilience.test.ts). The budget at work against
// the stand-in is tests/integration/tokens/budget.test.ts.

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
