import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findEngines } from "../../../scripts/scale/engines";
import { startScaleStack, type ScaleStack } from "../../../scripts/scale/topology";
import { ensureProductionBuild } from "../../setup/next-build";
import { openStream } from "../../helpers/sse";

// The scale topology's drills (docs/scale.md), on the real engines: nginx,
// PgBouncer, a streaming replica, Redis, two web processes, two workers.
// .ci/run installs the engines and sets OFFER_BOOK_SCALE_ENGINES=required, so
// in CI a missing one fails here; on a dev box without them the file skips.

function missingEngine(): string | null {
  try {
    findEngines();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
const missing = missingEngine();
if (missing && process.env.OFFER_BOOK_SCALE_ENGINES !== "required") console.warn(`tests/integration/scale skipped: ${missing}`);

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (${(last as Error).message})` : ""}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function replicaServing(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^offer_book_replica_serving\{[^}]*\} (\S+)/m.exec(text)?.[1] ?? NaN);
}

const allServing = (stack: ScaleStack, value: number) => async () =>
  (await Promise.all(stack.webUrls.map(replicaServing))).every((v) => v === value);

async function status(url: string): Promise<number> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
  await response.arrayBuffer();
  return response.status;
}

describe.skipIf(missing !== null && process.env.OFFER_BOOK_SCALE_ENGINES !== "required")("the scale topology", () => {
  let stack: ScaleStack;

  beforeAll(async () => {
    if (missing) throw new Error(missing);
    await ensureProductionBuild();
    stack = await startScaleStack({
      dir: mkdtempSync(path.join(os.tmpdir(), "offer-book-scale-test-")),
      history: 100,
      txPerSecond: 4,
      webEnv: { REPLICA_MAX_LAG: "1000" },
      log: () => {},
    });
    await until("the worker's first events", async () => (await (await fetch(`${stack.proxyUrl}/v1/offers?limit=1`)).json()).offers?.length > 0, 120_000);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("caches /v1 in the proxy, compresses, and never hands one client's budget headers to another", async () => {
    const url = `${stack.proxyUrl}/v1/offers?limit=7`;
    const hit = await until("a cache hit", async () => {
      const response = await fetch(url, { headers: { "accept-encoding": "gzip" } });
      await response.arrayBuffer();
      return response.headers.get("x-cache-status") === "HIT" ? response : undefined;
    });
    expect(hit.headers.get("content-encoding")).toBe("gzip");
    expect([...hit.headers.keys()].filter((h) => h.startsWith("ratelimit-"))).toEqual([]);
    // The origin still tells its own client.
    const direct = await fetch(`${stack.webUrls[0]}/v1/offers?limit=7`);
    await direct.arrayBuffer();
    expect(direct.headers.get("ratelimit-remaining")).not.toBeNull();
  });

  it("passes /v1/stream through unbuffered and uncached", async () => {
    const stream = await openStream(stack.proxyUrl, "/v1/stream");
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get("x-cache-status")).toBeNull();
      await stream.waitForCount(1, 30_000);
    } finally {
      stream.close();
    }
  });

  it("reads on the primary while the replica lags past REPLICA_MAX_LAG, and back on it once caught up", async () => {
    await until("replica serving", allServing(stack, 1));
    await stack.setApplyDelay(5000);
    await until("reads on the primary", allServing(stack, 0));
    expect(await status(`${stack.webUrls[0]}/v1/offers?limit=3`)).toBe(200);
    await stack.setApplyDelay(0);
    await until("reads back on the replica", allServing(stack, 1));
  });

  it("answers from the primary while the replica is down, and returns to it after its restart", async () => {
    await stack.stopReplica("immediate");
    await until("the replica out of service", allServing(stack, 0));
    for (const url of stack.webUrls) expect(await status(`${url}/v1/offers?limit=4`)).toBe(200);
    await stack.startReplica();
    await until("the replica back in service", allServing(stack, 1), 60_000);
  });

  it("recovers from a PgBouncer restart and keeps answering with Redis stopped", async () => {
    await stack.restartPgbouncer();
    await until("reads through the restarted PgBouncer", async () => (await status(`${stack.webUrls[1]}/v1/offers?limit=5`)) === 200);
    await stack.stopRedis();
    for (const url of stack.webUrls) expect(await status(`${url}/v1/offers?limit=6`)).toBe(200);
    await stack.startRedis();
  });

  it("hands the writing to the standby worker when the leader is killed", async () => {
    const role = async (i: number) => ((await (await fetch(`${stack.workerHealthUrls[i]}/health`)).json()) as { role: string }).role;
    const leader = await until("a leader", async () => ((await role(0)) === "leader" ? 0 : (await role(1)) === "leader" ? 1 : undefined));
    stack.workers[leader]!.kill("SIGKILL");
    await until("the standby leading", async () => (await role(1 - leader)) === "leader", 60_000);
  });
});
