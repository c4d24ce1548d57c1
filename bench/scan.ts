import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { loadavg } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { freePort, startEmbeddedPostgres } from "../platform/postgres/embedded";
import { migrateDatabase } from "../lib/db/migrate";
import { sleep } from "../lib/resilience";
import { createDatabaseIfMissing } from "../platform/postgres/resolve";
import { startLocalCluster } from "../local/cluster";
import { cpuSeconds, ensureBuild, log, ROOT, spawnServer, startNext } from "./harness";
import { WORKER_NODE_FLAGS } from "../scripts/worker-command";

// npm run bench:scan — for each history size, the worker backfills a local
// ledger of that many transactions into an empty database (transactions/s,
// fills/s, peak RSS: memory must not grow with the history); after the first
// size it follows a live tail: the lag from a transaction's appearance at the
// RPC to its fill in /v1/fills, p50 and p99.
// BENCH_SIZES (100000,1000000: comma-separated), BENCH_LIVE_SECONDS (30; 0 skips),
// BENCH_DATABASE_URL (else an embedded PostgreSQL). BENCH_CPU_PROFILE=<dir>
// writes CPU profiles of the worker and of the cluster's serving (the bench
// process during the backfill), for chrome://inspect or speedscope.
// BENCH_PG_SETTINGS="shared_buffers=1GB max_wal_size=8GB" starts the
// embedded PostgreSQL with those settings.
// BENCH_PG_STATEMENTS=1 loads pg_stat_statements into the embedded
// PostgreSQL (a BENCH_DATABASE_URL server must preload it) and prints the
// statements that took its time, and those that paid JIT compilation.

const SIZES = (process.env.BENCH_SIZES ?? process.env.BENCH_TRANSACTIONS ?? "100000,1000000").split(",").map(Number);
const LIVE_SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 30);
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE ? path.resolve(process.env.BENCH_CPU_PROFILE) : null;
const PG_STATEMENTS = process.env.BENCH_PG_STATEMENTS === "1";
const PG_SETTINGS = (process.env.BENCH_PG_SETTINGS ?? "").split(" ").filter(Boolean);
/**
 * BENCH_WORKER_VARIANTS="a=,b=--heap-growing-percent=25 --max-semi-space-size=32"
 * backfills each size's one ledger once per variant (Node flags for the
 * worker, space-separated, and NAME=value words for its environment, as in
 * "b500=SCAN_BATCH_SIZE=500,b2000=SCAN_BATCH_SIZE=2000") into a fresh database, BENCH_WORKER_ROUNDS times
 * (1) in turn: side-by-side figures without building the ledger again. The
 * word BENCH_SQL=<file> is the bench's, not the worker's: that file runs on
 * the fresh database after the migrations (a schema variant, as
 * bench:write-path's `+file.sql`).
 */
const WORKER_VARIANTS = (process.env.BENCH_WORKER_VARIANTS ?? "=").split(",").map((spec) => {
  const at = spec.indexOf("=");
  const words = spec.slice(at + 1).split(" ").filter(Boolean);
  // A word NAME=value (capitals) is the worker's environment, e.g. SCAN_BATCH_SIZE=2000; the others are Node flags.
  const isEnv = (w: string) => /^[A-Z][A-Z0-9_]*=/.test(w);
  const env = Object.fromEntries(words.filter(isEnv).map((w) => [w.slice(0, w.indexOf("=")), w.slice(w.indexOf("=") + 1)]));
  return { name: spec.slice(0, at), flags: words.filter((w) => !isEnv(w)), env };
});
const WORKER_ROUNDS = Number(process.env.BENCH_WORKER_ROUNDS ?? 1);
const RSS_TARGET_MB = 250;
const RATE_TARGET = 2500;
/** The write path's budget: the worker's and PostgreSQL's CPU per transaction together, in ms (the cluster's is reported apart). */
const CPU_TARGET_MS = 0.15;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/**
 * CPU time of a PostgreSQL server so far, by kind of process: `backends`
 * (client connections alive: the worker's, and the bench's poll), `autovacuum`
 * (workers alive), `background` (the postmaster itself, walwriter,
 * checkpointer, bgwriter, launchers) and `ended` (children reaped into the
 * postmaster's cutime/cstime: mostly autovacuum workers that finished, and
 * connections closed).
 */
