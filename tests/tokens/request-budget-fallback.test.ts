import Redis from "ioredis";
import { describe, expect, it } from "vitest";
import { fallbackRateLimiter, memoryRateLimiter, redisRateLimiter } from "../../lib/http/rate-limit";

// The web's per-client request budget, configured for Redis, with Redis at a
// port nothing listens on: it keeps counting in memory rather than serving
// everyone without a budget, and hears every failure for a throttled log.

describe("request budget with Redis unreachable", () => {
  it("counts in this process's memory: the limit still holds, with what is left and when it refills", async () => {
    const redis = new Redis("redis://127.0.0.1:1", { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    redis.on("error", () => {});
    const failures: unknown[] = [];
    const options = { limit: 3, windowSeconds: 60 };
    const limiter = fallbackRateLimiter(redisRateLimiter(redis, options), memoryRateLimiter(options), (e) => failures.push(e));
    try {
      const decisions = [];
      for (let i = 0; i < 5; i++) decisions.push(await limiter.take("203.0.113.7"));
      expect(decisions.map((d) => d!.allowed)).toEqual([true, true, true, false, false]);
      expect(decisions.map((d) => d!.remaining)).toEqual([2, 1, 0, 0, 0]);
      expect(decisions[3]!.reset).toBeGreaterThan(0);
      expect((await limiter.take("203.0.113.8"))!.allowed).toBe(true); // another client, its own budget
      expect(failures).toHaveLength(6);
    } finally {
      redis.disconnect();
    }
  });
});
