import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portOutsideEphemeralRange } from "../../helpers/reserved-port";
import { startLocalCluster, type LocalCluster } from "../../../local/cluster/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { scannedCount, startWorker, waitFor, workerMetric, type WorkerProcess } from "../../helpers/worker";

// The worker's operator endpoints: /metrics is Prometheus text whose counters
// match what was indexed, /health stays cheap liveness, /health/ready says
// whether it leads and has caught up.

let cluster: LocalCluster;
let database: TestDatabase;
let worker: WorkerProcess;
let port: number;

beforeAll(async () => {
  cluster = await startLocalCluster({ seed: "worker-metrics", history: 400, live: false });
  database = await createTestDatabase();
  port = await portOutsideEphemeralRange();
  worker = startWorker({ DATABASE_URL: database.url, ...cluster.env, WORKER_HEALTH_PORT: String(port), SCAN_BATCH_SIZE: "100" });
}, 60_000);

afterAll(async () => {
  worker?.kill("SIGKILL");
  await database?.drop();
  await cluster?.stop();
});

/** Prometheus text format: `# HELP`/`# TYPE` lines, then `name{label="v",...} value` samples. */
function parsePrometheus(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("# HELP ") || line.startsWith("# TYPE ")) continue;
    // Values as Prometheus parses them (Go's ParseFloat: NaN and Inf in any case; prom-client writes "Nan").
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})?) (-?[0-9.e+-]+|nan|[+-]?inf)$/i.exec(line);
    if (!match) throw new Error(`not Prometheus text: ${line}`);
    samples.set(match[1]!, Number(match[2]));
  }
  return samples;
}

const scrape = async () => {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheus(await response.text());
};

describe("the worker's metrics and health", () => {
  it("counts the transactions and fills it indexed, the batches, the RPC calls, its leadership and checkpoint", async () => {
    const total = cluster.ledger.transactions.length;
    await waitFor(async () => (await scannedCount(database.url)) === total, 60_000, () => worker.output().slice(-2000));
    await waitFor(async () => (await scrape()).get("offer_book_worker_transactions_indexed_total") === total, 60_000, () => "counter behind");
    const m = await scrape();
    const fills = cluster.expectedState().fills.length;
    expect(m.get("offer_book_worker_fills_indexed_total")).toBe(fills);
    expect(m.get("offer_book_worker_leader")).toBe(1);
    expect(m.get("offer_book_worker_batch_commit_seconds_count")).toBeGreaterThanOrEqual(Math.ceil(total / 100));
    expect(m.get('offer_book_worker_rpc_requests_total{method="getTransaction",outcome="ok"}')).toBeGreaterThanOrEqual(total);
    expect(m.get('offer_book_worker_rpc_requests_total{method="getSignaturesForAddress",outcome="ok"}')).toBeGreaterThan(0);
    expect(m.get("offer_book_worker_checkpoint_slot")).toBe(cluster.ledger.transactions.at(-1)!.slot);
    expect(m.get("offer_book_worker_slot_lag")).toBeGreaterThanOrEqual(0);
    expect(m.has("offer_book_worker_process_resident_memory_bytes")).toBe(true);
  });

  it("moves the counters when new transactions are indexed", async () => {
    const before = (await scrape()).get("offer_book_worker_transactions_indexed_total")!;
    cluster.append("take", 3);
    await waitFor(
      async () => (await scrape()).get("offer_book_worker_transactions_indexed_total")! >= before + 3,
      60_000,
      () => worker.output().slice(-2000),
    );
  });

  it("answers liveness and readiness", async () => {
    const live = await fetch(`http://127.0.0.1:${port}/health`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok", role: "leader" });
    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, role: "leader", caughtUp: true });
  });

  it("writes nothing at info level while nothing happens", async () => {
    const lines = () => worker.output().split("\n").filter(Boolean).length;
    const before = lines();
    // Ten polls' worth of RPC calls (SCAN_INTERVAL_MS 200), as the worker itself counts them.
    const calls = async () => (await workerMetric(port, "offer_book_worker_rpc_requests_total")) ?? 0;
    const callsBefore = await calls();
    await waitFor(async () => (await calls()) >= callsBefore + 10, 60_000, () => worker.output().slice(-2000));
    expect(worker.output().split("\n").filter(Boolean).slice(before)).toEqual([]);
    expect(lines()).toBe(before);
  });
});
