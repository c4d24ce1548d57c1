import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresRestart, providerDown, redisCut, steadyLoad, workerKills } from "./phases";
import { heavyPaths, startStack, type Stack } from "./stack";

// The explorer under load while its dependencies fail, over real processes:
// `next start`, the worker, a PostgreSQL of its own, the local cluster, the
// token stand-in and Redis behind a switch. The short form of `npm run bench:soak`.

let stack: Stack;
let paths: string[];

beforeAll(async () => {
  stack = await startStack({ name: "reliability", history: 400, txPerSecond: 6, redis: true });
  await stack.settle(120_000);
  stack.cluster.resume();
  paths = await heavyPaths(stack);
});

afterAll(async () => {
  if (process.env.RELIABILITY_LOG) (await import("node:fs")).writeFileSync(process.env.RELIABILITY_LOG, `${stack?.web.output()}\n---worker---\n${stack?.worker.output()}`);
  await stack?.stop();
});

describe("the explorer while its dependencies fail", () => {
  it("serves 64 connections on the heaviest endpoints without a 5xx", async () => {
    const load = await steadyLoad(stack, paths, { requests: 640 }, 64);
    expect(load.samples, JSON.stringify(load.byStatus)).toEqual([]);
    expect(load.unexpected5xx + load.unavailable + load.failures).toBe(0);
    expect(load.requests).toBeGreaterThanOrEqual(640);
  });

  it("answers 503 with retry-after while PostgreSQL restarts, recovers by itself, and the worker resumes with nothing lost or doubled", async () => {
    // The phase waits until the load met the outage, and until the answers are whole again after it.
    const phase = await postgresRestart(stack, paths, { connections: 8 });
    // A 500 here is an error the web did not know as the database's absence: its log line names it.
    expect(phase.load.samples, `${JSON.stringify(phase.load.byStatus)}\n${stack.web.output().slice(-3000)}`).toEqual([]);
    expect(phase.load.unexpected5xx + phase.load.failures).toBe(0);
    expect(phase.load.unavailable, "the outage was seen as 503s").toBeGreaterThan(0);
    expect(phase.workerAlive, stack.worker.output().slice(-2000)).toBe(true);
    const { discrepancies } = await workerKills(stack, 0, 120_000);
    expect(discrepancies).toEqual([]);
  }, 300_000);

  it("keeps the token endpoints answering when Redis is unreachable", async (context) => {
    const load = await redisCut(stack, { requests: 400 }, 16);
    if (!load) return context.skip("redis: false in this stack");
    expect(load.samples, JSON.stringify(load.byStatus)).toEqual([]);
    expect(load.unexpected5xx + load.unavailable + load.failures).toBe(0);
    expect(load.byStatus["200"]).toBe(load.requests);
  });

  it("serves cached tokens through a provider outage and answers 502 with retry-after for a mint it never saw", async () => {
    const phase = await providerDown(stack, { requests: 200 }, 8);
    expect(phase.cached.byStatus["200"], JSON.stringify(phase.cached.byStatus)).toBe(phase.cached.requests);
    expect(phase.uncached).toMatchObject({ status: 502, code: "upstream_error" });
    expect(Number(phase.uncached.retryAfter)).toBeGreaterThan(0);
  });

  it("ends with exactly the cluster's offers and fills after the worker is killed with SIGKILL during the live tail", async () => {
    const { discrepancies } = await workerKills(stack, 2, 120_000);
    expect(discrepancies).toEqual([]);
  }, 300_000);
});
