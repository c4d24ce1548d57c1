import path from "node:path";
import postgres from "postgres";
import { freePort, startEmbeddedPostgres } from "../lib/db/embedded";
import { migrateDatabase } from "../lib/db/migrate";
import { createDatabaseIfMissing } from "../lib/db/resolve";
import { markLapsedOffers } from "../lib/store/offers";
import { FILLS, generate, OFFERS, PAYMENT_MINTS } from "./api-data";
import { cpuSeconds, ensureBuild, load, log, ROOT, spawnServer, startNext, type Load } from "./harness";

// npm run bench:api — the /v1 endpoints under load at 32 connections, each
// beside a bare node:http + postgres server running the same query, in one run;
// then each at one connection, whose p50 is the latency without queueing.
// cpu: the server process's CPU time per request (µs) at 32 connections.
// BENCH_DATABASE_URL: a PostgreSQL server to use (else an embedded one under .data/bench-pg).
// BENCH_SECONDS: seconds of load per endpoint and server (default 10).

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const SOLO_SECONDS = Math.max(2, Math.round(SECONDS / 4));

async function database(): Promise<{ url: string; stop: () => Promise<void> }> {
  let adminUrl = process.env.BENCH_DATABASE_URL;
  let stop = async () => {};
  if (!adminUrl) {
    const embedded = await startEmbeddedPostgres({
      dataDir: path.join(ROOT, ".data/bench-pg"),
      persistent: true,
      settings: ["-c", "shared_buffers=2GB", "-c", "work_mem=32MB", "-c", "max_wal_size=4GB", "-c", "jit=off"],
    });
    adminUrl = embedded.adminUrl;
    stop = () => embedded.stop();
  }
  const name = "offer_book_bench";
  const url = await createDatabaseIfMissing(adminUrl, name);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const [meta] = await sql`select offers, fills from bench_meta`.catch(() => [undefined]);
  await sql.end();
  if (meta?.offers === OFFERS && meta?.fills === FILLS && !process.env.BENCH_REGENERATE) {
    log(`reusing ${name}: ${OFFERS.toLocaleString()} offers, ${FILLS.toLocaleString()} fills`);
    await migrateDatabase(url); // newer migrations, if any
    await lapseJob(url);
    return { url, stop };
  }
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  await migrateDatabase(url);
  log(`generating ${OFFERS.toLocaleString()} offers and ${FILLS.toLocaleString()} fills`);
  const gen = postgres(url, { max: 1, onnotice: () => {} });
  await generate(gen, log);
  await gen.end();
  await lapseJob(url);
  return { url, stop };
}

/** What the worker does every few seconds: flag the offers that lapsed since the data was made. */
async function lapseJob(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  let total = 0;
  for (let n = -1; n !== 0; total += n) n = await markLapsedOffers(sql);
  await sql.end();
  if (total > 0) log(`lapse job flagged ${total.toLocaleString()} offers`);
}

async function samples(url: string) {
  const sql = postgres(url, { max: 1 });
  const pick = async (query: string) => (await sql.unsafe(query)).map((r) => String(r.v));
  const makers = await pick("select maker as v from offers where state = 'active' group by maker limit 200");
  const takers = await pick("select taker as v from fills tablesample system (0.1) limit 200");
  const tokens = await pick("select distinct token_mint as v from offers limit 50");
  const pdas = await pick("select offer_pda as v from fills tablesample system (0.1) limit 200");
  const [range] = await sql`select extract(epoch from max(block_time))::bigint as hi from fills`;
  const naiveStart = performance.now();
  await sql`select payment_mint, sum(fee_amount), sum(payment_amount) from fills group by payment_mint`;
  const naiveMs = performance.now() - naiveStart;
  await sql.end();
  return { makers, takers, tokens, pdas, hi: Number(range!.hi), naiveMs };
}

const each = <T>(values: T[], f: (v: T) => string) => values.map(f);

