import http from "node:http";
import path from "node:path";
import { readFileSync } from "node:fs";
import { createParser } from "eventsource-parser";
import postgres from "postgres";
import type { ChildProcess } from "node:child_process";
import { freePort, startEmbeddedPostgres } from "../platform/postgres/embedded";
import { migrateDatabase } from "../lib/db/migrate";
import { sleep } from "../lib/resilience";
import { createDatabaseIfMissing } from "../platform/postgres/resolve";
import { startLocalCluster, type LocalCluster } from "../local/cluster";
import { startYellowstone } from "../local/cluster/yellowstone/server";
import { launchChromium, openPage } from "../tests/e2e/browser";
import { cpuSeconds, ensureBuild, log, ROOT, spawnServer, startNext } from "./harness";
import { WORKER_ARGS } from "../scripts/worker-command";

// npm run bench:live — how fast an indexed change reaches its readers.
//  1. commit → client: from the worker's commit (its NOTIFY, heard by the
//     bench on its own LISTEN connection) to an SSE client holding the event.
//  2. landing → browser: from a take landing on the local cluster to the fills
//     page in Chromium showing it, through the Yellowstone stream (GEYSER_URL,
//     the local cluster's gRPC server), with the worker's WebSocket wake-up and
//     with the interval poll alone; and per path, the getTransaction calls
//     the cluster answered per live transaction.
//  3. many streams on one web process: its RSS and CPU with BENCH_STREAMS
//     (1000) open, and the commit → client delivery p99 across all of them.
// BENCH_SECONDS (20) per phase, BENCH_STREAMS (1000), BENCH_DATABASE_URL (else
// an embedded PostgreSQL).

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const TAKES_PER_SECOND = 4;
const TARGETS = { commitToClientP99: 100, landingToBrowserP99: 1000, geyserLandingToBrowserP99: 300, manyStreamsP99: 250, manyStreamsRssMb: 150 };

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? NaN };
};
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

/** When each commit's NOTIFY reached the bench: (newest id of the commit, ms). */
class CommitClock {
  private readonly commits: { id: bigint; at: number }[] = [];
  record(id: bigint, at: number) {
    this.commits.push({ id, at });
  }
  /** The time of the first commit that holds event `id`. */
  committedAt(id: bigint): number | undefined {
    return this.commits.find((c) => c.id >= id)?.at;
  }
}

/** An SSE reader on a raw socket; `onEvent` gets each event's id and arrival time. */
function openStream(url: string, onEvent: (id: bigint, at: number) => void): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, headers: { accept: "text/event-stream" } }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`stream answered ${response.statusCode}`));
      const parser = createParser({ onEvent: (e) => e.id && e.event && onEvent(BigInt(e.id), Date.now()) });
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => parser.feed(chunk));
      resolve(request);
    });
    request.on("error", reject);
  });
}

/** Takes appended at a steady pace for `seconds`; returns each landed take's signature and landing time. */
async function appendTakes(cluster: LocalCluster, seconds: number): Promise<Map<string, number>> {
  const landed = new Map<string, number>();
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    for (const tx of cluster.append("take", 1)) if (tx.result.err === null) landed.set(tx.signature, Date.now());
    await sleep(1000 / TAKES_PER_SECOND);
  }
  return landed;
}

let adminUrl = process.env.BENCH_DATABASE_URL;
let stopDatabase = async () => {};
if (!adminUrl) {
  const embedded = await startEmbeddedPostgres({ dataDir: path.join(ROOT, ".data/bench-live-pg"), persistent: false });
  adminUrl = embedded.adminUrl;
  stopDatabase = () => embedded.stop();
}
await ensureBuild();
const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
await admin.unsafe("drop database if exists offer_book_bench_live with (force)");
await admin.end();
const databaseUrl = await createDatabaseIfMissing(adminUrl, "offer_book_bench_live");
await migrateDatabase(databaseUrl);