function postgresCpuByKind(postmaster: number): Record<"backends" | "autovacuum" | "background" | "ended", number> {
  const stat = (pid: number) => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  const own = stat(postmaster);
  const kinds = { backends: 0, autovacuum: 0, background: (Number(own[11]) + Number(own[12])) / 100, ended: (Number(own[13]) + Number(own[14])) / 100 };
  for (const child of readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, "utf8").split(" ").filter(Boolean)) {
    try {
      const fields = stat(Number(child));
      const title = readFileSync(`/proc/${child}/cmdline`, "utf8");
      const kind = title.includes("autovacuum worker") ? "autovacuum" : /\d+\.\d+\.\d+\.\d+\(\d+\)|\[local\]/.test(title) ? "backends" : "background";
      kinds[kind] += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // ended between the listing and the read: counted in cutime next time
    }
  }
  return kinds;
}

/**
 * What autovacuum did to each table during the backfill (the "autovacuum" and
 * "ended" shares above): its runs, and their time (wall, cost-delay sleeps
 * included) where the server keeps it (PostgreSQL 18's total_auto* columns).
 */
async function printAutovacuum(sql: postgres.Sql): Promise<void> {
  await sql`select pg_stat_force_next_flush()`.catch(() => {});
  const timed = (await sql`select 1 from pg_attribute where attrelid = 'pg_stat_user_tables'::regclass and attname = 'total_autovacuum_time'`).length > 0;
  const rows = await sql.unsafe<{ relname: string; vacuums: number; analyzes: number; vacuum_ms: number | null; analyze_ms: number | null }[]>(`
    select relname, autovacuum_count::int as vacuums, autoanalyze_count::int as analyzes,
      ${timed ? "round(total_autovacuum_time)::int" : "null"} as vacuum_ms, ${timed ? "round(total_autoanalyze_time)::int" : "null"} as analyze_ms
    from pg_stat_user_tables where autovacuum_count + autoanalyze_count > 0
    order by ${timed ? "total_autovacuum_time + total_autoanalyze_time" : "autovacuum_count + autoanalyze_count"} desc`);
  const each = rows.map((r) => `${r.relname} ${r.vacuums}v${r.vacuum_ms === null ? "" : ` ${r.vacuum_ms} ms`} ${r.analyzes}a${r.analyze_ms === null ? "" : ` ${r.analyze_ms} ms`}`);
  console.log(`  autovacuum by table (runs, wall ms): ${each.join("; ") || "none"}`);
}

