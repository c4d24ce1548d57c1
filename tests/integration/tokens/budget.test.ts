import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTokenStandin, type TokenStandin } from "../../../local/tokens/index";
import { UpstreamError } from "../../../lib/tokens/index";
import { bucketShape } from "../../../lib/tokens/budget";
import { randomMints, testService } from "./helpers/service";

let standin: TokenStandin;

beforeAll(async () => {
  // The provider's window shortened to 1 s so a burst plays out in seconds; 10 calls a window.
  standin = await startTokenStandin({ limit: 10, windowMs: 1_000 });
});
afterAll(() => standin.stop());

/** Requests of 100 distinct unknown mints each: every one is a separate upstream call. */
const burst = (n: number) => Array.from({ length: n }, () => randomMints(100));

describe("outbound token bucket", () => {
  it("keeps a burst under the provider's limit in every window; the excess waits instead of failing", async () => {
    standin.reset();
    const service = testService(standin.url, { rpm: 10, budgetWindowMs: 1_000, maxQueueWaitMs: 10_000 });
    const started = Date.now();
    const answers = await Promise.all(burst(25).map((mints) => service.resolve(mints)));
    const elapsed = Date.now() - started;
    await service.close();

    const stats = standin.stats();
    expect(answers.flat()).toHaveLength(2_500);
    expect(stats.search).toBe(25); // all served by the provider: none dropped
    expect(stats.overLimit).toBe(0);
    expect(stats.maxInWindow).toBeLessThanOrEqual(10);
    expect(service.stats()).toMatchObject({ upstreamCalls: 25, budgetRefusals: 0, upstreamRateLimited: 0 });
    // 25 calls at 10 a second cannot take less than ~1.5 s.
    expect(elapsed).toBeGreaterThan(1_400);
  });

  it("bounds the queue: beyond it a call is refused at once, as an upstream error with a delay to retry after", async () => {
    standin.reset();
    const service = testService(standin.url, { rpm: 10, budgetWindowMs: 1_000, burst: 1, maxQueue: 3 });
    const started = Date.now();
    const answers = await Promise.allSettled(burst(8).map((mints) => service.resolve(mints)));
    await service.close();

    const served = answers.filter((a) => a.status === "fulfilled");
    expect(served.map((a) => a.value.length)).toEqual([100, 100, 100]);
    const refused = answers.filter((a) => a.status === "rejected").map((a) => a.reason as UpstreamError);
    expect(refused).toHaveLength(5);
    expect(refused.every((e) => e instanceof UpstreamError && e.failure === "budget")).toBe(true);
    // Three admitted to the queue (the first served at once from the burst), five refused.
    expect(service.stats()).toMatchObject({ upstreamCalls: 3, budgetRefusals: 5 });
    expect(standin.stats().overLimit).toBe(0);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("gives up on a slot it cannot get within its wait bound", async () => {
    standin.reset();
    const service = testService(standin.url, { rpm: 2, budgetWindowMs: 1_000, maxQueueWaitMs: 300 });
    const answers = await Promise.allSettled(burst(4).map((mints) => service.resolve(mints)));
    await service.close();
    expect(answers.map((a) => a.status).sort()).toEqual(["fulfilled", "rejected", "rejected", "rejected"]);
    expect(service.stats().upstreamCalls).toBe(1); // burst of one, then a slot every second: too late for 300 ms
    expect(service.stats().budgetRefusals).toBe(3);
  });
});

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
