import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalCluster, type LocalCluster } from "../../../local/cluster/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { scannedCount, startWorker, waitFor, type WorkerProcess } from "../../helpers/worker";

// The backfill reads transactions as JSON-RPC batches (one request carries
// many getTransaction calls), and falls back to one call each when the node
// refuses batches, as many providers' plans do, indexing the same rows.

let cluster: LocalCluster;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  cluster = await startLocalCluster({ seed: "rpc-batches", history: 600, live: false });
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await cluster?.stop();
});

/** A node in front of the cluster that answers every batch as a provider without batches does: HTTP 403 and one error. */
async function nodeWithoutBatches(target: string): Promise<{ url: string; refused: () => number }> {
  let refused = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      if (body.trimStart().startsWith("[")) {
        refused++;
        res.writeHead(403, { "content-type": "application/json" });
        res.end(`{"jsonrpc":"2.0","error":{"code":-32403,"message":"Batch requests are only available for paid plans"},"id":null}`);
        return;
      }
      const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
      res.writeHead(upstream.status, { "content-type": "application/json" });
      res.end(await upstream.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, refused: () => refused };
}

async function backfill(env: Record<string, string>): Promise<{ database: TestDatabase; worker: WorkerProcess }> {
  const database = await createTestDatabase();
  const worker = startWorker({ DATABASE_URL: database.url, ...cluster.env, ...env });
  cleanups.push(() => database.drop(), async () => worker.kill("SIGKILL"));
  const total = cluster.ledger.transactions.length;
  await waitFor(async () => (await scannedCount(database.url)) === total, 100_000, () => worker.output().slice(-3000));
  return { database, worker };
}

async function fillCount(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`select count(*)::int as n from fills`;
    return row!.n;
  } finally {
    await sql.end();
  }
}

describe("getTransaction in JSON-RPC batches", () => {
  it("sends many calls in one request by default, 25 at most (no RPC_RPS)", async () => {
    const before = cluster.stats();
    const callsBefore = before.byMethod.getTransaction ?? 0;
    const requestsBefore = before.httpRequests;
    const { database } = await backfill({});
    const after = cluster.stats();
    const calls = (after.byMethod.getTransaction ?? 0) - callsBefore;
    const total = cluster.ledger.transactions.length;
    expect(calls).toBeGreaterThanOrEqual(total);
    // Every request of the backfill (pages, statuses, slots and the batches) is far fewer than a call per transaction.
    expect(after.httpRequests - requestsBefore).toBeLessThan(total / 10);
    expect(after.httpRequests - requestsBefore).toBeGreaterThanOrEqual(Math.ceil(total / 25));
    expect(await fillCount(database.url)).toBe(cluster.expectedState().fills.length);
  });

  it("falls back to one call per transaction when the node refuses a batch, says so once, and indexes the same", async () => {
    const node = await nodeWithoutBatches(cluster.url);
    const { database, worker } = await backfill({ SOLANA_RPC_URL: node.url });
    expect(node.refused()).toBeGreaterThan(0);
    expect(worker.output().match(/refused a batch/g)).toHaveLength(1);
    expect(await fillCount(database.url)).toBe(cluster.expectedState().fills.length);
  });

  it("keeps to single calls with RPC_BATCH=false, never sending a batch", async () => {
    const node = await nodeWithoutBatches(cluster.url);
    const { database, worker } = await backfill({ SOLANA_RPC_URL: node.url, RPC_BATCH: "false" });
    expect(node.refused()).toBe(0);
    expect(worker.output()).not.toMatch(/refused a batch/);
    expect(await fillCount(database.url)).toBe(cluster.expectedState().fills.length);
  });
});
