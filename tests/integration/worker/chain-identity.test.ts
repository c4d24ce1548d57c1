import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readChainIdentity } from "../../../lib/db/writes/index";
import { startLocalCluster, type LocalCluster } from "../../../local/cluster/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { scannedCount, startWorker, waitFor } from "../../helpers/worker";

// One chain per database: the worker records the chain (genesis hash,
// program, treasury) before its first write, and a worker configured for
// another chain or program exits non-zero with one line naming both and the
// way out, having written nothing.

const ROOT = path.resolve(import.meta.dirname, "../../..");
let chainA: LocalCluster;
let chainB: LocalCluster;
let database: TestDatabase;

beforeAll(async () => {
  [chainA, chainB] = await Promise.all([
    startLocalCluster({ seed: "identity-a", history: 120 }),
    startLocalCluster({ seed: "identity-b", history: 120 }),
  ]);
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
  await Promise.all([chainA?.stop(), chainB?.stop()]);
});

/** Everything the worker could have written, to show a refused worker wrote nothing. */
async function snapshot(): Promise<unknown> {
  const sql = database.db.$client;
  const [row] = await sql`
    select (select count(*)::int from scanned_transactions) as scanned, (select count(*)::int from offers) as offers,
      (select count(*)::int from fills) as fills, (select json_agg(c) from scanner_checkpoints c) as checkpoints,
      (select json_agg(i) from chain_identity i) as identity`;
  return row;
}

async function refused(env: Record<string, string>): Promise<string> {
  const worker = startWorker({ DATABASE_URL: database.url, ...env });
  const code = await worker.exited;
  expect(code, worker.output()).not.toBe(0);
  const lines = worker.output().trim().split("\n");
  expect(lines, worker.output()).toHaveLength(1);
  return lines[0]!;
}

describe("one chain per database", () => {
  it("records the chain at the first write and indexes it", async () => {
    const worker = startWorker({ DATABASE_URL: database.url, ...chainA.env });
    await waitFor(
      async () => (await scannedCount(database.url)) === chainA.ledger.transactions.length,
      60_000,
      () => worker.output().slice(-2000),
    );
    worker.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
    expect(await readChainIdentity(database.db.$client)).toEqual({
      genesisHash: chainA.ledger.genesisHash,
      programId: chainA.programId,
      treasury: chainA.treasury,
    });
  });

  it("refuses another cluster (another genesis hash): one line naming both chains and the fix, nothing written", async () => {
    const before = await snapshot();
    const line = await refused(chainB.env);
    expect(line).toContain(chainA.ledger.genesisHash);
    expect(line).toContain(chainB.ledger.genesisHash);
    expect(line).toMatch(/new database.*npm run db:reset -- --yes/);
    expect(line).not.toMatch(/\bat \S+:\d+/); // no stack trace
    expect(await snapshot()).toEqual(before);
  });

  it("refuses another program on the same cluster", async () => {
    const before = await snapshot();
    const line = await refused({ ...chainA.env, PROGRAM_ID: chainB.programId, TREASURY_ADDRESS: chainB.treasury });
    expect(line).toContain(`program ${chainA.programId}`);
    expect(line).toContain(`program ${chainB.programId}`);
    expect(await snapshot()).toEqual(before);
  });

  it("db:reset asks for confirmation, then empties the index so another chain can be indexed", async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(process.execPath, ["--import", "tsx", "scripts/db-reset.ts", ...args], {
          cwd: ROOT,
          env: { ...process.env, DATABASE_URL: database.url },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let output = "";
        child.stdout.on("data", (d) => (output += d));
        child.stderr.on("data", (d) => (output += d));
        child.once("exit", (code) => resolve({ code, output }));
      });
    const before = await snapshot();
    const unconfirmed = await run([]);
    expect(unconfirmed.code).not.toBe(0);
    expect(unconfirmed.output.trim().split("\n")).toEqual([expect.stringMatching(/^db:reset: .*--yes/)]);
    expect(await snapshot()).toEqual(before);

    const [candlesBefore] = await database.db.$client`select count(*)::int as rows from candles`;
    expect(candlesBefore!.rows).toBeGreaterThan(0);
    const reset = await run(["--yes"]);
    expect(reset.code, reset.output).toBe(0);
    expect(reset.output).toContain(chainA.ledger.genesisHash);
    expect(await snapshot()).toEqual({ scanned: 0, offers: 0, fills: 0, checkpoints: null, identity: null });
    const [stats] = await database.db.$client`select total_offers::int, total_fills::int from protocol_stats`;
    expect(stats).toEqual({ total_offers: 0, total_fills: 0 });
    const [candles] = await database.db.$client`select count(*)::int as rows from candles`;
    expect(candles).toEqual({ rows: 0 }); // TRUNCATE fires no delete trigger: the candles are emptied by name

    const worker = startWorker({ DATABASE_URL: database.url, ...chainB.env });
    await waitFor(
      async () => (await scannedCount(database.url)) === chainB.ledger.transactions.length,
      60_000,
      () => worker.output().slice(-2000),
    );
    worker.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
    expect((await readChainIdentity(database.db.$client))?.genesisHash).toBe(chainB.ledger.genesisHash);
  });
});
