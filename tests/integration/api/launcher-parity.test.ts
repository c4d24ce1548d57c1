import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertOffer, recordFill } from "../../../lib/db/writes/index";
import { freePort } from "../../../platform/postgres/embedded";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, fillFixture, offerFixture, USDC } from "../../helpers/fixtures";
import { startWebServer, type WebServer } from "../../helpers/server";
import { ensureProductionBuild } from "../../setup/next-build";

// The web launcher answers /v1 from the route table on node:http; `next
// start` answers it through the same table's Next route handlers. Both must
// say the same: status, body and headers, for answers, errors, 304s, HEAD,
// preflights and the stream's first frames. Left out of the comparison: date,
// and how the body is framed (content-length or chunked, keep-alive), which
// are the connection's, not the answer's; and the router's own names that
// Next adds to every Vary it sends (rsc, next-router-*), which no API client
// sends and the launcher, having no router, does not name.

const ROOT = path.resolve(import.meta.dirname, "../../..");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
const FRAMING = new Set(["date", "content-length", "transfer-encoding", "connection", "keep-alive"]);

let database: TestDatabase;
let launcher: WebServer;
let nextStart: ChildProcess;
let nextUrl: string;

const MAKER = addressOf("maker:parity");
const offer = offerFixture("parity-1", { maker: MAKER, paymentMint: USDC });
const UNKNOWN = addressOf("offer:parity-unknown");

const withoutRouterNames = (vary: string) =>
  vary
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "rsc" && !name.startsWith("next-router-"))
    .join(", ");

interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One request over a fresh connection, with exactly the headers given (no accept-encoding unless asked). */
function ask(baseUrl: string, target: string, method = "GET", headers: Record<string, string> = {}, firstBytesOnly = false): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${target}`, { method, headers: { connection: "close", ...headers } }, (res) => {
      let body = "";
      const seen = () => {
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (!FRAMING.has(name)) kept[name] = String(value);
        if (kept.vary !== undefined) kept.vary = withoutRouterNames(kept.vary);
        if (kept.vary === "") delete kept.vary;
        return { status: res.statusCode!, headers: kept, body };
      };
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
        // The stream's opening frame ends with a blank line; then this side closes.
        if (firstBytesOnly && body.includes("\n\n")) {
          resolve(seen());
          req.destroy();
        }
      });
      res.on("end", () => resolve(seen()));
      res.on("error", reject);
    });
    req.on("error", (error) => (firstBytesOnly ? undefined : reject(error)));
    req.end();
  });
}

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
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${output}`);
    try {
      await ask(url, "/v1");
      return { child, url };
    } catch {
      if (Date.now() > deadline) throw new Error(`next start did not answer within 60 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
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

/**
 * The budget's running figures (requests left, seconds to the window's end)
 * are each process's own count in its own one-minute windows, which a slow
 * start-up can put a window apart: both must send them, as numbers.
 */
function comparable(seen: Seen): Seen {
  const headers = { ...seen.headers };
  for (const name of ["ratelimit-remaining", "ratelimit-reset"]) if (headers[name] !== undefined) headers[name] = /^\d+$/.test(headers[name]!) ? "<n>" : headers[name]!;
  return { ...seen, headers };
}

/** Asks both servers the same thing, one after the other, and expects the same answer. */
async function same(target: string, method = "GET", headers: Record<string, string> = {}): Promise<Seen> {
  const viaLauncher = await ask(launcher.baseUrl, target, method, headers);
  const viaNext = await ask(nextUrl, target, method, headers);
  expect(comparable(viaLauncher), `${method} ${target}`).toEqual(comparable(viaNext));
  return viaLauncher;
}

const ANSWERS = [
  "/v1",
  "/v1/stats",
  "/v1/markets",
  "/v1/offers",
  "/v1/offers?limit=1&status=open",
  `/v1/offers/${offer.pda}`,
  `/v1/offers/${offer.pda}/fills`,
  "/v1/fills",
  `/v1/fills?maker=${MAKER}`,
  "/v1/makers",
  "/v1/makers?window=7d&sort=offers",
  `/v1/makers/${MAKER}/stats`,
  `/v1/makers/${MAKER}/stats?window=7d`,
  `/v1/makers/${MAKER}/offers`,
  `/v1/wallets/${MAKER}/trades`,
  `/v1/book?tokenMint=${offer.tokenMint}&paymentMint=${USDC}`,
  `/v1/candles?tokenMint=${offer.tokenMint}&paymentMint=${USDC}&resolution=1h`,
  "/v1/openapi.json",
];

describe("the launcher and `next start` answer /v1 alike", () => {
  it("answers each endpoint with the same status, body and headers, HEAD and preflight alike", async () => {
    for (const target of ANSWERS) expect((await same(target)).status, target).toBe(200);
    for (const target of ["/v1/stats", `/v1/offers/${offer.pda}`]) {
      const head = await same(target, "HEAD");
      expect(head.body).toBe("");
    }
    expect((await same("/v1/offers", "OPTIONS", { origin: "https://elsewhere.example", "access-control-request-method": "GET" })).status).toBe(204);
  });

  it("refuses alike: 400 for a bad parameter or path segment, 404 for an unknown offer or path, 405 for another method", async () => {
    expect((await same("/v1/offers?limit=abc")).status).toBe(400);
    expect((await same("/v1/offers?status=nope")).status).toBe(400);
    expect((await same("/v1/offers/not-an-address")).status).toBe(400);
    expect((await same("/v1/candles?paymentMint=" + USDC)).status).toBe(400);
    expect((await same("/v1/fills?cursor=AAAA")).status).toBe(400);
    expect((await same(`/v1/offers/${UNKNOWN}`)).status).toBe(404);
    expect((await same("/v1/nowhere/at/all")).status).toBe(404);
    expect((await same("/v1/stats", "POST")).status).toBe(405);
    expect((await same("/v1/offers", "DELETE")).status).toBe(405);
  });

  it("revalidates alike: 304 without a body for the current tag, in its plain or weak form", async () => {
    for (const target of ["/v1/stats", `/v1/offers/${offer.pda}`, "/v1/fills"]) {
      const first = await same(target);
      const etag = first.headers.etag!;
      expect((await same(target, "GET", { "if-none-match": etag })).status, target).toBe(304);
      expect((await same(target, "GET", { "if-none-match": `W/${etag}, "other"` })).status, target).toBe(304);
      expect((await same(target, "HEAD", { "if-none-match": etag })).status, target).toBe(304);
    }
  });

  it("opens the stream alike: the same headers and the same first frame", async () => {
    const viaLauncher = await ask(launcher.baseUrl, "/v1/stream?types=fill", "GET", {}, true);
    const viaNext = await ask(nextUrl, "/v1/stream?types=fill", "GET", {}, true);
    expect(viaLauncher.status).toBe(200);
    expect(comparable(viaLauncher)).toEqual(comparable(viaNext));
    expect((await same("/v1/stream?types=nope")).status).toBe(400);
  });

  it("exports CSV alike: the same rows and headers, HEAD headers only, refusals in the JSON shape", async () => {
    for (const target of ["/v1/fills?format=csv", "/v1/offers?format=csv", `/v1/wallets/${MAKER}/trades?format=csv`]) {
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
