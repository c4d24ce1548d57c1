import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portOutsideEphemeralRange } from "../../helpers/reserved-port";
import { startLocalCluster, type LocalCluster } from "../../../local/cluster/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { scannedCount, startWorker, waitFor, workerMetric, type WorkerProcess } from "../../helpers/worker";

// The worker's wake-up: a logsSubscribe on the RPC's WebSocket makes it scan
// as soon as a program transaction lands, long before the poll would; the
// poll still indexes everything while the WebSocket is down or missing, and
// the socket comes back by itself. How soon a take lands in the index, with
// and without the wake-up, is `npm run bench:live`'s to print.

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
  const metricsPort = await portOutsideEphemeralRange();
  const worker = startWorker({ DATABASE_URL: database.url, ...cluster.env, WORKER_HEALTH_PORT: String(metricsPort), ...env });
  workers.push(worker);
  const total = cluster.ledger.transactions.length;
  await waitFor(async () => (await scannedCount(database.url)) >= total, 60_000, () => worker.output().slice(-2000));
  return { worker, database, metricsPort };
}

const metric = workerMetric;

/** Appends a take to the cluster and resolves once the worker has committed it (a hung wait fails by the deadline). */
async function takeIndexed(databaseUrl: string): Promise<void> {
  const [take] = cluster.append("take");
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await waitFor(async () => (await sql`select 1 from scanned_transactions where signature = ${take!.signature}`).length > 0, 60_000, () => `take ${take!.signature} not indexed`);
  } finally {
    await sql.end();
  }
}

/** With the poll this far apart, a take indexed within a test's deadline was indexed because the WebSocket woke the scanner. */
const NO_POLL_MS = "3600000";

describe("the scanner's WebSocket wake-up", () => {
  let woken: Awaited<ReturnType<typeof startIndexing>>;

  beforeAll(async () => {
    woken = await startIndexing({ SCAN_INTERVAL_MS: NO_POLL_MS });
  });

  it("indexes a new take without waiting for the poll (an hour away), and says it is connected in /metrics", async () => {
    await waitFor(async () => (await metric(woken.metricsPort, "offer_book_worker_wakeup_connected")) === 1, 60_000, () => woken.worker.output().slice(-2000));
    for (let i = 0; i < 3; i++) await takeIndexed(woken.database.url);
    expect(await metric(woken.metricsPort, "offer_book_worker_wakeups_total")).toBeGreaterThanOrEqual(3);
  });

  it("tells the loss and the return of the socket in one line each, reconnects by itself, and is woken again", async () => {
    cluster.setWebsocketDown(true);
    await waitFor(async () => (await metric(woken.metricsPort, "offer_book_worker_wakeup_connected")) === 0, 60_000, () => woken.worker.output().slice(-2000));
    // The line may reach the pipe a moment after the gauge changes.
    await waitFor(async () => woken.worker.output().includes("lost the RPC's WebSocket"), 60_000, () => woken.worker.output().slice(-2000));
    cluster.setWebsocketDown(false);
    await waitFor(async () => (await metric(woken.metricsPort, "offer_book_worker_wakeup_connected")) === 1, 60_000, () => woken.worker.output().slice(-2000));
    const output = woken.worker.output();
    expect(output).toContain("the RPC's WebSocket is back");
    expect(output.match(/lost the RPC's WebSocket/g)).toHaveLength(1);
    await takeIndexed(woken.database.url);
  });
});

describe("without a WebSocket", () => {
  it("says so once and indexes by the poll alone", async () => {
    const nowhere = `ws://127.0.0.1:${await portOutsideEphemeralRange()}`;
    const polled = await startIndexing({ SCAN_INTERVAL_MS: "200", SOLANA_WS_URL: nowhere });
    for (let i = 0; i < 3; i++) await takeIndexed(polled.database.url);
    expect(await metric(polled.metricsPort, "offer_book_worker_wakeup_connected")).toBe(0);
    expect(polled.worker.output().match(/no WebSocket wake-up at/g)).toHaveLength(1);
  });
});
