import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalCluster, type LocalCluster } from "../../../local/cluster/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { startWebServer, type WebServer } from "../../helpers/server";
import { scannedCount, startWorker, waitFor, type WorkerProcess } from "../../helpers/worker";
import { expectIndexMatchesLedger } from "./expected-index";

// The whole pipeline over real processes: the local cluster's JSON-RPC, the
// worker, PostgreSQL and the /v1 API. Each scenario indexes into a fresh
// database and must end with the rows the cluster's own execution implies.

const HISTORY = 1500;
let cluster: LocalCluster;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  cluster = await startLocalCluster({ seed: "scanner-e2e", history: HISTORY, live: false });
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await cluster?.stop();
});

interface Indexer {
  database: TestDatabase;
  server: WebServer;
  worker: WorkerProcess;
}

async function indexer(env: Record<string, string> = {}): Promise<Indexer> {
  const database = await createTestDatabase();
  const server = await startWebServer({ DATABASE_URL: database.url });
  const worker = startWorker({ DATABASE_URL: database.url, ...cluster.env, ...env });
  cleanups.push(() => database.drop(), () => server.stop(), async () => worker.kill("SIGKILL"));
  return { database, server, worker };
}

const ledgerSize = () => cluster.ledger.transactions.length;

async function caughtUp(ix: { database: TestDatabase; worker: WorkerProcess }, timeoutMs = 120_000): Promise<void> {
  await waitFor(
    async () => (await scannedCount(ix.database.url)) === ledgerSize(),
    timeoutMs,
    () => `worker did not catch up with ${ledgerSize()} transactions:\n${ix.worker.output().slice(-3000)}`,
  );
}

describe("the scanner, end to end", () => {
  let main: Indexer;

  it("backfills the whole ledger and the API shows every offer, fill and stat exactly", async () => {
    main = await indexer();
    await caughtUp(main);
    const { offers, fills } = await expectIndexMatchesLedger(main.server, cluster);
    expect(offers).toBeGreaterThan(100);
    expect(fills).toBeGreaterThan(100);
  });

  it("shows a live tail appended after catch-up through the API", async () => {
    const added = cluster.append("take", 3);
    const taken = added.filter((t) => t.result.err === null).map((t) => t.signature);
    expect(taken.length).toBeGreaterThan(0);
    await waitFor(
      async () => {
        const { body } = await main.server.json("/v1/fills?limit=20");
        return taken.every((s) => body.fills.some((f: { signature: string }) => f.signature === s));
      },
      60_000,
      () => `live fills ${taken.join(", ")} did not appear:\n${main.worker.output().slice(-2000)}`,
    );
    await caughtUp(main);
    await expectIndexMatchesLedger(main.server, cluster);
  });

  it("ends with exactly the same rows after a kill -9 in the middle of a backfill and a restart", async () => {
    const crashed = await indexer({ SCAN_BATCH_SIZE: "40" });
    await waitFor(
      async () => (await scannedCount(crashed.database.url)) >= 200,
      60_000,
      () => `no progress before the kill:\n${crashed.worker.output().slice(-2000)}`,
    );
    crashed.worker.kill("SIGKILL");
    await crashed.worker.exited;
    const partial = await scannedCount(crashed.database.url);
    expect(partial).toBeLessThan(ledgerSize());
    const restarted = startWorker({ DATABASE_URL: crashed.database.url, ...cluster.env });
    cleanups.push(async () => restarted.kill("SIGKILL"));
    await caughtUp({ database: crashed.database, worker: restarted });
    await expectIndexMatchesLedger(crashed.server, cluster);
  });

  it("ends the same when the RPC fails one request in five (5xx, 429, bad JSON, drops, RPC errors)", async () => {
    cluster.setFaults({ every: 5 });
    try {
      const flaky = await indexer({ RPC_TIMEOUT_MS: "3000" });
      await caughtUp(flaky, 180_000);
      const injected = Object.values(cluster.stats().faults).reduce((a, b) => a + b, 0);
      expect(injected).toBeGreaterThan(10);
      cluster.setFaults(null);
      await expectIndexMatchesLedger(flaky.server, cluster);
    } finally {
      cluster.setFaults(null);
    }
  }, 200_000);

  it("undoes what the cluster rolled back once the fork is final, and indexes what replaced it", async () => {
    cluster.append(undefined, 30); // fresh unfinalized activity
    await caughtUp(main);
    // The chain that wins reaches one slot past the dropped fork's newest: some of its transactions lie at or above the
    // checkpoint's slot, the rest below. The scanner must apply none of them before the fork is settled (that applied
    // them out of order and passed over the rest for good), then all of them, in order.
    const replaceSlots = cluster.ledger.tip.slot - cluster.ledger.finalizedSlot + 1;
    const seen = main.worker.output().length;
    const fork = cluster.rollback({ replaceSlots });
    expect(fork.removedSignatures.length).toBeGreaterThan(0);
    await waitFor(
      async () => main.worker.output().slice(seen).includes("is not on the chain the node follows"),
      60_000,
      () => `the scanner did not notice its checkpoint was rolled back:\n${main.worker.output().slice(-2000)}`,
    );
    // A transaction of the dropped fork may land again in the one that replaced it (the same signature, as on a real
    // cluster): it stays indexed. What the chain lost for good must go.
    const replaced = new Set(fork.addedSignatures);
    const dropped = fork.removedSignatures.filter((signature) => !replaced.has(signature));
    const removed = new Set(fork.removedSignatures);
    const fresh = fork.addedSignatures.filter((signature) => !removed.has(signature));
    const [early] = await main.database.db.$client`select count(*)::int as n from scanned_transactions where signature = any(${fresh})`;
    expect(early!.n).toBe(0);
    cluster.advanceSlots(40); // finalize past the fork
    let state = { stillIndexed: -1, scanned: -1, ledger: -1 };
    await waitFor(
      async () => {
        const sql = main.database.db.$client;
        const [gone] = await sql`select count(*)::int as n from scanned_transactions where signature = any(${dropped})`;
        state = { stillIndexed: gone!.n, scanned: await scannedCount(main.database.url), ledger: ledgerSize() };
        return state.stillIndexed === 0 && state.scanned === state.ledger;
      },
      60_000,
      () => `the index did not follow the fork: ${JSON.stringify(state)}\n${main.worker.output().slice(-2000)}`,
    );
    await expectIndexMatchesLedger(main.server, cluster);
  });

  it("stops on SIGTERM after the batch in hand, exiting 0", async () => {
    main.worker.kill("SIGTERM");
    expect(await main.worker.exited).toBe(0);
  });
});
