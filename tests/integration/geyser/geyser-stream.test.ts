import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalCluster, type LocalCluster } from "../../../local/cluster/index";
import { startYellowstone, type YellowstoneServer } from "../../../local/cluster/yellowstone/server";
import { portOutsideEphemeralRange } from "../../helpers/reserved-port";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { startWebServer, type WebServer } from "../../helpers/server";
import { scannedCount, startWorker, waitFor, workerMetric, type WorkerProcess } from "../../helpers/worker";
import { expectIndexMatchesLedger } from "../worker/expected-index";

// The worker on a Yellowstone stream over real gRPC on loopback, served by the
// local cluster's Yellowstone server: the stream carries the live
// transactions (no getTransaction), a drop inside the replay ring is replayed,
// one beyond it is filled over RPC, a dead slot is undone with its revokes, a
// worker killed mid-stream resumes from its checkpoint, and a silent stream is
// replaced. Each ends with the index equal to the ledger's arithmetic and the
// feed's ids without gap or duplicate.

const RING_SLOTS = 20;
let cluster: LocalCluster;
let yellowstone: YellowstoneServer;
let database: TestDatabase;
let server: WebServer;
let worker: WorkerProcess;
let port: number;

function start(): WorkerProcess {
  worker = startWorker({
    DATABASE_URL: database.url,
    ...cluster.env,
    GEYSER_URL: yellowstone.url,
    GEYSER_STALL_MS: "1500",
    WORKER_HEALTH_PORT: String(port),
  });
  return worker;
}

const metric = async (name: string) => (await workerMetric(port, `offer_book_worker_${name}`)) ?? 0;
const getTransactionCalls = () => (cluster.stats().byMethod.getTransaction ?? 0);

async function caughtUp(): Promise<void> {
  await waitFor(
    async () => (await scannedCount(database.url)) === cluster.ledger.transactions.length,
    60_000,
    () => `worker did not catch up (${cluster.ledger.transactions.length} in the ledger):\n${worker.output().slice(-3000)}`,
  );
}

async function expectFeedWithoutGapOrDuplicate(): Promise<void> {
  const sql = database.db.$client;
  const [row] = await sql<{ n: number; distinct: number; low: number; high: number }[]>`
    select count(*)::int as n, count(distinct id)::int as distinct, min(id)::int as low, max(id)::int as high from feed_events`;
  expect(row!.n).toBeGreaterThan(0);
  expect(row!.distinct).toBe(row!.n);
  expect(row!.high - row!.low + 1).toBe(row!.n);
}

async function expectExact(): Promise<void> {
  await caughtUp();
  await expectIndexMatchesLedger(server, cluster);
  await expectFeedWithoutGapOrDuplicate();
}

/** A few blocks of mixed activity, each its own slot. */
function activity(slots: number, perSlot = 3): void {
  for (let i = 0; i < slots; i++) cluster.append(undefined, perSlot);
}

beforeAll(async () => {
  cluster = await startLocalCluster({ seed: "geyser-stream", history: 300, live: false });
  yellowstone = await startYellowstone(cluster.ledger, { replaySlots: RING_SLOTS, pingMs: 300 });
  database = await createTestDatabase();
  server = await startWebServer({ DATABASE_URL: database.url });
  port = await portOutsideEphemeralRange();
  start();
  await expectExact();
  await waitFor(async () => (await metric("geyser_connected")) === 1, 30_000, () => `not connected:\n${worker.output().slice(-2000)}`);
});

afterAll(async () => {
  worker?.kill("SIGKILL");
  await server?.stop();
  await database?.drop();
  await yellowstone?.stop();
  await cluster?.stop();
});

describe("the Yellowstone datasource", () => {
  it("takes live transactions from the stream without a getTransaction call", async () => {
    const before = getTransactionCalls();
    activity(5);
    await expectExact();
    expect(getTransactionCalls()).toBe(before);
    expect(await metric("geyser_streamed_transactions_total")).toBeGreaterThan(0);
    expect(await metric("geyser_rpc_calls_per_streamed_transaction")).toBeLessThan(1);
  });

  it("replays a drop inside the replay ring, with no getTransaction call", async () => {
    const before = getTransactionCalls();
    const served = await replays("served");
    yellowstone.dropAll();
    activity(3); // while the worker waits to reconnect
    await expectExact();
    expect(getTransactionCalls()).toBe(before);
    expect(await replays("served")).toBeGreaterThan(served);
  });

  it("fills a drop beyond the replay ring over RPC", async () => {
    const fills = await metric("geyser_gap_fills_total");
    const before = getTransactionCalls();
    yellowstone.dropAll();
    activity(RING_SLOTS + 5, 1);
    await expectExact();
    expect(await replays("refused")).toBeGreaterThan(0);
    expect(await metric("geyser_gap_fills_total")).toBe(fills + 1);
    expect(getTransactionCalls()).toBeGreaterThan(before);
  });

  it("undoes a dead slot and emits its revokes", async () => {
    const tip = cluster.ledger.tip.slot;
    const takes = cluster.append("take", 4).filter((t) => t.result.err === null);
    activity(1);
    await caughtUp();
    const fork = cluster.rollback({ toSlot: tip, replaceSlots: 2 });
    expect(fork.removedSignatures).toEqual(expect.arrayContaining(takes.map((t) => t.signature)));
    await waitFor(async () => (await metric("geyser_dead_slots_total")) > 0, 30_000, () => `no dead slot undone:\n${worker.output().slice(-2000)}`);
    await expectExact();
    const sql = database.db.$client;
    const revoked = await sql<{ n: number }[]>`select count(*)::int as n from feed_events where kind = 'revoke'`;
    expect(revoked[0]!.n).toBeGreaterThanOrEqual(takes.length);
  });

  it("resumes from its checkpoint after being killed mid-stream", async () => {
    activity(2);
    worker.kill("SIGKILL");
    await worker.exited;
    activity(4);
    start();
    await expectExact();
  });

  it("replaces a stream that goes silent", async () => {
    await waitFor(async () => (await metric("geyser_connected")) === 1, 30_000, () => `not connected:\n${worker.output().slice(-2000)}`);
    const stalls = await stalled();
    yellowstone.setSilent(true);
    activity(2);
    await waitFor(async () => (await stalled()) > stalls, 30_000, () => `the silent stream was not replaced:\n${worker.output().slice(-2000)}`);
    yellowstone.setSilent(false);
    await expectExact();
  });
});

async function replays(outcome: "served" | "refused"): Promise<number> {
  return (await workerMetric(port, `offer_book_worker_geyser_replays_total{outcome="${outcome}"}`)) ?? 0;
}

async function stalled(): Promise<number> {
  return (await workerMetric(port, `offer_book_worker_geyser_reconnects_total{reason="stalled"}`)) ?? 0;
}
