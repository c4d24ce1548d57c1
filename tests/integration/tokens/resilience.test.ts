import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startTokenStandin, type TokenStandin } from "../../../local/tokens/index";
import { UpstreamError } from "../../../lib/tokens/index";
import { startTestRpc, type TestRpc } from "./helpers/rpc-server";
import { randomMints, testService } from "./helpers/service";

const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const JUP = "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN";
const HOUR = 3_600_000;

let standin: TokenStandin;
let rpc: TestRpc;

beforeAll(async () => {
  standin = await startTokenStandin({ limit: 10_000 });
  rpc = await startTestRpc();
});
afterEach(() => {
  standin.setMode("ok");
  standin.reset();
});
afterAll(async () => {
  await standin.stop();
  await rpc.stop();
});

describe("provider down", () => {
  it("serves stale metadata and stale trending (source cache, the old fetchedAt)", async () => {
    const service = testService(standin.url);
    const before = await service.resolve([USDC, JUP]);
    const live = await service.trending();
    service.clock.advance(7 * HOUR); // past both TTLs

    standin.setMode("fail");
    expect(await service.resolve([USDC, JUP])).toEqual(before);
    const stale = await service.trending();
    expect(stale).toMatchObject({ source: "cache", fetchedAt: live.fetchedAt, count: live.count });
    expect(stale.items).toEqual(live.items);
    expect(service.stats().staleServed).toBe(3);
    expect(standin.stats().failed).toBe(2); // it was asked, once per kind

    // Back up: the next ask refreshes and says so.
    standin.setMode("ok");
    expect((await service.trending()).source).toBe("live");
    await service.close();
  });

  it("with nothing cached: tokens and trending fail as UpstreamError, never nulls that read as an unknown mint", async () => {
    const service = testService(standin.url, { rpcUrl: rpc.url });
    const onChain = rpc.addMint(6);
    standin.setMode("fail");
    rpc.calls.length = 0;

    await expect(service.resolve([USDC, onChain])).rejects.toMatchObject({ name: "UpstreamError", failure: "http", status: 503 });
    expect(rpc.calls).toEqual([]); // nothing to gain from the chain when the answer is an error anyway
    const error = await service.trending().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).failure).toBe("http");
    expect((error as UpstreamError).status).toBe(503);

    // An outage answer is not cached as "unknown": once the provider is back, the symbol appears.
    standin.setMode("ok");
    expect((await service.resolve([USDC]))[0]).toMatchObject({ symbol: "USDC", decimals: 6 });
    await service.close();
  });

  it("bounds a slow provider by the timeout and falls back", async () => {
    // The provider would answer after 3 s: a "timeout" failure is the 300 ms bound at work (both timers run in this process, in order).
    const service = testService(standin.url, { timeoutMs: 300 });
    standin.setMode({ kind: "slow", delayMs: 3_000 });
    await expect(service.resolve([USDC])).rejects.toMatchObject({ failure: "timeout" });
    await expect(service.trending()).rejects.toMatchObject({ failure: "timeout" });
    await service.close();
  });

  it("with a stale entry, waits only briefly for a slow refresh; the refresh still lands for the next ask", async () => {
    const service = testService(standin.url, { timeoutMs: 2_000, staleWaitMs: 200 });
    await service.trending();
    service.clock.advance(2 * 60_000);
    standin.setMode({ kind: "slow", delayMs: 1_200 });

    // The stale answer, not the refresh's: it did not wait the 1.2 s the refresh takes.
    const stale = await service.trending();
    expect(stale.source).toBe("cache");

    // The refresh lands by itself (asking meanwhile joins it rather than calling again).
    await vi.waitFor(async () => expect((await service.trending()).fetchedAt).toBeGreaterThan(stale.fetchedAt), { timeout: 30_000, interval: 100 });
    const after = await service.trending();
    expect(after.source).toBe("cache");
    expect(after.fetchedAt).toBeGreaterThan(stale.fetchedAt);
    expect(service.stats().upstreamTrendingCalls).toBe(2);
    await service.close();
  });
});

