import Redis from "ioredis";
import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { fallbackRateLimiter, memoryRateLimiter, redisRateLimiter } from "../../../web/http/rate-limit";
import { REDIS_URL } from "./helpers/service";

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

describe("request budget on a Redis client that is still connecting", () => {
  it("counts a fresh instance's first request in the shared budget, not in its memory", async () => {
    const options = { limit: 3, windowSeconds: 60 };
    const client = `198.51.100.7-${randomBytes(6).toString("hex")}`;
    const instances = [0, 1].map(() => {
      const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
      redis.on("error", () => {});
      const failures: unknown[] = [];
      // Made and used at once, as the web process makes it with its first request.
      const limiter = fallbackRateLimiter(redisRateLimiter(redis, options), memoryRateLimiter(options), (e) => failures.push(e));
      return { redis, limiter, failures };
    });
    try {
      const first = await instances[0]!.limiter.take(client);
      const second = await instances[1]!.limiter.take(client);
      expect([first!.remaining, second!.remaining]).toEqual([2, 1]);
      expect(instances.flatMap((i) => i.failures)).toEqual([]);
    } finally {
      for (const i of instances) i.redis.disconnect();
    }
  });
});
