import path from "node:path";
import { readFileSync, writeFileSync } from "node:fs";
import postgres from "postgres";
import { migrateDatabase } from "../lib/db/migrate";
import { freePort, startEmbeddedPostgres } from "../platform/postgres/embedded";
import { createDatabaseIfMissing } from "../platform/postgres/resolve";
import { ensureBuild, log, ROOT, startNext } from "./harness";

// npm run bench:csv — a CSV export of a year of fills (1 M rows by default)
// through the web launcher, as `npm run web` serves it: the rows, the time,
// the throughput, and the web process's resident memory before, at its peak
// while streaming (VmHWM after a reset of the peak) and after; beside it, the
// same process answering JSON pages, for scale. Memory that stays flat while
// the rows grow is the figure: the export holds one cursor batch at a time.
// BENCH_DATABASE_URL: a PostgreSQL server (else an embedded one under .data/bench-pg).
// BENCH_CSV_ROWS: fills to export (default 1,000,000), spread over a year.
// BENCH_CSV_SLOW: a client that reads slowly (KB/s) for a second pass; 0 (default) skips it.

const ROWS = Number(process.env.BENCH_CSV_ROWS ?? 1_000_000);
const YEAR = 365 * 86_400;

async function database(): Promise<{ url: string; stop: () => Promise<void> }> {
  let adminUrl = process.env.BENCH_DATABASE_URL;
  let stop = async () => {};
  if (!adminUrl) {
    const embedded = await startEmbeddedPostgres({ dataDir: path.join(ROOT, ".data/bench-pg"), persistent: true, settings: ["-c", "jit=off"] });
    adminUrl = embedded.adminUrl;
    stop = () => embedded.stop();
  }
  const url = await createDatabaseIfMissing(adminUrl, "offer_book_bench_csv");
  await migrateDatabase(url);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const [row] = await sql`select count(*)::int as n from fills`;
  const n = Number(row?.n);
  if (n !== ROWS) {
    log(`making ${ROWS.toLocaleString()} fills over a year`);
    await sql`truncate fills, fill_slot_bounds, maker_activity, offer_first_fills`;
    await sql.unsafe("set session_replication_role = replica"); // a bulk load: no per-statement aggregates
    await sql.unsafe(`
      insert into fills (signature, ix_index, offer_pda, maker, taker, token_mint, payment_mint, side,
        fill_amount, payment_amount, fee_amount, block_time, slot)
      select translate(encode(sha512(int8send(i)), 'base64'), '+/=0OIl', 'abcdefg'), 0,
        'CsvBenchOffer1111111111111111111111111111111', 'CsvBenchMaker1111111111111111111111111111111',
        'CsvBenchTaker1111111111111111111111111111111', 'CsvBenchToken1111111111111111111111111111111',
        'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'sell',
        18446744073709551615 - i, 9007199254740993 + i, i % 1000,
        now() - interval '365 days' + (i * ${YEAR} / ${ROWS}) * interval '1 second', 300000000 + i * 5
      from generate_series(1::bigint, ${ROWS}) i`);
    await sql.unsafe("set session_replication_role = origin");
    await sql`select rebuild_fill_slot_bounds()`;
    await sql`vacuum analyze fills`;
  }
  await sql.end();
  return { url, stop };
}

/** The process's resident set and its peak since the last reset, in MB (Linux /proc). */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/** Resets VmHWM to the current RSS (Linux: write 5 to clear_refs). */
function resetPeak(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    /* not permitted: the peak then counts from the process's start */
  }
}

/** Exports the last `seconds` of fills (a year and a day: all of them), read at `bytesPerSecond` (0: as fast as it comes). */
async function exportOnce(url: string, pid: number, label: string, { seconds: span = YEAR + 86_400, bytesPerSecond = 0 } = {}): Promise<void> {
  const to = Math.floor(Date.now() / 1000);
  const target = `${url}/v1/fills?format=csv&fromTime=${to - span}&toTime=${to}`;
  const before = memory(pid);
  resetPeak(pid);
  let sampledPeak = before.rss;
  const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, memory(pid).rss)), 50);
  const started = performance.now();
  let bytes = 0;
  let lines = 0;
  try {
    const response = await fetch(target);
    if (response.status !== 200) throw new Error(`${target} answered ${response.status}: ${await response.text()}`);
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      // Rows end in CRLF; a quoted value may hold a bare LF (the bench's base64 signatures do).
      for (const byte of value) if (byte === 13) lines += 1;
      if (bytesPerSecond > 0) await new Promise((r) => setTimeout(r, (value.length / bytesPerSecond) * 1000));
    }
  } catch (error) {
    // Said here, with how far it got: the sampler would otherwise fail first, on the web process's /proc entry.
    log(`${label}: the export failed after ${((performance.now() - started) / 1000).toFixed(1)} s, ${(lines - 1).toLocaleString()} rows, ${bytes.toLocaleString()} bytes`);
    throw error;
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  const after = memory(pid);
  const peak = Math.max(sampledPeak, after.peak);
  console.log(
    `${label.padEnd(22)} rows ${(lines - 1).toLocaleString().padStart(10)}  ${(bytes / 1e6).toFixed(0).padStart(5)} MB  ${seconds.toFixed(1).padStart(6)} s  ` +
      `${((lines - 1) / seconds).toFixed(0).padStart(7)} rows/s  | web RSS MB: before ${before.rss.toFixed(0)}, peak ${peak.toFixed(0)} ` +
      `(+${(peak - before.rss).toFixed(0)}), after ${after.rss.toFixed(0)}`,
  );
}

async function main() {
  const db = await database();
  await ensureBuild();
  const port = await freePort();
  const child = await startNext(port, { DATABASE_URL: db.url, LOG_LEVEL: "warn", RATE_LIMIT_RPM: "1000000000" });
  const url = `http://127.0.0.1:${port}`;
  try {
    // Warm the route, then measure.
    await (await fetch(`${url}/v1/fills?limit=200`)).text();
    log(`exporting ${ROWS.toLocaleString()} fills of a year as CSV`);
    // A tenth of the rows first, then all of them: a peak that does not grow with the rows is the flat memory.
    await exportOnce(url, child.pid!, "CSV, 36.5 days", { seconds: YEAR / 10 });
    await exportOnce(url, child.pid!, "CSV, a year");
    const slow = Number(process.env.BENCH_CSV_SLOW ?? 0);
    if (slow > 0) await exportOnce(url, child.pid!, `CSV, ${slow} KB/s client`, { bytesPerSecond: slow * 1000 });
    const started = performance.now();
    for (let i = 0; i < 50; i++) await (await fetch(`${url}/v1/fills?limit=200&offset=${i * 200}`)).text();
    console.log(`JSON pages (50 x 200)  ${((performance.now() - started) / 50).toFixed(1)} ms per page | web RSS MB now ${memory(child.pid!).rss.toFixed(0)}`);
  } finally {
    child.kill("SIGTERM");
    await db.stop();
  }
  process.exit(0);
}

await main();