async function main() {
  const db = await database();
  const s = await samples(db.url);
  const day = 86_400;
  const scenarios: [string, string[]][] = [
    // No database: what the framework itself costs a request, against a bare constant reply.
    ["GET /v1 (no query: ceiling)", ["/v1"]],
    ["/v1/stats", ["/v1/stats"]],
    ["/v1/offers (open)", ["/v1/offers"]],
    ["/v1/offers?maker", each(s.makers, (m) => `/v1/offers?maker=${m}`)],
    ["/v1/offers?tokenMint", each(s.tokens, (t) => `/v1/offers?tokenMint=${t}`)],
    ["/v1/offers?paymentMint", each(PAYMENT_MINTS, (p) => `/v1/offers?paymentMint=${p}`)],
    ["/v1/offers?side", ["/v1/offers?side=buy", "/v1/offers?side=sell"]],
    ["/v1/offers?status=filled", ["/v1/offers?status=filled"]],
    ["/v1/offers?status=expired", ["/v1/offers?status=expired"]],
    ["/v1/offers?sort=price (book)", each(s.tokens, (t) => `/v1/offers?sort=price&tokenMint=${t}&paymentMint=${PAYMENT_MINTS[0]}&side=sell`)],
    ["/v1/offers/:pda", each(s.pdas, (p) => `/v1/offers/${p}`)],
    ["/v1/offers/:pda/fills", each(s.pdas, (p) => `/v1/offers/${p}/fills`)],
    ["/v1/fills", ["/v1/fills"]],
    ["/v1/fills?taker", each(s.takers, (t) => `/v1/fills?taker=${t}`)],
    ["/v1/fills?maker", each(s.makers, (m) => `/v1/fills?maker=${m}`)],
    ["/v1/fills?offerPda", each(s.pdas, (p) => `/v1/fills?offerPda=${p}`)],
    ["/v1/fills?tokenMint", each(s.tokens, (t) => `/v1/fills?tokenMint=${t}`)],
    ["/v1/fills?paymentMint", each(PAYMENT_MINTS, (p) => `/v1/fills?paymentMint=${p}`)],
    ["/v1/fills?fromTime&toTime", Array.from({ length: 50 }, (_, i) => `/v1/fills?fromTime=${s.hi - (i + 2) * 7 * day}&toTime=${s.hi - (i + 1) * 7 * day}`)],
    // Narrow (one hour) and wide (from a year back) windows, and a window with another filter.
    ["/v1/fills?from&to (1 h)", Array.from({ length: 50 }, (_, i) => `/v1/fills?fromTime=${s.hi - (i + 1) * 7 * day}&toTime=${s.hi - (i + 1) * 7 * day + 3600}`)],
    ["/v1/fills?from&to (wide)", Array.from({ length: 50 }, (_, i) => `/v1/fills?fromTime=${s.hi - 51 * 7 * day}&toTime=${s.hi - i * 7 * day}`)],
    ["/v1/fills?tokenMint&from&to", each(s.tokens, (t) => `/v1/fills?tokenMint=${t}&fromTime=${s.hi - 20 * 7 * day}&toTime=${s.hi - 19 * 7 * day}`)],
    ["/v1/makers/:maker/stats", each(s.makers, (m) => `/v1/makers/${m}/stats`)],
    ["/v1/makers/:maker/offers", each(s.makers, (m) => `/v1/makers/${m}/offers`)],
  ];

  await ensureBuild();
  const [routePort, barePort] = [await freePort(), await freePort()];
  const common = { DATABASE_URL: db.url, DATABASE_POOL_SIZE: "10", LOG_LEVEL: "warn" };
  const next = await startNext(routePort, { ...common, RATE_LIMIT_RPM: "1000000000" });
  // One process each (no tsx launcher in between), so that its CPU time can be read.
  const bare = await spawnServer(["--import", "tsx", "bench/bare-main.ts"], { ...common, PORT: String(barePort) }, () => false); // ready: its IPC message
  const routeUrl = `http://127.0.0.1:${routePort}`;
  const bareUrl = `http://127.0.0.1:${barePort}`;

  log(
    `${SECONDS} s per endpoint and server at ${CONNECTIONS} connections, then ${SOLO_SECONDS} s at 1 (p50@1); ` +
      `naive SUM over ${FILLS.toLocaleString()} fills: ${s.naiveMs.toFixed(0)} ms`,
  );
  const header = "endpoint                        route req/s   p50   p99 p50@1  cpu | bare req/s   p50   p99 p50@1  cpu | ratio";
  console.log(header);
  const misses: string[] = [];
  const ms = (v: number) => (v < 10 ? v.toFixed(1) : v.toFixed(0)).padStart(5);
  /** Load, and the server process's CPU time per request (µs) while under it. */
  const measure = async (url: string, pid: number | undefined, paths: string[]): Promise<Load & { cpu: number }> => {
    const before = cpuSeconds(pid);
    const result = await load(url, paths, SECONDS);
    return { ...result, cpu: ((cpuSeconds(pid) - before) * 1e6) / result.requests };
  };
  const us = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : "-").padStart(4);
  try {
    for (const [name, paths] of scenarios) {
      await load(routeUrl, paths, 2); // warm the route's code paths and the buffer cache
      await load(bareUrl, paths, 2);
      const route = await measure(routeUrl, next.pid, paths);
      const baseline = await measure(bareUrl, bare.pid, paths);
      const routeSolo = await load(routeUrl, paths, SOLO_SECONDS, 1);
      const bareSolo = await load(bareUrl, paths, SOLO_SECONDS, 1);
      const ratio = route.rps / baseline.rps;
      const errors = route.errors + routeSolo.errors;
      console.log(
        `${name.padEnd(31)} ${route.rps.toFixed(0).padStart(11)} ${ms(route.p50)} ${ms(route.p99)} ${ms(routeSolo.p50)} ${us(route.cpu)} | ` +
          `${baseline.rps.toFixed(0).padStart(10)} ${ms(baseline.p50)} ${ms(baseline.p99)} ${ms(bareSolo.p50)} ${us(baseline.cpu)} | ${ratio.toFixed(2)}${errors ? `  (${errors} errors)` : ""}`,
      );
      if (name === "/v1/stats" && route.p50 >= 5) misses.push(`/v1/stats p50 ${route.p50} ms (target < 5 ms)`);
      if (name !== "/v1/stats" && route.p99 >= 100) misses.push(`${name} p99 ${route.p99} ms (target < 100 ms)`);
      if (name.includes("ceiling")) continue;
      if (ratio < 0.6) misses.push(`${name} ratio ${ratio.toFixed(2)} (target >= 0.6)`);
    }
  } finally {
    next.kill("SIGTERM");
    bare.kill("SIGTERM");
    await db.stop();
  }
  console.log(misses.length ? `targets missed:\n  ${misses.join("\n  ")}` : "all targets met");
  process.exit(0);
}

await main();
