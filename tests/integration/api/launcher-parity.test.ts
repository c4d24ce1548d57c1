import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertOffer, recordFill } from "../../../lib/db/writes/index";
import { freePort } from "../../../platform/postgres/embedded";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, fillFixture, offerFixture, USDC } from "../../helpers/fixtures";
import { ask, comparable, parityRequests, type Seen } from "../../helpers/parity";
import { startWebServer, type WebServer } from "../../helpers/server";
import { ensureProductionBuild } from "../../setup/next-build";
import { until } from "../../helpers/until";

// The web launcher answers /v1 from the route table on node:http; `next
// start` answers it through the same table's Next route handlers. Both must
// say the same: status, body and headers, for answers, errors, 304s, HEAD,
// preflights and the stream's first frames (the request set and what is left
// out of the comparison: tests/helpers/parity.ts, shared with the scale
// topology's proxy parity).

const ROOT = path.resolve(import.meta.dirname, "../../..");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");

let database: TestDatabase;
let launcher: WebServer;
let nextStart: ChildProcess;
let nextUrl: string;

const MAKER = addressOf("maker:parity");
const offer = offerFixture("parity-1", { maker: MAKER, paymentMint: USDC });
const UNKNOWN = addressOf("offer:parity-unknown");

const requests = parityRequests({ offerPda: offer.pda, maker: MAKER, tokenMint: offer.tokenMint, paymentMint: USDC, unknownOffer: UNKNOWN });

async function startNext(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  await ensureProductionBuild();
  const port = await freePort();
  const child = spawn(process.execPath, [NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", LOG_LEVEL: "silent", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  await until(
    "next start answering",
    async () => {
      if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${output}`);
      return ask(url, "/v1").then(() => true, () => undefined);
    },
    { everyMs: 100, detail: () => output },
  );
  return { child, url };
}

beforeAll(async () => {
  database = await createTestDatabase();
  await insertOffer(database.db.$client, offer);
  await recordFill(database.db.$client, fillFixture("parity-fill-1", offer.pda, { slot: 300n }));
  const env = { DATABASE_URL: database.url, RATE_LIMIT_RPM: "100000" };
  launcher = await startWebServer(env);
  ({ child: nextStart, url: nextUrl } = await startNext(env));
}, 120_000);

afterAll(async () => {
  await launcher?.stop();
  if (nextStart && nextStart.exitCode === null) {
    const exited = new Promise((r) => nextStart.once("exit", r));
    nextStart.kill("SIGTERM");
    await exited;
  }
  await database?.drop();
});

/** Asks both servers the same thing, one after the other, and expects the same answer. */
async function same(target: string, method = "GET", headers: Record<string, string> = {}): Promise<Seen> {
  const viaLauncher = await ask(launcher.baseUrl, target, method, headers);
  const viaNext = await ask(nextUrl, target, method, headers);
  expect(comparable(viaLauncher), `${method} ${target}`).toEqual(comparable(viaNext));
  return viaLauncher;
}

describe("the launcher and `next start` answer /v1 alike", () => {
  it("answers each endpoint with the same status, body and headers, HEAD and preflight alike", async () => {
    for (const target of requests.answers) expect((await same(target)).status, target).toBe(200);
    for (const target of requests.head) {
      const head = await same(target, "HEAD");
      expect(head.body).toBe("");
    }
    expect((await same(requests.preflight.target, "OPTIONS", requests.preflight.headers)).status).toBe(204);
  });

  it("refuses alike: 400 for a bad parameter or path segment, 404 for an unknown offer or path, 405 for another method", async () => {
    for (const { target, method, status } of requests.refusals) expect((await same(target, method)).status, `${method} ${target}`).toBe(status);
  });

  it("revalidates alike: 304 without a body for the current tag, in its plain or weak form", async () => {
    for (const target of requests.revalidated) {
      const first = await same(target);
      const etag = first.headers.etag!;
      expect((await same(target, "GET", { "if-none-match": etag })).status, target).toBe(304);
      expect((await same(target, "GET", { "if-none-match": `W/${etag}, "other"` })).status, target).toBe(304);
      expect((await same(target, "HEAD", { "if-none-match": etag })).status, target).toBe(304);
    }
  });

  it("opens the stream alike: the same headers and the same first frame", async () => {
    const viaLauncher = await ask(launcher.baseUrl, requests.stream, "GET", {}, true);
    const viaNext = await ask(nextUrl, requests.stream, "GET", {}, true);
    expect(viaLauncher.status).toBe(200);
    expect(comparable(viaLauncher)).toEqual(comparable(viaNext));
    expect((await same(requests.streamRefused)).status).toBe(400);
  });

  it("exports CSV alike: the same rows and headers, HEAD headers only, refusals in the JSON shape", async () => {
    for (const target of requests.csv) {
      const csv = await same(target);
      expect(csv.status, target).toBe(200);
      expect(csv.headers["content-type"], target).toBe("text/csv; charset=utf-8");
      expect((await same(target, "HEAD")).body, target).toBe("");
    }
    expect((await same("/v1/fills", "GET", { accept: "text/csv" })).headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect((await same("/v1/fills?format=csv&limit=5")).status).toBe(400);
    expect((await same("/v1/makers?window=1y")).status).toBe(400);
  });

  it("writes the DEXTools adapter's error body alike, the early 405 included", async () => {
    // Without a token provider the CoinGecko lists are a 502 (decimals unknown): the same 502 on both.
    for (const target of ["/v1/coingecko/pairs", "/v1/coingecko/tickers", "/v1/dextools/latest-block"]) await same(target);
    const missing = await same("/v1/dextools/pair");
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.body)).toHaveProperty("message");
    const refused = await same("/v1/dextools/pair", "POST");
    expect(refused.status).toBe(405);
    expect(JSON.parse(refused.body)).toHaveProperty("message");
  });
});