const cluster = await startLocalCluster({ seed: "bench-live", history: 2000, live: false });
const yellowstone = await startYellowstone(cluster.ledger);
const getTransactionCalls = () => cluster.stats().byMethod.getTransaction ?? 0;
const webPort = await freePort();
const base = `http://127.0.0.1:${webPort}`;
const web = await startNext(webPort, { DATABASE_URL: databaseUrl, RATE_LIMIT_RPM: "0", STREAM_MAX_PER_CLIENT: String(STREAMS + 10) });

const startWorker = (extra: Record<string, string> = {}) =>
  spawnServer(WORKER_ARGS, { DATABASE_URL: databaseUrl, ...cluster.env, LOG_LEVEL: "warn", ...extra }, null);
const stopProcess = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });

const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
const clock = new CommitClock();
await sql.listen("feed_events", (payload) => clock.record(BigInt(payload), Date.now()));
const scanned = async () => (await sql`select count(*)::int as n from scanned_transactions`)[0]!.n as number;

let worker = await startWorker();
while ((await scanned()) < cluster.ledger.transactions.length) await sleep(200);
log(`backfilled ${cluster.ledger.transactions.length.toLocaleString()} transactions`);

const lines: string[] = [];
const misses: string[] = [];
const report = (line: string) => {
  console.log(line);
  lines.push(line);
};

// 1. commit → client, 20 readers.
{
  const latencies: number[] = [];
  const readers = await Promise.all(
    Array.from({ length: 20 }, () =>
      openStream(`${base}/v1/stream?types=fill`, (id, at) => {
        const committed = clock.committedAt(id);
        if (committed !== undefined) latencies.push(at - committed);
      }),
    ),
  );
  await appendTakes(cluster, SECONDS);
  await sleep(3000);
  readers.forEach((r) => r.destroy());
  const s = summary(latencies);
  report(`commit → client (20 streams, ${s.n} deliveries): p50 ${s.p50} ms, p99 ${s.p99} ms, max ${s.max} ms`);
  if (!(s.p99 < TARGETS.commitToClientP99)) misses.push(`commit → client p99 ${s.p99} ms (target < ${TARGETS.commitToClientP99})`);
}

