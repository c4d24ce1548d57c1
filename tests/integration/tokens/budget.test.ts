import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTokenStandin, type TokenStandin } from "../../../local/tokens/index";
import { UpstreamError } from "../../../lib/tokens/index";
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
    // Our budget is 6 a window against the provider's 10: the provider counts arrivals, and on a busy machine a
    // request released on time may be handled late, beside the next one. The margin absorbs a stall of up to a
    // second. The burst of 25 still waits rather than fails.
    const service = testService(standin.url, { rpm: 6, budgetWindowMs: 1_000, maxQueueWaitMs: 60_000 });
    const answers = await Promise.all(burst(25).map((mints) => service.resolve(mints)));
    await service.close();

    const stats = standin.stats();
    expect(answers.flat()).toHaveLength(2_500);
    expect(stats.search).toBe(25); // all served by the provider: none dropped
    expect(stats.overLimit).toBe(0);
    // The provider counted at most 10 in any of its windows: the 25 calls were spread out.
    expect(stats.maxInWindow).toBeLessThanOrEqual(10);
    expect(service.stats()).toMatchObject({ upstreamCalls: 25, budgetRefusals: 0, upstreamRateLimited: 0 });
  });

  it("bounds the queue: beyond it a call is refused at once, as an upstream error with a delay to retry after", async () => {
    standin.reset();
    const service = testService(standin.url, { rpm: 10, budgetWindowMs: 1_000, burst: 1, maxQueue: 3 });
    // The order in which the calls settle: a refusal "at once" settles before any queued call is served.
    const settled: string[] = [];
    const answers = await Promise.allSettled(
      burst(8).map((mints) =>
        service.resolve(mints).then(
          (tokens) => (settled.push("served"), tokens),
          (error: unknown) => {
            settled.push("refused");
            throw error;
          },
        ),
      ),
    );
    await service.close();

    const served = answers.filter((a) => a.status === "fulfilled");
    expect(served.map((a) => a.value.length)).toEqual([100, 100, 100]);
    const refused = answers.filter((a) => a.status === "rejected").map((a) => a.reason as UpstreamError);
    expect(refused).toHaveLength(5);
    expect(refused.every((e) => e instanceof UpstreamError && e.failure === "budget")).toBe(true);
    // Three admitted to the queue (the first served at once from the burst), five refused.
    expect(service.stats()).toMatchObject({ upstreamCalls: 3, budgetRefusals: 5 });
    expect(standin.stats().overLimit).toBe(0);
    // The first call took the burst's slot; the two queued ones waited for slots refilled later.
    expect(settled.slice(-2)).toEqual(["served", "served"]);
    expect(settled.slice(0, -2).filter((s) => s === "refused")).toHaveLength(5);
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
