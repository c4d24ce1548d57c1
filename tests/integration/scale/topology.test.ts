import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { findEngines } from "../../../scripts/scale/engines";
import { compareIndexes } from "../../../scripts/scale/index-equality";
import { freezeChain, leaderKillDrill } from "../../../scripts/scale/leader-kill";
import { startScaleStack, type ScaleStack } from "../../../scripts/scale/topology";
import { ensureProductionBuild } from "../../setup/next-build";
import { addressOf } from "../../helpers/fixtures";
import { ask, parityRequests } from "../../helpers/parity";
import { jsonClient } from "../../helpers/server";
import { openStream } from "../../helpers/sse";
import { expectIndexMatchesLedger } from "../worker/expected-index";
import { expectSameStreamOpening, expectSameThroughProxy } from "./proxy-owned";
import { until as untilValue } from "../../helpers/until";

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

/** The stack's servers stop and start under these tests: a probe that fails is asked again. */
const until = <T>(what: string, probe: () => Promise<T | undefined | false>, withinMs?: number) =>
  untilValue(what, probe, { withinMs, retryErrors: true });

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
      // The parity and ledger checks ask a few hundred questions from one address: no budget in their way.
      webEnv: { REPLICA_MAX_LAG: "1000", RATE_LIMIT_RPM: "100000" },
      log: () => {},
    });
    await until("the worker's first events", async () => (await (await fetch(`${stack.proxyUrl}/v1/offers?limit=1`)).json()).offers?.length > 0, 120_000);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("caches /v1 in the proxy, one compressed and one plain copy, and never hands one client's budget headers to another", async () => {
    const url = `${stack.proxyUrl}/v1/offers?limit=7`;
    const hit = await until("a cache hit", async () => {
      const response = await fetch(url, { headers: { "accept-encoding": "gzip" } });
      await response.arrayBuffer();
      return response.headers.get("x-cache-status") === "HIT" ? response : undefined;
    });
    expect(hit.headers.get("content-encoding")).toBe("gzip");
    expect(hit.headers.get("vary")).toMatch(/accept-encoding/i);
    expect(hit.headers.get("etag")).toMatch(/^W\//);
    expect([...hit.headers.keys()].filter((h) => h.startsWith("ratelimit-"))).toEqual([]);
    // One gzip copy, whatever the client's Accept-Encoding spells; identity is a copy of its own, with the strong tag.
    const spelled = await fetch(url, { headers: { "accept-encoding": "br, gzip, deflate" } });
    await spelled.arrayBuffer();
    expect(spelled.headers.get("content-encoding")).toBe("gzip");
    expect(["HIT", "STALE", "UPDATING", "REVALIDATED"]).toContain(spelled.headers.get("x-cache-status"));
    const identity = await until("an identity cache hit", async () => {
      const response = await fetch(url, { headers: { "accept-encoding": "identity" } });
      await response.arrayBuffer();
      return response.headers.get("x-cache-status") === "HIT" ? response : undefined;
    });
    expect(identity.headers.get("content-encoding")).toBeNull();
    expect(identity.headers.get("etag")).toMatch(/^"/);
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

  describe("says behind the proxy what one web process says", () => {
    let resume: (() => void) | undefined;
    let requests: ReturnType<typeof parityRequests>;
    let same: (target: string, method?: string, headers?: Record<string, string>) => ReturnType<typeof expectSameThroughProxy>;

    beforeAll(async () => {
      resume = await freezeChain(stack);
      const web = stack.webUrls[0]!;
      const fill = (await jsonClient(web).json("/v1/fills?limit=1")).body.fills[0];
      requests = parityRequests({ offerPda: fill.offerPda, maker: fill.maker, tokenMint: fill.tokenMint, paymentMint: fill.paymentMint, unknownOffer: addressOf("offer:scale-unknown") });
      same = (target, method = "GET", headers = {}) => expectSameThroughProxy(stack.proxyUrl, web, target, method, headers);
    }, 120_000);
    afterAll(() => resume?.());

    it("answers each endpoint, HEAD, preflight and CSV alike, compressed when asked", async () => {
      for (const target of requests.answers) expect((await same(target)).status, target).toBe(200);
      for (const target of requests.head) expect((await same(target, "HEAD")).body).toBe("");
      expect((await same(requests.preflight.target, "OPTIONS", requests.preflight.headers)).status).toBe(204);
      for (const target of requests.csv) expect((await same(target)).headers["content-type"], target).toBe("text/csv; charset=utf-8");
      const gzipped = await same("/v1/offers?limit=50", "GET", { "accept-encoding": "gzip" });
      expect(gzipped.headers["content-encoding"]).toBe("gzip");
    });

    it("refuses alike: the 400 shape, 404, 405 with allow", async () => {
      for (const { target, method, status } of requests.refusals) {
        const seen = await same(target, method);
        expect(seen.status, `${method} ${target}`).toBe(status);
        if (status === 400) expect(JSON.parse(seen.body)).toHaveProperty("error");
        if (status === 405) expect(seen.headers.allow, `${method} ${target}`).toBeTruthy();
      }
      expect((await same(requests.streamRefused)).status).toBe(400);
    });

    it("revalidates through the proxy: 304 without a body for the current tag, plain or weak, GET or HEAD", async () => {
      for (const target of requests.revalidated) {
        const etag = (await same(target)).headers.etag!;
        expect((await same(target, "GET", { "if-none-match": etag })).status, target).toBe(304);
        expect((await same(target, "GET", { "if-none-match": `W/${etag}, "other"` })).status, target).toBe(304);
        expect((await same(target, "HEAD", { "if-none-match": etag })).status, target).toBe(304);
      }
    });

    it("opens the stream alike through the proxy: the same headers and first frame", async () => {
      const opening = await expectSameStreamOpening(stack.proxyUrl, stack.webUrls[0]!, requests.stream);
      expect(opening.status).toBe(200);
      expect((await ask(stack.proxyUrl, requests.stream, "GET", {}, true)).headers["x-cache-status"]).toBeUndefined();
    });
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

  it("sets the web's session through PgBouncer: a statement bound and JIT off on both pools", async () => {
    for (const url of [stack.pooledUrl, stack.pooledReplicaUrl]) {
      const sql = postgres(url, { max: 1, prepare: false, onnotice: () => {} });
      try {
        const [row] = await sql`select current_setting('jit') as jit, current_setting('statement_timeout') as timeout`;
        expect(row, url).toEqual({ jit: "off", timeout: "10s" });
      } finally {
        await sql.end({ timeout: 5 });
      }
    }
  });

  it("recovers from a PgBouncer restart and keeps answering with Redis stopped", async () => {
    await stack.restartPgbouncer();
    await until("reads through the restarted PgBouncer", async () => (await status(`${stack.webUrls[1]}/v1/offers?limit=5`)) === 200);
    await stack.stopRedis();
    for (const url of stack.webUrls) expect(await status(`${url}/v1/offers?limit=6`)).toBe(200);
    await stack.startRedis();
  });

  it("hands the writing to the standby within 10 s of the leader's SIGKILL under load, and its index equals a clean run's", async () => {
    const drill = await leaderKillDrill(stack);
    try {
      expect(drill.takeoverMs, "the standby leading and writing").not.toBeNull();
      expect(drill.takeoverMs!).toBeLessThanOrEqual(10_000);
      expect(drill.comparison.differences).toEqual([]);
      expect(drill.comparison.fills).toBeGreaterThan(0);
      // The API over the topology's replica shows exactly the cluster's own record (the worker suites' check).
      await expectIndexMatchesLedger(jsonClient(stack.webUrls[0]!), stack.cluster);
      // The comparison sees a fill counted twice: in a rollup, and in the feed.
      const sql = postgres(drill.cleanUrl, { max: 1, onnotice: () => {} });
      try {
        await sql`update maker_volume v set amount = v.amount + f.fill_amount from (select * from fills order by slot limit 1) f
          where v.maker = f.maker and v.side = f.side and v.token_mint = f.token_mint`;
        await sql`insert into feed_events (kind, signature, slot, offer_pdas, makers, token_mints, payment_mints, payload)
          select kind, signature, slot, offer_pdas, makers, token_mints, payment_mints, payload from feed_events where kind = 'fill' order by id limit 1`;
      } finally {
        await sql.end();
      }
      const doubled = await compareIndexes(stack.primaryUrl, drill.cleanUrl);
      expect(doubled.differences.join("\n")).toMatch(/^maker_volume: 1 row\(s\) only in the topology's index, 1 only in the clean run's/m);
      expect(doubled.differences.join("\n")).toMatch(/^feed \(clean run\): 0 fill\(s\) without their event, 1 fill event\(s\) beyond one per fill/m);
    } finally {
      await drill.finish();
    }
  }, 300_000);
});
