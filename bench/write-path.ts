import { readFileSync } from "node:fs";
import path from "node:path";
import pino from "pino";
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { connect, disconnect } from "../lib/db/client";
import { MIGRATIONS_DIR } from "../lib/db/migrate";
import { startLocalCluster } from "../local/cluster";
import { freePort, startEmbeddedPostgres } from "../platform/postgres/embedded";
import { createDatabaseIfMissing } from "../platform/postgres/resolve";
import { commitBatch, fetchBatch, type FetchedBatch } from "../worker/batch";
import { createProgramRpc } from "../worker/rpc";
import { cpuSeconds, log, ROOT } from "./harness";

// npm run bench:write-path — the write path's CPU alone, on a machine too
// loaded for bench:scan's figures to compare runs: a ledger of
// WRITE_LAB_TRANSACTIONS (20000) is fetched and decoded once, then its
// batches of 500 (SCAN_BATCH_SIZE was 500 until session 20; `@size` joins them) are committed through
// commitBatch into a fresh database per run, for each variant in turn
// (WRITE_LAB_ROUNDS rounds, 4, interleaved, so load drifts touch every
// variant alike). Per run: the committing backend's CPU from /proc, the WAL
// the commits wrote (work in rows and index entries, whatever the load) and this
// process's CPU over the commits (building rows and parameters), per
// transaction; per variant the medians; and a digest of the tables the write
// path keeps, which must be equal across variants that claim to be exact.
// A variant is `name=dir` (a migrations folder; `current` is drizzle/) with an
// optional `+file.sql` run after it and an optional `@size`, the transactions
// a batch (a multiple of 500; consecutive batches joined):
// WRITE_LAB_VARIANTS="before=/tmp/drizzle-0009,current=current,big=current@2000".
// WRITE_LAB_STATEMENTS=1 prints, for each variant's last run, the statements
// that took the backend's time (pg_stat_statements, nested ones included) and
// the JIT compilation they paid. WRITE_LAB_ADMIN_URL runs the lab on another
// server on this machine (the embedded one has no JIT provider), e.g. a
// PostgreSQL 15 started with pg_stat_statements preloaded.

const STATEMENTS = process.env.WRITE_LAB_STATEMENTS === "1";
const TRANSACTIONS = Number(process.env.WRITE_LAB_TRANSACTIONS ?? 20_000);
const ROUNDS = Number(process.env.WRITE_LAB_ROUNDS ?? 4);
const BATCH = 500;
const VARIANTS = (process.env.WRITE_LAB_VARIANTS ?? "current=current").split(",").map((spec) => {
  const [name, full] = spec.split("=") as [string, string];
  const [rest, per] = full.split("@");
  const [dir, extra] = rest!.split("+");
  const batch = per ? Number(per) : BATCH;
  if (batch % BATCH !== 0) throw new Error(`a variant's batch (${spec}) must be a multiple of ${BATCH}`);
  return { name, batch, dir: dir === "current" ? MIGRATIONS_DIR : path.resolve(dir!), extra: extra ? readFileSync(path.resolve(extra), "utf8") : null };
});

/** The tables the write path keeps, each as an md5 of its rows in key order (feed payloads of offers hold the clock: kinds and keys only). */
const DIGESTS: Record<string, string> = {
  offers: "select pda, maker, state, remaining_size, ended_signature, closed_signature, closed_at, last_slot, account_slot from offers order by pda",
  fills: "select * from fills order by signature, ix_index",
  feed: "select id, kind, signature, slot, offer_pdas, makers, token_mints, payment_mints, case when kind = 'offer' then '' else payload end from feed_events order by id",
  candles: "select * from candles order by token_mint, payment_mint, resolution, bucket",
  scanned: "select signature, slot, failed, offer_pdas, finalized from scanned_transactions order by signature",
  bounds: "select * from fill_slot_bounds order by minute",
  stats: "select (select row(p.*)::text from protocol_stats p), (select string_agg(row(m.*)::text, ',' order by maker) from maker_stats m), (select string_agg(row(v.*)::text, ',' order by maker, side, token_mint) from maker_volume v), (select string_agg(row(s.*)::text, ',' order by payment_mint) from protocol_mint_stats s)",
  book: "select * from open_book order by token_mint, payment_mint, side",
  makers: "select (select string_agg(row(a.*)::text, ',' order by resolution, bucket, maker, payment_mint) from maker_activity a), (select string_agg(row(f.*)::text, ',' order by offer_pda) from offer_first_fills f)",
};

