import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureChainIdentity, readChainIdentity } from "../../../lib/db/writes/index";
import { startLocalCluster, type LocalCluster } from "../../../local/cluster/index";
import { ledgerPath } from "../../../local/cluster/journal";
import { describeKeptLedger, startFreshUnlessLedgerAgrees } from "../../../scripts/start/local-chain";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { startWebServer, type WebServer } from "../../helpers/server";
import { scannedCount, startWorker, waitFor, type WorkerProcess } from "../../helpers/worker";
import { expectIndexMatchesLedger } from "./expected-index";

// The demo survives restarts: the cluster keeps its ledger in a data
// directory, so stopping cluster and worker and starting both again (as
// Ctrl-C and `npm start` do) continues the same chain, and the worker goes on
// from its checkpoint: the new fills indexed, nothing lost or doubled. And
// when the kept ledger and the index are not of one chain, `npm start` starts
// both afresh instead of mixing them.

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "localnet-"));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function cluster(options: Parameters<typeof startLocalCluster>[0]): Promise<LocalCluster> {
  const c = await startLocalCluster(options);
  cleanups.push(() => c.stop());
  return c;
}

function worker(database: TestDatabase, c: LocalCluster): WorkerProcess {
  const w = startWorker({ DATABASE_URL: database.url, ...c.env });
  cleanups.push(async () => w.kill("SIGKILL"));
  return w;
}

async function caughtUp(database: TestDatabase, c: LocalCluster, w: WorkerProcess): Promise<void> {
  await waitFor(
    async () => (await scannedCount(database.url)) === c.ledger.transactions.length,
    60_000,
    () => `worker at ${c.ledger.transactions.length} transactions?\n${w.output().slice(-2000)}`,
  );
}

describe("restarting cluster and worker together", () => {
  let database: TestDatabase;
  let server: WebServer;
  const dataDir = tempDir();

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startWebServer({ DATABASE_URL: database.url });
    cleanups.push(() => database.drop(), () => server.stop());
  });

  it("continues the same chain, and the worker indexes the fills made after the restart with nothing lost or doubled", async () => {
    const first = await cluster({ seed: "restart", history: 600, dataDir });
    const firstWorker = worker(database, first);
    first.append(undefined, 40);
    await caughtUp(database, first, firstWorker);
    await expectIndexMatchesLedger(server, first);
    const indexedBefore = await scannedCount(database.url);
    firstWorker.kill("SIGTERM");
    expect(await firstWorker.exited).toBe(0);
    await first.stop();

    // What npm start decides before starting the cluster: the ledger and index agree.
    expect(await startFreshUnlessLedgerAgrees(database.url, dataDir)).toBeNull();
    expect(await scannedCount(database.url)).toBe(indexedBefore);

    // Started again as npm start does: live, on another port, from the kept ledger.
    const second = await cluster({ seed: "restart", history: 600, dataDir, live: true, txPerSecond: 12, slotMs: 100 });
    expect(second.resumed?.transactions).toBe(indexedBefore);
    expect(second.ledger.genesisHash).toBe(first.ledger.genesisHash);
    const secondWorker = worker(database, second);
    await waitFor(
      async () => {
        const newFill = second.ledger.transactions.slice(indexedBefore).find((t) => t.result.err === null && t.result.effects.some((e) => e.kind === "take"));
        const take = newFill?.result.effects.find((e) => e.kind === "take");
        if (!newFill || take?.kind !== "take") return false;
        // Looked up by its offer: the live tail's later fills soon push it out of the newest page of /v1/fills.
        const { body } = await server.json(`/v1/offers/${take.offer}/fills?limit=200`);
        return body.fills.some((f: { signature: string }) => f.signature === newFill.signature);
      },
      60_000,
      () => `no fill made after the restart was indexed:\n${secondWorker.output().slice(-2000)}`,
    );

    second.pause();
    await caughtUp(database, second, secondWorker);
    expect(second.ledger.transactions.length).toBeGreaterThan(indexedBefore);
    // Every transaction once (signatures are keys; counts equal), every row as the chain executed it.
    await expectIndexMatchesLedger(server, second);
    expect(secondWorker.output()).not.toMatch(/another chain/);
  });
});

describe("npm start's check that the kept ledger and the index are of one chain", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    cleanups.push(() => database.drop());
  });

  const sql = () => database.db.$client;
  const identityOf = (c: LocalCluster) => ({ genesisHash: c.ledger.genesisHash, programId: c.programId, treasury: c.treasury });
  async function indexSomething(c: LocalCluster): Promise<void> {
    await ensureChainIdentity(sql(), identityOf(c));
    await sql()`insert into scanner_checkpoints (program_id, last_signature, last_slot) values (${c.programId}, 'x', 1) on conflict do nothing`;
  }
  async function indexIsEmpty(): Promise<boolean> {
    const [row] = await sql()`select (select count(*)::int from scanner_checkpoints) + (select count(*)::int from chain_identity) as n`;
    return row!.n === 0;
  }

  it("lets an empty index start with or without a kept ledger", async () => {
    const dir = tempDir();
    expect(await startFreshUnlessLedgerAgrees(database.url, dir)).toBeNull();
    expect(describeKeptLedger(dir)).toBeNull();
    const kept = await cluster({ seed: "agree-a", history: 20, dataDir: dir });
    await kept.stop();
    expect(await startFreshUnlessLedgerAgrees(database.url, dir)).toBeNull();
    expect(existsSync(ledgerPath(dir))).toBe(true);
    expect(describeKeptLedger(dir)).toMatch(/^continuing the chain kept in .* MB, about \d+ transactions to replay/);
  });

  it("starts both afresh when the ledger is gone but the index holds its chain", async () => {
    const dir = tempDir();
    const gone = await cluster({ seed: "agree-b", history: 20, dataDir: dir });
    await gone.stop();
    await indexSomething(gone);
    rmSync(dir, { recursive: true });
    const line = await startFreshUnlessLedgerAgrees(database.url, dir);
    expect(line).toMatch(new RegExp(`index holds chain genesis ${gone.ledger.genesisHash}.*ledger is gone: starting both afresh`));
    expect(line!.split("\n")).toHaveLength(1);
    expect(await indexIsEmpty()).toBe(true);
  });

  it("starts both afresh when the kept ledger is another chain than the index's, removing that ledger", async () => {
    const dir = tempDir();
    const indexed = await cluster({ seed: "agree-c", history: 10 });
    const kept = await cluster({ seed: "agree-d", history: 10, dataDir: dir });
    await kept.stop();
    await indexSomething(indexed);
    const line = await startFreshUnlessLedgerAgrees(database.url, dir);
    expect(line).toContain(indexed.ledger.genesisHash);
    expect(line).toContain(kept.ledger.genesisHash);
    expect(await indexIsEmpty()).toBe(true);
    expect(existsSync(ledgerPath(dir))).toBe(false);
  });

  it("starts both afresh when the index holds rows of a chain it never recorded (written before chains were recorded)", async () => {
    const dir = tempDir();
    const kept = await cluster({ seed: "agree-e", history: 10, dataDir: dir });
    await kept.stop();
    await sql()`insert into scanner_checkpoints (program_id, last_signature, last_slot) values ('old', 'x', 1)`;
    expect(await startFreshUnlessLedgerAgrees(database.url, dir)).toMatch(/unrecorded chain/);
    expect(await indexIsEmpty()).toBe(true);
    expect(await readChainIdentity(sql())).toBeNull();
  });
});
