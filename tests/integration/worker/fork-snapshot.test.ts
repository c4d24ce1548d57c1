import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalCluster, type LocalCluster } from "../../../local/cluster/index";
import type { Lease } from "../../../worker/leader-lock";
import { reconcileOffers } from "../../../worker/reconcile";
import { createProgramRpc } from "../../../worker/rpc";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { startWebServer, type WebServer } from "../../helpers/server";
import { scannedCount, startWorker, waitFor, type WorkerProcess } from "../../helpers/worker";
import { expectIndexMatchesLedger } from "./expected-index";

// An account read can see further than the scan: reconcile applies what an
// offer's account says at the slot it was read, and the scan then skips the
// fills that read already includes. When such a fill sits on a fork that is
// later dropped, undoing it must not leave the offer short of it.

let cluster: LocalCluster;
let database: TestDatabase;
let server: WebServer;
const workers: WorkerProcess[] = [];
const halt = new AbortController();

beforeAll(async () => {
  cluster = await startLocalCluster({ seed: "fork-snapshot", history: 400, live: false });
  database = await createTestDatabase();
  server = await startWebServer({ DATABASE_URL: database.url });
});

afterAll(async () => {
  halt.abort();
  for (const worker of workers) worker.kill("SIGKILL");
  await server?.stop();
  await database?.drop();
  await cluster?.stop();
});

function worker(): WorkerProcess {
  const started = startWorker({ DATABASE_URL: database.url, ...cluster.env });
  workers.push(started);
  return started;
}

async function caughtUp(w: WorkerProcess): Promise<void> {
  await waitFor(
    async () => (await scannedCount(database.url)) === cluster.ledger.transactions.length,
    120_000,
    () => `worker did not catch up:\n${w.output().slice(-3000)}`,
  );
}

describe("a dropped fork after an account read that saw it", () => {
  it("gives the offers back exactly what the dropped fills took", async () => {
    const first = worker();
    await caughtUp(first);
    first.kill("SIGTERM");
    expect(await first.exited).toBe(0);

    // Takes in unfinalized slots, read by reconcile before the scan reaches them.
    const takes = cluster.append("take", 6).filter((t) => t.result.err === null);
    expect(takes.length).toBeGreaterThan(0);
    const sql = database.db.$client;
    const rpc = createProgramRpc({
      ...{ url: cluster.url, programId: cluster.programId, commitment: "confirmed" },
      ...{ rps: 1000, timeoutMs: 5000, concurrency: 4, batch: "auto", batchSize: 100 },
      signal: halt.signal,
      log: pino({ level: "silent" }),
    });
    // This test is the only writer while the worker is stopped: no leader lock needed.
    const write: Lease["write"] = (fn) => sql.begin(fn) as Promise<never>;
    const { corrected } = await reconcileOffers(sql, write, rpc, pino({ level: "silent" }));
    expect(corrected).toBeGreaterThan(0);

    const second = worker();
    await caughtUp(second);
    await expectIndexMatchesLedger(server, cluster);

    // The takes' fork is dropped; once the cluster finalizes past it, the worker undoes them.
    const fork = cluster.rollback({ replaceSlots: 0 });
    expect(fork.removedSignatures).toEqual(expect.arrayContaining(takes.map((t) => t.signature)));
    cluster.advanceSlots(100);
    await waitFor(
      async () => {
        const [left] = await sql`select count(*)::int as n from scanned_transactions where signature = any(${fork.removedSignatures})`;
        return left!.n === 0;
      },
      60_000,
      () => `the dropped takes are still indexed:\n${second.output().slice(-2000)}`,
    );
    await expectIndexMatchesLedger(server, cluster);
  }, 240_000);
});
