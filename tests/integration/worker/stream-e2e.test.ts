import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalCluster, type LocalCluster } from "../../../local/cluster/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { startWebServer, type WebServer } from "../../helpers/server";
import { openStream, type StreamReader } from "../../helpers/sse";
import { scannedCount, startWorker, waitFor, type WorkerProcess } from "../../helpers/worker";

// The live feed end to end: real signed transactions on the local cluster,
// the worker appending events as it indexes them, the web process streaming
// them. A take shows as its fill and the offer after it, exactly as the API
// serves them; a fork rolled back shows as revokes, then the restored offers.

let cluster: LocalCluster;
let database: TestDatabase;
let server: WebServer;
let worker: WorkerProcess;
let reader: StreamReader;

const caughtUp = () =>
  waitFor(
    async () => (await scannedCount(database.url)) === cluster.ledger.transactions.length,
    60_000,
    () => `the worker did not catch up:\n${worker.output().slice(-2000)}`,
  );

beforeAll(async () => {
  cluster = await startLocalCluster({ seed: "stream-e2e", history: 200, live: false });
  database = await createTestDatabase();
  server = await startWebServer({ DATABASE_URL: database.url });
  worker = startWorker({ DATABASE_URL: database.url, ...cluster.env });
  await caughtUp();
  reader = await openStream(server.baseUrl, "/v1/stream");
});

afterAll(async () => {
  reader?.close();
  worker?.kill("SIGKILL");
  await server?.stop();
  await database?.drop();
  await cluster?.stop();
});

describe("the live feed from the worker", () => {
  it("streams a take on the cluster as its fill, then the offer's new row, byte-identical to the API", async () => {
    const taken = cluster.append("take", 2).filter((t) => t.result.err === null);
    expect(taken.length).toBeGreaterThan(0);
    for (const t of taken) {
      const fill = await reader.waitFor((e) => e.event === "fill" && JSON.parse(e.data).signature === t.signature, 60_000);
      const row = JSON.parse(fill.data);
      const page = await (await server.get(`/v1/fills?offerPda=${row.offerPda}&limit=200`)).text();
      expect(page).toContain(fill.data);
      const after = reader.events.slice(reader.events.indexOf(fill) + 1);
      expect(after.some((e) => e.event === "offer" && JSON.parse(e.data).pda === row.offerPda)).toBe(true);
    }
    await caughtUp();
    // Nothing changed since: each offer's newest event is its row as served now.
    const newest = new Map<string, string>();
    for (const e of reader.events) if (e.event === "offer") newest.set(JSON.parse(e.data).pda, e.data);
    for (const [pda, data] of newest) expect(data).toBe(await (await server.get(`/v1/offers/${pda}`)).text());
  });

  it("streams a fork rolled back as a revoke per undone transaction, then the restored offers", async () => {
    cluster.append(undefined, 20);
    await caughtUp();
    const fork = cluster.rollback();
    expect(fork.removedSignatures.length).toBeGreaterThan(0);
    cluster.advanceSlots(40); // the cluster finalizes past the fork: the worker settles it
    const revokes = await Promise.all(
      fork.removedSignatures.map((s) => reader.waitFor((e) => e.event === "revoke" && JSON.parse(e.data).signature === s, 60_000)),
    );
    for (const revoke of revokes) {
      const body = JSON.parse(revoke.data);
      expect(Object.keys(body)).toEqual(["signature", "slot"]);
      expect(body.slot).toMatch(/^\d+$/);
    }
    // The restored rows follow the revokes: an offer event after the last revoke of the rollback.
    const lastRevoke = Math.max(...revokes.map((r) => reader.events.indexOf(r)));
    await reader.waitForCount(lastRevoke + 2, 60_000);
    const following = reader.events.slice(lastRevoke + 1);
    expect(following[0]?.event).toBe("offer");
    const ids = reader.events.map((e) => BigInt(e.id!));
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
  });
});
