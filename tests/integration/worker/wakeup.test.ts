import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../platform/postgres/embedded";
import { startLocalCluster, type LocalCluster } from "../../../local/cluster/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { scannedCount, startWorker, waitFor, type WorkerProcess } from "../../helpers/worker";

// The worker's wake-up: a logsSubscribe on the RPC's WebSocket makes it scan
// as soon as a program transaction lands, long before a 30 s poll would; the
// poll still indexes everything while the WebSocket is down or missing, and
// the socket comes back by itself.

let cluster: LocalCluster;
const databases: TestDatabase[] = [];
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  cluster = await startLocalCluster({ seed: "worker-wakeup", history: 300, live: false });
}, 60_000);

afterAll(async () => {
  for (const w of workers) w.kill("SIGKILL");
  for (const d of databases) await d.drop();
  await cluster?.stop();
});

async function startIndexing(env: Record<string, string>): Promise<{ worker: WorkerProcess; database: TestDatabase; metricsPort: number }> {
  const database = await createTestDatabase();
  databases.push(database);
  const metricsPort = await freePort();
  const worker = startWorker({ DATABASE_URL: database.url, ...cluster.env, WORKER_HEALTH_PORT: String(metricsPort), ...env });
  workers.push(worker);
  const total = cluster.ledger.transactions.length;
  await waitFor(async () => (await scannedCount(database.url)) >= total, 60_000, () => worker.output().slice(-2000));
  return { worker, database, metricsPort };
}

async function metric(port: number, name: string): Promise<number | undefined> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(" ")[1]);
}

/**
 * Milliseconds from a take landing on the cluster to the worker's commit of
 * it (polled every 5 ms). It lands after a random pause, so that a sample
 * does not start in step with the poll the previous one ended with.
 */
async function landToCommit(databaseUrl: string, timeoutMs: number): Promise<number> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql`select 1`;
    await new Promise((r) => setTimeout(r, Math.random() * 1_000));
    const landed = Date.now();
    const [take] = cluster.append("take");
    const deadline = landed + timeoutMs;
    while (Date.now() < deadline) {
      const rows = await sql`select 1 from scanned_transactions where signature = ${take!.signature}`;
      if (rows.length > 0) return Date.now() - landed;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`take ${take!.signature} not indexed within ${timeoutMs} ms`);
  } finally {
    await sql.end();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe("the scanner's WebSocket wake-up", () => {
  let woken: Awaited<ReturnType<typeof startIndexing>>;

  beforeAll(async () => {
    woken = await startIndexing({ SCAN_INTERVAL_MS: "30000" });
  }, 90_000);

  it("indexes a new take well within a 30 s poll interval, and says it is connected in /metrics", async () => {
    await waitFor(async () => (await metric(woken.metricsPort, "offer_book_worker_wakeup_connected")) === 1, 10_000, () => woken.worker.output().slice(-2000));
    const samples: number[] = [];
    for (let i = 0; i < 7; i++) samples.push(await landToCommit(woken.database.url, 10_000));
    console.log(`land-to-commit with the wake-up (poll every 30 s): median ${median(samples)} ms, samples ${samples.join(", ")}`);
    expect(Math.max(...samples)).toBeLessThan(5_000);
    expect(await metric(woken.metricsPort, "offer_book_worker_wakeups_total")).toBeGreaterThanOrEqual(samples.length);
  });

  it("tells the loss and the return of the socket in one line each, reconnects by itself, and is woken again", async () => {
    cluster.setWebsocketDown(true);
    await waitFor(async () => (await metric(woken.metricsPort, "offer_book_worker_wakeup_connected")) === 0, 10_000, () => woken.worker.output().slice(-2000));
    // The line may reach the pipe a moment after the gauge changes.
    await waitFor(async () => woken.worker.output().includes("lost the RPC's WebSocket"), 5_000, () => woken.worker.output().slice(-2000));
    cluster.setWebsocketDown(false);
    await waitFor(async () => (await metric(woken.metricsPort, "offer_book_worker_wakeup_connected")) === 1, 20_000, () => woken.worker.output().slice(-2000));
    const output = woken.worker.output();
    expect(output).toContain("the RPC's WebSocket is back");
    expect(output.match(/lost the RPC's WebSocket/g)).toHaveLength(1);
    expect(await landToCommit(woken.database.url, 10_000)).toBeLessThan(5_000);
  });
});

describe("without a WebSocket", () => {
  it("says so once and indexes by the poll alone", async () => {
    const nowhere = `ws://127.0.0.1:${await freePort()}`;
    const polled = await startIndexing({ SCAN_INTERVAL_MS: "1000", SOLANA_WS_URL: nowhere });
    const samples: number[] = [];
    for (let i = 0; i < 7; i++) samples.push(await landToCommit(polled.database.url, 10_000));
    console.log(`land-to-commit by the poll alone (every 1 s): median ${median(samples)} ms, samples ${samples.join(", ")}`);
    expect(await metric(polled.metricsPort, "offer_book_worker_wakeup_connected")).toBe(0);
    expect(polled.worker.output().match(/no WebSocket wake-up at/g)).toHaveLength(1);
  });
});