// 2. landing → browser, with the wake-up and with the poll alone.
const browser = await launchChromium();
async function landingToBrowser(label: string): Promise<ReturnType<typeof summary>> {
  const page = await browser.newPage();
  const callsBefore = getTransactionCalls();
  const ledgerBefore = cluster.ledger.transactions.length;
  await openPage(page, `${base}/fills`);
  // The page records when each signature first shows (the browser and the bench share the machine's clock).
  // Fills arriving while the table is on screen wait behind the "N new fills" pill: the page clicks it as
  // soon as it shows, as a reader at once would, so a fill is shown one render after it arrived.
  await page.evaluate(() => {
    const seen: Record<string, number> = {};
    (window as unknown as { __seen: Record<string, number> }).__seen = seen;
    new MutationObserver(() => {
      document.querySelector<HTMLButtonElement>('[data-testid="new-rows-pill"]')?.click();
      // A fill's signature is the title of its transaction cell (components/ui/address.tsx).
      for (const element of document.querySelectorAll<HTMLElement>("td [title]")) {
        if (!(element.title in seen)) seen[element.title] = Date.now();
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  const landed = await appendTakes(cluster, SECONDS);
  await sleep(5000);
  const seen = await page.evaluate(() => (window as unknown as { __seen: Record<string, number> }).__seen);
  await page.close();
  const lags = [...landed].flatMap(([signature, at]) => (seen[signature] ? [seen[signature] - at] : []));
  const s = summary(lags);
  const perTransaction = (getTransactionCalls() - callsBefore) / Math.max(1, cluster.ledger.transactions.length - ledgerBefore);
  report(
    `landing → browser, ${label} (${s.n} of ${landed.size} takes shown): p50 ${s.p50} ms, p99 ${s.p99} ms, max ${s.max} ms; ` +
      `getTransaction calls per live transaction ${perTransaction.toFixed(2)}`,
  );
  if (s.n < landed.size) misses.push(`${label}: ${landed.size - s.n} takes never shown`);
  return s;
}
await stopProcess(worker);
const geyserHealthPort = await freePort();
worker = await startWorker({ GEYSER_URL: yellowstone.url, WORKER_HEALTH_PORT: String(geyserHealthPort) });
// Measured once the stream is applying: what the start-up backfill reads over RPC is a gap fill, not the live path.
while (!/^offer_book_worker_geyser_connected 1$/m.test(await fetch(`http://127.0.0.1:${geyserHealthPort}/metrics`).then((r) => r.text(), () => ""))) await sleep(200);
const streamed = await landingToBrowser("Yellowstone stream");
if (!(streamed.p99 < TARGETS.geyserLandingToBrowserP99)) misses.push(`landing → browser through the stream p99 ${streamed.p99} ms (target < ${TARGETS.geyserLandingToBrowserP99})`);
await stopProcess(worker);
worker = await startWorker();
const woken = await landingToBrowser("WebSocket wake-up");
if (!(woken.p99 < TARGETS.landingToBrowserP99)) misses.push(`landing → browser p99 ${woken.p99} ms (target < ${TARGETS.landingToBrowserP99})`);
await stopProcess(worker);
worker = await startWorker({ SOLANA_WS_URL: `ws://127.0.0.1:${await freePort()}` });
await landingToBrowser("poll alone (no WebSocket)");
await browser.close();
await stopProcess(worker);
worker = await startWorker();

// 3. many streams on one web process.
{
  await sleep(2000);
  const rssBefore = rssMb(web.pid!);
  const latencies: number[] = [];
  const readers: http.ClientRequest[] = [];
  for (let i = 0; i < STREAMS; i += 50) {
    readers.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(50, STREAMS - i) }, () =>
          openStream(`${base}/v1/stream?types=fill`, (id, at) => {
            const committed = clock.committedAt(id);
            if (committed !== undefined) latencies.push(at - committed);
          }),
        ),
      )),
    );
  }
  await sleep(2000);
  const rssOpen = rssMb(web.pid!);
  const cpuStart = cpuSeconds(web.pid);
  const started = Date.now();
  await appendTakes(cluster, SECONDS);
  await sleep(3000);
  const cpuShare = (cpuSeconds(web.pid) - cpuStart) / ((Date.now() - started) / 1000);
  const rssPeak = Math.max(rssOpen, rssMb(web.pid!));
  readers.forEach((r) => r.destroy());
  const s = summary(latencies);
  report(
    `${STREAMS} streams on one web process: RSS ${rssBefore.toFixed(0)} → ${rssPeak.toFixed(0)} MB (+${(rssPeak - rssBefore).toFixed(0)}), ` +
      `CPU ${(cpuShare * 100).toFixed(0)}% of a core at ${TAKES_PER_SECOND} takes/s; delivery (${s.n}): p50 ${s.p50} ms, p99 ${s.p99} ms, max ${s.max} ms`,
  );
  if (!(s.p99 < TARGETS.manyStreamsP99)) misses.push(`${STREAMS} streams: delivery p99 ${s.p99} ms (target < ${TARGETS.manyStreamsP99})`);
  if (!(rssPeak - rssBefore < TARGETS.manyStreamsRssMb)) misses.push(`${STREAMS} streams: +${(rssPeak - rssBefore).toFixed(0)} MB RSS (target < ${TARGETS.manyStreamsRssMb})`);
}

console.log(`\n${lines.join("\n")}`);
console.log(misses.length ? `targets missed: ${misses.join("; ")}` : "all targets met");
await stopProcess(worker);
web.kill("SIGTERM");
await sql.end();
await yellowstone.stop();
await cluster.stop();
await stopDatabase();
process.exit(0);