const backendCpuMs = (pid: number) => cpuSeconds(pid) * 1000;
/** The server's WAL position: the bytes a run writes are its work in rows and index entries, whatever the machine's load. */
const walLsn = async (sql: postgres.Sql) => (await sql<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`)[0]!.lsn;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const embedded = process.env.WRITE_LAB_ADMIN_URL ? null : await startEmbeddedPostgres({
  dataDir: path.join(ROOT, ".data/bench-write-path-pg"),
  persistent: false,
  settings: STATEMENTS ? ["-c", "shared_preload_libraries=pg_stat_statements", "-c", "pg_stat_statements.track=all", "-c", "pg_stat_statements.track_planning=on"] : [],
});
const adminUrl = process.env.WRITE_LAB_ADMIN_URL ?? embedded!.adminUrl;
const quiet = pino({ level: "silent" });
try {
  log(`building a ledger of ${TRANSACTIONS.toLocaleString()} transactions`);
  const cluster = await startLocalCluster({
    seed: "bench-scan",
    history: TRANSACTIONS,
    live: false,
    archiveHistory: true,
    port: await freePort(),
    // Fixed, so two runs of the lab (code before and after a change) commit the same transactions and their digests compare.
    genesisUnixMs: Date.parse("2026-11-01T00:00:00Z"),
  });
  const rpc = createProgramRpc({
    url: cluster.env.SOLANA_RPC_URL,
    programId: cluster.programId,
    commitment: "confirmed",
    rps: 0,
    timeoutMs: 30_000,
    concurrency: 4,
    batch: "auto",
    batchSize: 100,
    signal: new AbortController().signal,
    log: quiet,
  });
  const refs = cluster.ledger.transactions.map((t) => ({ signature: t.signature, slot: t.slot }));

  const fresh = async (name: string, dir: string, extra: string | null) => {
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
    const url = await createDatabaseIfMissing(adminUrl, name);
    const db = connect(url, { max: 1 });
    await migrate(db, { migrationsFolder: dir });
    if (extra) await db.$client.unsafe(extra);
    if (STATEMENTS) await db.$client.unsafe("create extension if not exists pg_stat_statements; select pg_stat_statements_reset()");
    await disconnect(db);
    return url;
  };

  // Fetched once, from an empty database: every run commits the same batches.
  const fetchUrl = await fresh("write_lab_fetch", MIGRATIONS_DIR, null);
  const fetchSql = postgres(fetchUrl, { max: 1, onnotice: () => {} });
  const batches: FetchedBatch[] = [];
  for (let i = 0; i < refs.length; i += BATCH) batches.push(await fetchBatch(fetchSql, rpc, cluster.programId, refs.slice(i, i + BATCH)));
  await fetchSql.end();
  await cluster.stop();
  log(`${batches.length} batches fetched`);

  // A variant's batches of `size` (a multiple of 500): consecutive fetched batches joined, as the worker would commit them.
  const joined = (size: number): FetchedBatch[] => {
    const k = size / BATCH;
    const out: FetchedBatch[] = [];
    for (let i = 0; i < batches.length; i += k) {
      const group = batches.slice(i, i + k);
      out.push({ batch: group.flatMap((b) => b.batch), decoded: group.flatMap((b) => b.decoded) });
    }
    return out;
  };

  const runs = new Map<string, { backend: number[]; node: number[]; wal: number[]; digest: string }>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const v of VARIANTS) {
      // In lower case: fresh() drops the name unquoted (folded to lower case) and creates it as given, so a
      // variant named in capitals kept its first run's database and replayed into it (a lab pitfall, session 18).
      const url = await fresh(`write_lab_${v.name.replace(/\W/g, "_").toLowerCase()}`, v.dir, v.extra);
      const sql = postgres(url, { max: 1, onnotice: () => {}, max_lifetime: 0, idle_timeout: 0 });
      drizzle(sql); // the worker's value handling (see worker/leader-lock.ts)
      const [session] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
      const pid = session!.pid;
      const write = <T>(fn: (tx: postgres.TransactionSql) => Promise<T>) => sql.begin(fn) as Promise<T>;
      const walBefore = await walLsn(sql);
      const backendBefore = backendCpuMs(pid);
      const nodeBefore = process.cpuUsage();
      for (const fetched of joined(v.batch)) await commitBatch(sql, write, rpc, cluster.programId, fetched, quiet);
      const node = process.cpuUsage(nodeBefore);
      const backend = backendCpuMs(pid) - backendBefore;
      const [walRow] = await sql<{ bytes: string }[]>`select pg_wal_lsn_diff(pg_current_wal_lsn(), ${walBefore}::pg_lsn)::text as bytes`;
      const wal = Number(walRow!.bytes);
      const digests: string[] = [];
      for (const [table, query] of Object.entries(DIGESTS)) {
        const [row] = await sql.unsafe(`select md5(coalesce(string_agg(t::text, '|'), '')) as d from (${query}) t`);
        digests.push(`${table}:${(row!.d as string).slice(0, 8)}`);
      }
      if (STATEMENTS && round === ROUNDS - 1) {
        // Planning is counted where the server tracks it (the embedded one here: pg_stat_statements.track_planning).
        const top = await sql<{ ms: number; plan_ms: number; plans: number; calls: number; query: string }[]>`
          select round(total_exec_time)::int as ms, round(total_plan_time)::int as plan_ms, plans::int, calls::int,
            left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 110) as query
          from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
          order by total_exec_time + total_plan_time desc limit 25`;
        for (const t of top) {
          console.log(`  ${v.name} ${String(t.ms).padStart(6)} ms ${String(t.calls).padStart(6)} calls, planned ${String(t.plans).padStart(4)} times in ${String(t.plan_ms).padStart(4)} ms  ${t.query}`);
        }
        const [jit] = await sql<{ statements: number; functions: number; ms: number }[]>`
          select count(*) filter (where jit_functions > 0)::int as statements, coalesce(sum(jit_functions), 0)::int as functions,
            round(coalesce(sum(jit_generation_time + jit_inlining_time + jit_optimization_time + jit_emission_time), 0))::int as ms
          from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())`;
        console.log(`  ${v.name} JIT: ${jit!.statements} statements compiled ${jit!.functions} functions in ${jit!.ms} ms`);
      }
      await sql.end();
      const entry = runs.get(v.name) ?? { backend: [], node: [], wal: [], digest: digests.join(" ") };
      entry.wal.push(wal / TRANSACTIONS);
      entry.backend.push(backend / TRANSACTIONS);
      entry.node.push((node.user + node.system) / 1000 / TRANSACTIONS);
      if (entry.digest !== digests.join(" ")) entry.digest += ` (round ${round}: ${digests.join(" ")})`;
      runs.set(v.name, entry);
      log(`round ${round + 1} ${v.name}: backend ${(backend / TRANSACTIONS).toFixed(3)} ms/tx`);
    }
  }
  console.log(`\nCPU ms/transaction over ${TRANSACTIONS.toLocaleString()} transactions, ${ROUNDS} rounds interleaved`);
  for (const [name, r] of runs) {
    console.log(
      `${name.padEnd(24)} backend ${r.backend.map((x) => x.toFixed(3)).join(" ")}  median ${median(r.backend).toFixed(3)}; ` +
        `commit JS median ${median(r.node).toFixed(3)}; WAL bytes/transaction median ${median(r.wal).toFixed(0)}`,
    );
    console.log(`${"".padEnd(24)} ${r.digest}`);
  }
} finally {
  await embedded?.stop();
}
