import Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTokenStandin, WELL_KNOWN, type TokenStandin } from "../../../local/tokens/index";
import { startTestRpc, type TestRpc } from "./helpers/rpc-server";
import { randomMints, REDIS_URL, testService, uniquePrefix } from "./helpers/service";
import { tcpProxy } from "../../helpers/tcp-proxy";

// Two service instances on one Redis stand for two web instances behind a balancer.

const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const HOUR = 3_600_000;

let redis: Redis;
let standin: TokenStandin;
let rpc: TestRpc;
const prefixes: string[] = [];

const prefix = (label: string) => {
  const p = uniquePrefix(label);
  prefixes.push(p);
  return p;
};
const pair = (url: string, redisKeyPrefix: string, extra = {}) => [
  testService(url, { redisUrl: REDIS_URL, redisKeyPrefix, ...extra }),
  testService(url, { redisUrl: REDIS_URL, redisKeyPrefix, ...extra }),
] as const;
const burst = (n: number) => Array.from({ length: n }, () => randomMints(100));

beforeAll(async () => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  await redis.ping();
  standin = await startTokenStandin({ limit: 10_000 });
  rpc = await startTestRpc();
});
afterAll(async () => {
  for (const p of prefixes) {
    const keys = await redis.keys(`${p}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
  await standin.stop();
  await rpc.stop();
});

describe("with REDIS_URL", () => {
  it("shares the cache: the second instance answers tokens, trending and chain decimals without upstream calls", async () => {
    const [a, b] = pair(standin.url, prefix("cache"), { rpcUrl: rpc.url });
    const onChain = rpc.addMint(3);
    standin.reset();
    rpc.calls.length = 0;

    const fromA = await a.resolve([USDC, onChain]);
    const liveA = await a.trending();
    expect(liveA.source).toBe("live");
    const fromB = await b.resolve([USDC, onChain]);
    const cachedB = await b.trending();

    expect(fromB).toEqual(fromA);
    expect(fromB[1]).toMatchObject({ symbol: null, decimals: 3 });
    expect(cachedB).toMatchObject({ source: "cache", fetchedAt: liveA.fetchedAt, count: liveA.count });
    expect(b.stats()).toMatchObject({ upstreamCalls: 0, chainCalls: 0 });
    expect(standin.stats().requests).toBe(2);
    expect(rpc.calls).toEqual([2]); // both accounts, in one read: USDC for its safety, the other for its decimals too
    await Promise.all([a.close(), b.close()]);
  });

  it("1,000 concurrent identical requests make one upstream call", async () => {
    const [a] = pair(standin.url, prefix("flight"));
    standin.reset();
    const mints = WELL_KNOWN.map((t) => t.mint);
    const answers = await Promise.all(Array.from({ length: 1_000 }, () => a.resolve(mints)));
    const trending = await Promise.all(Array.from({ length: 1_000 }, () => a.trending()));
    expect(answers.every((t) => t.every((x) => x.symbol !== null))).toBe(true);
    expect(trending.every((t) => t.count === trending[0]!.count)).toBe(true);
    expect(standin.stats()).toMatchObject({ search: 1, trending: 1 });
    await a.close();
  });

  it("serves stale from Redis while the provider is down, on an instance that never saw the data", async () => {
    const p = prefix("stale");
    const [a, b] = pair(standin.url, p);
    const before = await a.resolve([USDC]);
    const live = await a.trending();
    b.clock.advance(7 * HOUR);
    standin.setMode("fail");
    try {
      expect(await b.resolve([USDC])).toEqual(before);
      expect(await b.trending()).toMatchObject({ source: "cache", fetchedAt: live.fetchedAt });
      expect(b.stats().staleServed).toBe(2);
    } finally {
      standin.setMode("ok");
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("shares one outbound budget: two instances together stay under the provider's limit", async () => {
    const strict = await startTokenStandin({ limit: 10, windowMs: 1_000 });
    const [a, b] = pair(strict.url, prefix("budget"), { rpm: 10, budgetWindowMs: 1_000, maxQueueWaitMs: 10_000 });
    await Promise.all([...burst(12).map((m) => a.resolve(m)), ...burst(12).map((m) => b.resolve(m))]);
    const stats = strict.stats();
    expect(stats.search).toBe(24);
    expect(stats.overLimit).toBe(0);
    expect(stats.maxInWindow).toBeLessThanOrEqual(10);
    expect(a.stats().upstreamCalls + b.stats().upstreamCalls).toBe(24);
    await Promise.all([a.close(), b.close()]);
    await strict.stop();
  });

  it("(control) two instances with separate budgets do break the provider's limit", async () => {
    const strict = await startTokenStandin({ limit: 10, windowMs: 1_000 });
    const options = { rpm: 10, budgetWindowMs: 1_000, maxQueueWaitMs: 10_000, burst: 9 };
    const [a] = pair(strict.url, prefix("separate-a"), options);
    const [b] = pair(strict.url, prefix("separate-b"), options);
    await Promise.allSettled([...burst(9).map((m) => a.resolve(m)), ...burst(9).map((m) => b.resolve(m))]);
    expect(strict.stats().overLimit).toBeGreaterThan(0);
    await Promise.all([a.close(), b.close()]);
    await strict.stop();
  });

  it("shares a 429 back-off: after one instance is told to wait, the other does not call either", async () => {
    const [a, b] = pair(standin.url, prefix("backoff"), { maxQueueWaitMs: 300 });
    standin.reset();
    standin.setMode({ kind: "rate-limit", retryAfterSeconds: 3 });
    await expect(a.resolve(randomMints(1))).rejects.toMatchObject({ failure: "rate_limited", retryAfterMs: 3_000 });
    standin.setMode("ok");
    // Refused by the shared budget: an upstream error, never nulls that would read as an unknown mint.
    await expect(b.resolve([USDC])).rejects.toMatchObject({ failure: "budget" });
    expect(b.stats()).toMatchObject({ upstreamCalls: 0, budgetRefusals: 1 });
    expect(standin.stats().requests).toBe(1);
    await Promise.all([a.close(), b.close()]);
  });

  it("falls back to memory when Redis is unreachable: cached answers, a budget, and one report per interval", async () => {
    const reports: string[] = [];
    const service = testService(standin.url, {
      redisUrl: "redis://127.0.0.1:1", // nothing listens on port 1
      redisKeyPrefix: prefix("down"),
      rpcUrl: rpc.url,
      onError: (error, context) => reports.push(`${context}: ${(error as Error).message}`),
    });
    const onChain = rpc.addMint(8);
    standin.reset();
    const first = await service.resolve([USDC, onChain]);
    expect(first).toMatchObject([{ symbol: "USDC", decimals: 6 }, { symbol: null, decimals: 8 }]);
    expect((await service.trending()).source).toBe("live");

    // Served from this process's memory: no further call to the provider or the chain.
    for (let i = 0; i < 200; i++) {
      expect(await service.resolve([USDC, onChain])).toEqual(first);
      expect((await service.trending()).source).toBe("cache");
    }
    expect(standin.stats()).toMatchObject({ search: 1, trending: 1 });
    expect(service.stats().chainCalls).toBe(1);
    // ioredis keeps retrying underneath; the service says so once, not per request or per retry.
    expect(reports.length).toBeGreaterThanOrEqual(1);
    expect(reports.length).toBeLessThanOrEqual(2);
    expect(reports[0]).toMatch(/^redis: .*ECONNREFUSED/);
    await service.close();
  });

  it("uses Redis again when it comes back: the cache is shared again and recovery is reported", async () => {
    const proxy = await tcpProxy({ host: new URL(REDIS_URL).hostname, port: Number(new URL(REDIS_URL).port || 6379) });
    const p = prefix("back");
    let recovered = 0;
    const service = testService(standin.url, { redisUrl: proxy.url("redis"), redisKeyPrefix: p, onRecovered: () => void recovered++ });
    try {
      expect((await service.resolve([USDC]))[0]!.symbol).toBe("USDC"); // Redis never seen yet: memory
      expect(await redis.keys(`${p}*`)).toEqual([]);

      await proxy.open();
      await vi.waitFor(() => expect(recovered).toBeGreaterThan(0), { timeout: 30_000, interval: 50 });
      expect(recovered).toBe(1);
      expect((await service.trending()).source).toBe("live");
      expect(await redis.exists(`${p}trending:24h:50`)).toBe(1);

      // Gone again: answers keep coming from memory, not from the provider.
      const searches = standin.stats().search;
      await proxy.close();
      expect((await service.resolve([USDC]))[0]!.symbol).toBe("USDC");
      expect(standin.stats().search).toBe(searches);
    } finally {
      await service.close();
      await proxy.close();
    }
  });
});
