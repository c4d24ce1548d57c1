import path from "node:path";
import postgres from "postgres";
import { freePort, startEmbeddedPostgres } from "../platform/postgres/embedded";
import { migrateDatabase } from "../lib/db/migrate";
import { createDatabaseIfMissing } from "../platform/postgres/resolve";
import { randomBytes } from "node:crypto";
import bs58 from "bs58";
import { startTokenStandin, syntheticTokens } from "../local/tokens";
import { ensureBuild, load, ROOT, startNext } from "./harness";

// npm run bench:tokens — cached /v1/tokens (50 mints) and /v1/trending at 32
// connections beside /v1/stats in the same run, and the provider calls the
// proxy made meanwhile against its budget (TOKEN_API_RPM, default 24); then
// 200 concurrent requests of 100 new mints each, which the budget cannot meet:
// how they are answered, and how soon.

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RPM = Number(process.env.TOKEN_API_RPM ?? 24);

let adminUrl = process.env.BENCH_DATABASE_URL;
let stopDatabase = async () => {};
if (!adminUrl) {
  const embedded = await startEmbeddedPostgres({ dataDir: path.join(ROOT, ".data/bench-tokens-pg"), persistent: false });
  adminUrl = embedded.adminUrl;
  stopDatabase = () => embedded.stop();
}
const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
await admin.unsafe("drop database if exists offer_book_bench_tokens with (force)");
await admin.end();
const databaseUrl = await createDatabaseIfMissing(adminUrl, "offer_book_bench_tokens");
await migrateDatabase(databaseUrl);

const tokens = syntheticTokens(50);
// The stand-in keeps Jupiter's keyless limit (30 a minute): a proxy over budget would meet 429s.
const provider = await startTokenStandin({ port: 0, extraTokens: tokens });
await ensureBuild();
const port = await freePort();
const next = await startNext(port, { DATABASE_URL: databaseUrl, TOKEN_API_URL: provider.url, TOKEN_API_RPM: String(RPM), RATE_LIMIT_RPM: "0" });
const base = `http://127.0.0.1:${port}`;
const tokensPath = `/v1/tokens?mints=${tokens.map((t) => t.mint).join(",")}`;

try {
  // Fill the caches, then count only what the load itself makes upstream.
  await (await fetch(`${base}${tokensPath}`)).arrayBuffer();
  await (await fetch(`${base}/v1/trending`)).arrayBuffer();
  await load(base, ["/v1/stats", tokensPath, "/v1/trending"], 2);
  const before = provider.stats();
  const started = Date.now();
  const stats = await load(base, ["/v1/stats"], SECONDS);
  const cachedTokens = await load(base, [tokensPath], SECONDS);
  const trending = await load(base, ["/v1/trending"], SECONDS);
  const minutes = (Date.now() - started) / 60_000;
  const after = provider.stats();
  const calls = after.requests - before.requests;

  const row = (name: string, l: { rps: number; p50: number; p99: number; errors: number }) =>
    `${name.padEnd(34)} ${l.rps.toFixed(0).padStart(8)} ${String(l.p50).padStart(5)} ${String(l.p99).padStart(5)} ${(l.p50 / Math.max(stats.p50, 1)).toFixed(2).padStart(8)}${l.errors ? `  (${l.errors} errors)` : ""}`;
  console.log(`endpoint (32 connections, ${SECONDS} s)     req/s   p50   p99  p50 / stats p50`);
  console.log(row("/v1/stats", stats));
  console.log(row("/v1/tokens (50 cached mints)", cachedTokens));
  console.log(row("/v1/trending (from cache)", trending));
  console.log(
    `upstream calls during the run: ${calls} in ${minutes.toFixed(1)} min (${(calls / minutes).toFixed(1)}/min; budget ${RPM}/min); ` +
      `most in any provider window: ${after.maxInWindow} of its ${after.limit}; refused by the provider: ${after.overLimit + after.rateLimited}`,
  );

  // 200 concurrent requests of 100 mints nobody has asked for: 20,000 mints, 200 provider calls at best.
  const beforeBurst = provider.stats();
  const burstStarted = performance.now();
  const burst = await Promise.all(
    Array.from({ length: 200 }, async () => {
      const mints = Array.from({ length: 100 }, () => bs58.encode(randomBytes(32))).join(",");
      const response = await fetch(`${base}/v1/tokens?mints=${mints}`);
      const body = (await response.json()) as { error?: string };
      return { status: response.status, ms: performance.now() - burstStarted, retryAfter: response.headers.get("retry-after"), error: body.error };
    }),
  );
  const byStatus = new Map<number, { count: number; slowestMs: number; times: number[]; retryAfter: Set<string>; error?: string }>();
  for (const answer of burst) {
    const entry = byStatus.get(answer.status) ?? { count: 0, slowestMs: 0, times: [], retryAfter: new Set<string>(), error: answer.error };
    entry.count++;
    entry.slowestMs = Math.max(entry.slowestMs, answer.ms);
    entry.times.push(answer.ms);
    if (answer.retryAfter) entry.retryAfter.add(answer.retryAfter);
    byStatus.set(answer.status, entry);
  }
  console.log(`200 concurrent /v1/tokens of 100 new mints each (budget ${RPM}/min): ${provider.stats().search - beforeBurst.search} provider calls`);
  for (const [status, e] of [...byStatus].sort(([a], [b]) => a - b)) {
    const retry = e.retryAfter.size ? `, retry-after ${[...e.retryAfter].sort((a, b) => Number(a) - Number(b)).join("/")} s` : "";
    const median = e.times.sort((a, b) => a - b)[Math.floor(e.times.length / 2)]!;
    console.log(`  ${status}: ${e.count}, median ${(median / 1000).toFixed(2)} s, the last after ${(e.slowestMs / 1000).toFixed(2)} s${retry}${status >= 400 ? ` ("${e.error}")` : ""}`);
  }

  const misses = [];
  if (cachedTokens.p50 > 2 * Math.max(stats.p50, 1)) misses.push("/v1/tokens p50 above 2x /v1/stats");
  if (trending.p50 > 2 * Math.max(stats.p50, 1)) misses.push("/v1/trending p50 above 2x /v1/stats");
  if (calls / Math.max(minutes, 1) > RPM || after.overLimit > 0) misses.push("upstream calls above the budget");
  console.log(misses.length ? `targets missed: ${misses.join("; ")}` : "all targets met");
} finally {
  next.kill("SIGTERM");
  await provider.stop();
  await stopDatabase();
}
process.exit(0);
