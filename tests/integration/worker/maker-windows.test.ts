import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkerMetrics } from "../../../worker/metrics";
import type { Lease } from "../../../worker/leader-lock";
import type { ProgramRpc } from "../../../worker/rpc";
import { upkeep, type ScannerContext } from "../../../worker/scan-loop";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";

// The worker's upkeep (worker/scan-loop.ts) moves the leaderboard windows'
// totals (maker_window_totals, migration 0013) when an hour or a UTC day has
// turned since they were last moved: the leaderboard reads them only while
// their edge is where the window starts (lib/db/reads/makers.ts).

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
});

const lagging = async () =>
  (
    await database.db.$client<{ window_name: string }[]>`
      select window_name from maker_window_edges where edge <> maker_window_start(resolution, buckets, now()) order by 1`
  ).map((r) => r.window_name);

describe("the worker's upkeep", () => {
  it("moves the windows whose hour or day has turned to where they start now", async () => {
    const sql = database.db.$client;
    // As if the worker had last moved them a day and an hour ago.
    await sql`select rebuild_maker_window_totals(now() - interval '1 day 1 hour')`;
    expect(await lagging()).toEqual(["24h", "30d", "7d"]);
    const context = {
      sql,
      write: ((fn) => sql.begin(fn)) as Lease["write"],
      rpc: {} as ProgramRpc, // neither finality (finalized commitment) nor a reconcile (not due) asks the RPC
      log: pino({ level: "silent" }),
      metrics: createWorkerMetrics(),
      database: {} as ScannerContext["database"],
    } satisfies ScannerContext;
    const config = { programId: "unused", commitment: "finalized" as const, intervalMs: 1000, batchSize: 500, reconcileIntervalMs: 3_600_000 };
    await upkeep(context, config, { lastFinality: 0, lastReconcile: Date.now() });
    expect(await lagging()).toEqual([]);
  });
});