/** Peak resident set of a process so far (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

let adminUrl = process.env.BENCH_DATABASE_URL;
let stopDatabase = async () => {};
if (!adminUrl) {
  const embedded = await startEmbeddedPostgres({
    dataDir: path.join(ROOT, ".data/bench-scan-pg"),
    persistent: false,
    settings: [
      ...(PG_STATEMENTS ? ["-c", "shared_preload_libraries=pg_stat_statements", "-c", "pg_stat_statements.track=all"] : []),
      ...PG_SETTINGS.flatMap((s) => ["-c", s]),
    ],
  });
  adminUrl = embedded.adminUrl;
  stopDatabase = () => embedded.stop();
}
if (LIVE_SECONDS > 0) await ensureBuild();
// The server's CPU is read from /proc when it runs on this machine (the embedded one always does).
const postmasterPid = await (async () => {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await admin<{ file: string }[]>`select pg_read_file('postmaster.pid') as file`;
    const pid = Number(row!.file.split("\n")[0]);
    return existsSync(`/proc/${pid}/stat`) ? pid : null;
  } catch {
    return null;
  } finally {
    await admin.end();
  }
})();

const results: string[] = [];
const misses: string[] = [];
for (const [index, size] of SIZES.entries()) {
  log(`building a ledger of ${size.toLocaleString()} transactions`);
  let started = Date.now();
  const cluster = await startLocalCluster({ seed: "bench-scan", history: size, live: false, archiveHistory: true });
  const total = cluster.ledger.transactions.length;
  const expectedFills = cluster.expectedState().fills.length;
  const buildSeconds = (Date.now() - started) / 1000;
  const heapMb = process.memoryUsage().heapUsed / 1e6;
  log(
    `ledger built in ${buildSeconds.toFixed(1)} s: ${total.toLocaleString()} transactions, ${expectedFills.toLocaleString()} fills; ` +
      `cluster heap ${heapMb.toFixed(0)} MB, archive ${(cluster.ledger.archive.byteSize / 1e6).toFixed(0)} MB off the heap`,
  );

  const runs = Array.from({ length: WORKER_ROUNDS }, () => WORKER_VARIANTS).flat();
  for (const [run, variant] of runs.entries()) {
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe("drop database if exists offer_book_bench_scan with (force)");
    await admin.end();
    const databaseUrl = await createDatabaseIfMissing(adminUrl, "offer_book_bench_scan");
    await migrateDatabase(databaseUrl);
    // The fresh database's extra SQL: the variant's schema file, then the statements' counters.
    const { BENCH_SQL: variantSql, ...workerEnv } = variant.env;
    const setup = [
      ...(variantSql ? [readFileSync(path.resolve(variantSql), "utf8")] : []),
      ...(PG_STATEMENTS ? ["create extension if not exists pg_stat_statements; select pg_stat_statements_reset()"] : []),
    ];
    if (setup.length > 0) {
      const db = postgres(databaseUrl, { max: 1, onnotice: () => {} });
      for (const statements of setup) await db.unsafe(statements);
      await db.end();
    }
    const live = index === 0 && run === 0 && LIVE_SECONDS > 0;
    const webPort = await freePort();
    const web = live ? await startNext(webPort, { DATABASE_URL: databaseUrl, RATE_LIMIT_RPM: "0" }) : null;
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    const scanned = async () => (await sql`select count(*)::int as n from scanned_transactions`)[0]!.n as number;
    // Done when the checkpoint (written with each batch) reaches the newest
    // transaction: a cheap poll, where counting the table every 200 ms would
    // cost PostgreSQL more as it grows. A count confirms it at the end.
    const newest = cluster.ledger.transactions.at(-1)!.signature;
    const checkpointAtNewest = async () => (await sql`select 1 from scanner_checkpoints where last_signature = ${newest}`).length > 0;

    const profiler = PROFILE_DIR ? new Session() : null;
    if (profiler) {
      mkdirSync(PROFILE_DIR!, { recursive: true });
      profiler.connect();
      await profiler.post("Profiler.enable");
      await profiler.post("Profiler.start");
    }
    const benchCpuBefore = process.cpuUsage();
    const postgresKindsBefore = postmasterPid ? postgresCpuByKind(postmasterPid) : null;
    const postgresCpuBefore = postgresKindsBefore ? Object.values(postgresKindsBefore).reduce((a, b) => a + b, 0) : 0;
    started = Date.now();
    const worker = await spawnServer(
      [
        // The launchers' flags first: a variant's own come after and win.
        ...WORKER_NODE_FLAGS,
        ...variant.flags,
        ...(PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=worker-${size}${variant.name ? `-${variant.name}-${run}` : ""}.cpuprofile`] : []),
        "scripts/worker.mjs",
      ],
      { DATABASE_URL: databaseUrl, ...cluster.env, LOG_LEVEL: "warn", SCAN_INTERVAL_MS: process.env.SCAN_INTERVAL_MS ?? "1000", ...workerEnv },
      null,
    );
    let peak = 0;
    const rssTimer = setInterval(() => (peak = Math.max(peak, peakRssMb(worker.pid!))), 250);
    for (let polls = 1; ; polls++) {
      if ((await checkpointAtNewest()) || (polls % 25 === 0 && (await scanned()) >= total)) break;
      await sleep(200);
    }
    const backfillSeconds = (Date.now() - started) / 1000;
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const postgresKinds = postmasterPid ? postgresCpuByKind(postmasterPid) : null;
    const postgresCpu = postgresKinds ? Object.values(postgresKinds).reduce((a, b) => a + b, 0) - postgresCpuBefore : NaN;
    if (profiler) {
      const { profile } = await profiler.post("Profiler.stop");
      writeFileSync(path.join(PROFILE_DIR!, `cluster-${size}.cpuprofile`), JSON.stringify(profile));
      profiler.disconnect();
    }
    const scannedCount = await scanned();
    if (PG_STATEMENTS) {
      const top = await sql<{ ms: number; calls: number; query: string }[]>`
        select round(total_exec_time)::int as ms, calls::int, left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 110) as query
        from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
        order by total_exec_time desc limit 12`;
      for (const t of top) console.log(`  pg ${String(t.ms).padStart(7)} ms ${String(t.calls).padStart(7)} calls  ${t.query}`);
      // A server with a JIT provider (the embedded one has none) compiles statements whose plan costs pass jit_above_cost.
      const jit = await sql<{ ms: number; calls: number; query: string }[]>`
        select round(jit_generation_time + jit_inlining_time + jit_optimization_time + jit_emission_time)::int as ms, jit_functions::int as calls,
          left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 110) as query
        from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database()) and jit_functions > 0
        order by 1 desc limit 12`;
      for (const t of jit) console.log(`  pg JIT ${String(t.ms).padStart(7)} ms ${String(t.calls).padStart(7)} functions  ${t.query}`);
    }
    if (postmasterPid) await printAutovacuum(sql);
    if (scannedCount !== total) misses.push(`${total}: ${scannedCount} transactions scanned at the end`);
    const [fillRow] = await sql`select count(*)::int as n from fills`;
    peak = Math.max(peak, peakRssMb(worker.pid!));
    // CPU per transaction holds still on a shared machine where the wall-clock
    // rate does not; with three processes on two cores their sum bounds the rate.
    const perTx = (seconds: number) => ((seconds * 1000) / total).toFixed(3);
    const workerCpu = cpuSeconds(worker.pid!);
    // The bench process serves the cluster's JSON-RPC during the backfill (and polls the checkpoint).
    const clusterCpu = (benchCpu.user + benchCpu.system) / 1e6;
    const txPerSecond = total / backfillSeconds;
    const line =
      (variant.name ? `[${variant.name}, load ${loadavg()[0]!.toFixed(1)}] ` : "") +
      `${total.toLocaleString()} transactions (ledger built in ${buildSeconds.toFixed(0)} s): backfill ${backfillSeconds.toFixed(1)} s = ${txPerSecond.toFixed(0)} transactions/s, ${(fillRow!.n / backfillSeconds).toFixed(0)} fills/s; worker peak RSS ${peak.toFixed(0)} MB; ` +
      `CPU ms/transaction: worker ${perTx(workerCpu)}, cluster ${perTx(clusterCpu)}, PostgreSQL ${postmasterPid ? perTx(postgresCpu) : "n/a"}` +
      (postmasterPid ? `; worker + PostgreSQL ${perTx(workerCpu + postgresCpu)} (target <= ${CPU_TARGET_MS})` : "") +
      (postgresKinds && postgresKindsBefore
        ? `\n  PostgreSQL by process: ${(Object.keys(postgresKinds) as (keyof typeof postgresKinds)[]).map((k) => `${k} ${perTx(postgresKinds[k] - postgresKindsBefore[k])}`).join(", ")}`
        : "");
    console.log(line);
    results.push(line);
    if (txPerSecond < RATE_TARGET) misses.push(`${total}: backfill ${txPerSecond.toFixed(0)} tx/s (target >= ${RATE_TARGET})`);
    const writeCpuMs = ((workerCpu + postgresCpu) * 1000) / total;
    if (postmasterPid && writeCpuMs > CPU_TARGET_MS) misses.push(`${total}: worker + PostgreSQL ${writeCpuMs.toFixed(3)} ms/transaction (target <= ${CPU_TARGET_MS})`);
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
    const workerExited = new Promise((resolve) => worker.once("exit", resolve));
    worker.kill("SIGTERM");
    web?.kill("SIGTERM");
    await Promise.race([workerExited, sleep(30_000)]); // its CPU profile, if asked for, is written as it exits
    await sql.end();
  }
  await cluster.stop();
}

console.log(`\n${results.join("\n")}`);
console.log(misses.length ? `targets missed: ${misses.join("; ")}` : "all targets met");
await stopDatabase();
process.exit(0);
