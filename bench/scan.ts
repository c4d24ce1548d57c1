import { readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { freePort, startEmbeddedPostgres } from "../lib/db/embedded";
import { migrateDatabase } from "../lib/db/migrate";
import { createDatabaseIfMissing } from "../lib/db/resolve";
import { startLocalCluster } from "../local/cluster";
import { ensureBuild, log, ROOT, spawnServer, startNext } from "./harness";

// npm run bench:scan — for each history size, the worker backfills a local
// ledger of that many transactions into an empty database (transactions/s,
// fills/s, peak RSS: memory must not grow with the history); after the first
// size it follows a live tail: the lag from a transaction's appearance at the
// RPC to its fill in /v1/fills, p50 and p99.
// BENCH_SIZES (100000,1000000: comma-separated), BENCH_LIVE_SECONDS (30; 0 skips),
// BENCH_DATABASE_URL (else an embedded PostgreSQL).

const SIZES = (process.env.BENCH_SIZES ?? process.env.BENCH_TRANSACTIONS ?? "100000,1000000").split(",").map(Number);
const LIVE_SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 30);
const RSS_TARGET_MB = 250;
const RATE_TARGET = 2500;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** CPU time a process has used so far (user + system), in seconds. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** Peak resident set of a process so far (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

let adminUrl = process.env.BENCH_DATABASE_URL;
let stopDatabase = async () => {};
if (!adminUrl) {
  const embedded = await startEmbeddedPostgres({ dataDir: path.join(ROOT, ".data/bench-scan-pg"), persistent: false });
  adminUrl = embedded.adminUrl;
  stopDatabase = () => embedded.stop();
}
await ensureBuild();

const results: string[] = [];
const misses: string[] = [];
for (const [index, size] of SIZES.entries()) {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe("drop database if exists offer_book_bench_scan with (force)");
  await admin.end();
  const databaseUrl = await createDatabaseIfMissing(adminUrl, "offer_book_bench_scan");
  await migrateDatabase(databaseUrl);

  log(`building a ledger of ${size.toLocaleString()} transactions`);
  let started = Date.now();
  const cluster = await startLocalCluster({ seed: "bench-scan", history: size, live: false });
  const total = cluster.ledger.transactions.length;
  const expectedFills = cluster.expectedState().fills.length;
  const buildSeconds = (Date.now() - started) / 1000;
  log(`ledger built in ${buildSeconds.toFixed(1)} s: ${total.toLocaleString()} transactions, ${expectedFills.toLocaleString()} fills`);

  const live = index === 0 && LIVE_SECONDS > 0;
  const webPort = await freePort();
  const web = live ? await startNext(webPort, { DATABASE_URL: databaseUrl, RATE_LIMIT_RPM: "0" }) : null;
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const scanned = async () => (await sql`select count(*)::int as n from scanned_transactions`)[0]!.n as number;

  started = Date.now();
  const worker = await spawnServer(
    ["scripts/worker.mjs"],
    { DATABASE_URL: databaseUrl, ...cluster.env, LOG_LEVEL: "warn", SCAN_INTERVAL_MS: process.env.SCAN_INTERVAL_MS ?? "1000" },
    null,
  );
  let peak = 0;
  const rssTimer = setInterval(() => (peak = Math.max(peak, peakRssMb(worker.pid!))), 250);
  while ((await scanned()) < total) await sleep(200);
  const backfillSeconds = (Date.now() - started) / 1000;
  const [fillRow] = await sql`select count(*)::int as n from fills`;
  peak = Math.max(peak, peakRssMb(worker.pid!));
  // CPU per transaction holds still on a shared machine where the wall-clock rate does not.
  const cpuMsPerTx = (cpuSeconds(worker.pid!) * 1000) / total;
  const txPerSecond = total / backfillSeconds;
  const line = `${total.toLocaleString()} transactions (ledger built in ${buildSeconds.toFixed(0)} s): backfill ${backfillSeconds.toFixed(1)} s = ${txPerSecond.toFixed(0)} transactions/s, ${(fillRow!.n / backfillSeconds).toFixed(0)} fills/s; worker peak RSS ${peak.toFixed(0)} MB, worker CPU ${cpuMsPerTx.toFixed(3)} ms/transaction`;
  console.log(line);
  results.push(line);
  if (txPerSecond < RATE_TARGET) misses.push(`${total}: backfill ${txPerSecond.toFixed(0)} tx/s (target >= ${RATE_TARGET})`);
  if (peak >= RSS_TARGET_MB) misses.push(`${total}: worker RSS ${peak.toFixed(0)} MB (target < ${RSS_TARGET_MB})`);

  if (live && web) {
    // Live tail: takes appended at about 4 a second; each one's lag is from the
    // moment the RPC serves it to the moment /v1/fills lists it.
    const base = `http://127.0.0.1:${webPort}`;
    const appearedAt = new Map<string, number>();
    const lags: number[] = [];
    const deadline = Date.now() + LIVE_SECONDS * 1000;
    let nextAppend = Date.now();
    while (Date.now() < deadline || appearedAt.size > 0) {
      if (Date.now() >= nextAppend && Date.now() < deadline) {
        for (const tx of cluster.append("take", 1)) if (tx.result.err === null) appearedAt.set(tx.signature, Date.now());
        nextAppend += 250;
      }
      const body = (await (await fetch(`${base}/v1/fills?limit=50`)).json()) as { fills: { signature: string }[] };
      const now = Date.now();
      for (const f of body.fills) {
        const at = appearedAt.get(f.signature);
        if (at !== undefined) {
          lags.push(now - at);
          appearedAt.delete(f.signature);
        }
      }
      if (Date.now() > deadline + 30_000) break;
      await sleep(20);
    }
    lags.sort((a, b) => a - b);
    const lagLine = `live lag over ${lags.length} fills (SCAN_INTERVAL_MS ${process.env.SCAN_INTERVAL_MS ?? 1000}): p50 ${quantile(lags, 0.5)} ms, p99 ${quantile(lags, 0.99)} ms, max ${lags.at(-1)} ms`;
    console.log(lagLine);
    results.push(lagLine);
    if (quantile(lags, 0.99) >= 2000) misses.push(`live lag p99 ${quantile(lags, 0.99)} ms (target < 2000)`);
    if (appearedAt.size > 0) misses.push(`${appearedAt.size} live fills never appeared`);
  }
  clearInterval(rssTimer);
  worker.kill("SIGTERM");
  web?.kill("SIGTERM");
  await sql.end();
  await cluster.stop();
}

console.log(`\n${results.join("\n")}`);
console.log(misses.length ? `targets missed: ${misses.join("; ")}` : "all targets met");
await stopDatabase();
process.exit(0);