describe("provider 429", () => {
  it("honours retry-after: no call until it passes, then resumes", async () => {
    // A back-off longer than the queue bound: callers get fallbacks at once rather than wait.
    const service = testService(standin.url, { maxQueueWaitMs: 500 });
    standin.setMode({ kind: "rate-limit", retryAfterSeconds: 2 });
    await expect(service.resolve([USDC])).rejects.toMatchObject({ failure: "rate_limited", retryAfterMs: 2_000 });
    standin.setMode("ok");

    // Within the back-off: refused by our own budget (its queue bound is shorter than the back-off), and the provider hears nothing.
    for (let i = 0; i < 5; i++) await expect(service.resolve([USDC])).rejects.toMatchObject({ failure: "budget" });
    await expect(service.trending()).rejects.toMatchObject({ failure: "budget" });
    expect(standin.stats().requests).toBe(1);
    expect(service.stats()).toMatchObject({ upstreamRateLimited: 1, upstreamCalls: 1 });

    // Once it passes, the next call goes out and is answered.
    await vi.waitFor(async () => expect((await service.resolve([USDC]))[0]!.symbol).toBe("USDC"), { timeout: 30_000, interval: 250 });
    expect(standin.stats().requests).toBe(2);
    await service.close();
  });

  it("waits for a back-off shorter than its queue bound instead of failing", async () => {
    const service = testService(standin.url, { maxQueueWaitMs: 5_000 });
    standin.setMode({ kind: "rate-limit", retryAfterSeconds: 1 });
    await service.resolve([USDC]).catch(() => {});
    standin.setMode("ok");
    // Queued, not refused: the call waits out the back-off, then is the provider's second request.
    const answered = service.resolve([JUP]);
    expect(service.stats().budgetRefusals).toBe(0);
    expect((await answered)[0]!.symbol).toBe("JUP");
    expect(standin.stats().requests).toBe(2);
    expect(service.stats()).toMatchObject({ upstreamRateLimited: 1, budgetRefusals: 0 });
    await service.close();
  });

  it("never hammers a provider whose limit is below our configured budget", async () => {
    // Misconfigured on purpose: we think 600 a window, the provider allows 3.
    const strict = await startTokenStandin({ limit: 3, windowMs: 60_000 });
    const service = testService(strict.url, { rpm: 600, budgetWindowMs: 60_000, burst: 100, maxQueueWaitMs: 500 });
    for (const mint of randomMints(30)) await service.resolve([mint]).catch(() => {});
    // Three served, one 429, then silence for the whole retry-after (about a minute).
    expect(strict.stats().requests).toBe(4);
    expect(strict.stats().overLimit).toBe(1);
    expect(service.stats().upstreamRateLimited).toBe(1);
    await service.close();
    await strict.stop();
  });
});

describe("observation hooks (for metrics)", () => {
  it("hear each provider call's outcome and each cache consultation's result", async () => {
    const calls: string[] = [];
    const cache: string[] = [];
    const service = testService(standin.url, {
      maxQueueWaitMs: 200,
      observe: { providerCall: (outcome) => void calls.push(outcome), cache: (result) => void cache.push(result) },
    });
    await service.resolve([USDC]); // miss, provider ok
    await service.resolve([USDC]); // hit
    service.clock.advance(7 * HOUR);
    standin.setMode("fail");
    await service.resolve([USDC]); // stale, provider error, stale served
    standin.setMode({ kind: "rate-limit", retryAfterSeconds: 1 });
    await service.resolve([JUP]).catch(() => {}); // miss, provider rate_limited
    expect(calls).toEqual(["ok", "error", "rate_limited"]);
    expect(cache).toEqual(["miss", "hit", "stale", "miss"]);
    await service.close();
  });
});
