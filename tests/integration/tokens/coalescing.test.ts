import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTokenStandin, WELL_KNOWN, type TokenStandin } from "../../../local/tokens/index";
import { startTokenApp } from "./helpers/app";
import { httpClient } from "./helpers/http";
import { randomMints, testService } from "./helpers/service";

let standin: TokenStandin;
const client = httpClient();

beforeAll(async () => {
  standin = await startTokenStandin({ limit: 10_000 });
});
afterAll(async () => {
  await standin.stop();
  client.close();
});

async function concurrently<T>(n: number, ask: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => ask(i)));
}

describe("one upstream call for many askers", () => {
  it("1,000 concurrent identical /v1/tokens requests make one upstream call", async () => {
    standin.reset();
    const service = testService(standin.url);
    const app = await startTokenApp(service);
    const mints = WELL_KNOWN.map((t) => t.mint).join(",");
    const bodies = await concurrently(1_000, async () => {
      const response = await client.getJson<{ tokens: Array<{ symbol: string | null }> }>(`${app.url}/v1/tokens?mints=${mints}`);
      expect(response.status).toBe(200);
      return response.body;
    });
    await app.stop();
    await service.close();

    expect(bodies.every((b) => b.tokens.length === WELL_KNOWN.length && b.tokens.every((t) => t.symbol !== null))).toBe(true);
    expect(service.stats().upstreamCalls).toBe(1);
    expect(standin.stats().requests).toBe(1);
  });

  it("1,000 concurrent /v1/trending requests make one upstream call", async () => {
    standin.reset();
    const service = testService(standin.url);
    const app = await startTokenApp(service);
    const sources = await concurrently(1_000, async () => {
      const response = await client.getJson<{ source: string }>(`${app.url}/v1/trending`);
      expect(response.status).toBe(200);
      return response.body.source;
    });
    await app.stop();
    await service.close();

    expect(standin.stats().trending).toBe(1);
    expect(sources.filter((s) => s === "live").length).toBeGreaterThanOrEqual(1);
    expect(sources.filter((s) => s === "live").length + sources.filter((s) => s === "cache").length).toBe(1_000);
  });

  it("150 distinct mints make two calls of at most 100", async () => {
    standin.reset();
    const service = testService(standin.url);
    const mints = [...WELL_KNOWN.map((t) => t.mint), ...randomMints(150 - WELL_KNOWN.length)];
    const tokens = await service.resolve(mints);
    await service.close();

    expect(tokens.map((t) => t.mint)).toEqual(mints);
    const sizes = standin.stats().log.map((r) => r.mints);
    expect(sizes).toEqual([100, 50]);
  });

  it("missing mints of many concurrent requests are batched together", async () => {
    standin.reset();
    const service = testService(standin.url);
    const pool = randomMints(120);
    // 60 requests, each for a different overlapping slice of 10 mints.
    await concurrently(60, (i) => service.resolve(pool.slice(i, i + 10)).then((t) => expect(t).toHaveLength(10)));
    await service.close();
    // 69 distinct mints: one call of those that arrived first, at most a few more; never one per request.
    expect(standin.stats().search).toBeLessThanOrEqual(2);
    expect(standin.stats().log.reduce((sum, r) => sum + (r.mints ?? 0), 0)).toBe(69);
  });

  it("answers cached mints without any upstream call", async () => {
    const service = testService(standin.url);
    await service.resolve(WELL_KNOWN.map((t) => t.mint));
    standin.reset();
    await concurrently(200, () => service.resolve(WELL_KNOWN.map((t) => t.mint)));
    await service.close();
    expect(standin.stats().requests).toBe(0);
  });
});
