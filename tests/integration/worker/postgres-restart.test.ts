import { rmSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../../../platform/postgres/embedded";
import { migrateDatabase } from "../../../lib/db/migrate";
import { createDatabaseIfMissing } from "../../../platform/postgres/resolve";
import { startLocalCluster, type LocalCluster } from "../../../local/cluster/index";
import { portOutsideEphemeralRange, portsOutsideEphemeralRange } from "../../helpers/reserved-port";
import { startWebServer } from "../../helpers/server";
import { pollingClient, scannedCount, startWorker, waitFor, type WorkerProcess } from "../../helpers/worker";
import { expectIndexMatchesLedger } from "./expected-index";

// The worker rides through PostgreSQL restarts during the live tail: it stays
// up, reconnects, takes its lock again and resumes from its checkpoint, and
// the index ends exactly as the cluster's own record says (nothing lost or
// doubled). A PostgreSQL of the test's own (never the machine's) is restarted
// on the same port and data directory.

const ROOT = path.resolve(import.meta.dirname, "../../..");
const dataDir = path.join(ROOT, ".data", `test-pg-restart-${process.pid}`);
let port: number;
let pg: EmbeddedDatabase;
let url: string;
let cluster: LocalCluster;
const workers: WorkerProcess[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An outage of `downMs`: the scenario's length, not a wait for something to happen. */
async function restartPostgres(downMs = 1500): Promise<void> {
  await pg.stop();
  await sleep(downMs);
  pg = await startEmbeddedPostgres({ dataDir, persistent: true, port });
}

const ledgerSize = () => cluster.ledger.transactions.length;

async function advancesPast(count: number, worker: WorkerProcess[]): Promise<void> {
  await waitFor(
    async () => (await scannedCount(url).catch(() => 0)) > count,
    60_000,
    () => `no progress past ${count} after the restart:\n${worker.map((w) => w.output().slice(-3000)).join("\n----\n")}`,
  );
}

async function caughtUp(worker: WorkerProcess[]): Promise<void> {
  await waitFor(
    async () => (await scannedCount(url).catch(() => -1)) === ledgerSize(),
    90_000,
    () => `did not catch up with ${ledgerSize()}:\n${worker.map((w) => w.output().slice(-3000)).join("\n----\n")}`,
  );
}

/**
 * The worker's role by its /health, or why it did not answer: `down (ECONNREFUSED)`
 * (nothing listens: the process is gone, or never bound its port) is another
 * failure than `down (timeout)` (it listens but its event loop does not turn).
 * The bound only ends a hung request; the caller waits on the roles.
 */
async function role(workerPort: number): Promise<string> {
  try {
    const response = await fetch(`http://127.0.0.1:${workerPort}/health`, { signal: AbortSignal.timeout(10_000) });
    return ((await response.json()) as { role: string }).role;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return `down (${(error as Error).name === "TimeoutError" ? "timeout" : (cause?.code ?? cause?.message ?? (error as Error).message)})`;
  }
}

beforeAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  port = await portOutsideEphemeralRange(); // started again on it while the worker's reconnects hammer it
  pg = await startEmbeddedPostgres({ dataDir, persistent: true, port });
  url = await createDatabaseIfMissing(pg.adminUrl, "offer_book_restart");
  await migrateDatabase(url);
  cluster = await startLocalCluster({ seed: "postgres-restart", history: 800, live: true, txPerSecond: 8, slotMs: 200 });
}, 120_000);

afterAll(async () => {
  for (const w of workers) w.kill("SIGKILL");
  await cluster?.stop();
  await pg?.stop().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the worker across PostgreSQL restarts", () => {
  it("stays up through two restarts during the live tail and ends with exactly the cluster's rows", async () => {
    const worker = startWorker({ DATABASE_URL: url, ...cluster.env, LOG_FORMAT: "json" });
    workers.push(worker);
    try {
      await survivesTwoRestarts(worker);
    } finally {
      worker.kill("SIGKILL");
      cluster.resume();
    }
  }, 300_000);

  async function survivesTwoRestarts(worker: WorkerProcess): Promise<void> {
    await caughtUp([worker]);
    for (let round = 0; round < 2; round++) {
      const before = await scannedCount(url);
      await restartPostgres();
      await advancesPast(before, [worker]);
    }
    expect(worker.child.exitCode).toBeNull();
    cluster.pause();
    await caughtUp([worker]);
    const server = await startWebServer({ DATABASE_URL: url });
    try {
      await expectIndexMatchesLedger(server, cluster);
    } finally {
      await server.stop();
    }
    const output = worker.output();
    expect(output).not.toMatch(/TypeError|Unhandled|uncaught/i);
    expect(output).not.toMatch(/\n\s+at /); // no stack trace
    const outageLines = output.split("\n").filter((l) => l.includes("the database failing"));
    expect(outageLines.length).toBeGreaterThanOrEqual(2);
    expect(outageLines.length).toBeLessThanOrEqual(4); // one per outage (and its lock), not one per retry
    worker.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
  }

  it("with a leader and a standby, keeps one writer across a restart and loses or doubles nothing", async () => {
    // Listened on by the workers once they have started, seconds from now: from outside the
    // ephemeral range (tests/helpers/reserved-port.ts), where no outgoing connection takes them
    // meanwhile, and two different ones. Taken, a worker exits at start (one line, exit 1) and
    // its /health refuses: "roles down, leader" with no restart to blame.
    const ports = await portsOutsideEphemeralRange(2);
    const [a, b] = ports.map((p) => startWorker({ DATABASE_URL: url, ...cluster.env, LOG_FORMAT: "json", WORKER_HEALTH_PORT: String(p) }));
    workers.push(a!, b!);
    await caughtUp([a!, b!]);
    // Every sample of a wait is tallied: a worker down throughout is another story than one sample of many.
    let samples = new Map<string, number>();
    const leaderAndStandby = async () => {
      const seen = (await Promise.all(ports.map(role))).sort().join(", ");
      samples.set(seen, (samples.get(seen) ?? 0) + 1);
      return seen === "leader, standby";
    };
    const rolesSeen = () => {
      const told = [...samples].map(([roles, n]) => `${roles} (${n}x)`).join("; ");
      samples = new Map();
      const lines = [a!, b!].map((w, i) => `worker on ${ports[i]}: exit code ${w.child.exitCode}\n${w.output().slice(-3000)}`);
      return `roles ${told}:\n${lines.join("\n----\n")}`;
    };
    await waitFor(leaderAndStandby, 60_000, rolesSeen);
    samples = new Map();

    // Sampled through the restart: never two sessions holding the scanner lock.
    const holders: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const sql = postgres(pg.adminUrl.replace(/\/postgres$/, "/offer_book_restart"), { max: 1, connect_timeout: 1, onnotice: () => {}, ...pollingClient });
        try {
          // Holders of the scanner's lock itself (the key worker/leader-lock.ts takes), not of the
          // transaction-level locks a leader takes as it writes (the feed's ids, fill_slot_bounds).
          const [row] = await sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and granted and objsubid = 1
            and ((classid::bigint << 32) | objid::bigint) = hashtext(${`offer-book-scanner:${cluster.programId}`})::bigint`;
          holders.push(row!.n);
        } catch {
          // down: nobody holds anything
        } finally {
          await sql.end({ timeout: 0 }).catch(() => {});
        }
        await sleep(100);
      }
    })();
    const before = await scannedCount(url);
    await restartPostgres();
    await advancesPast(before, [a!, b!]);
    // A few samples of the leader after the restart, however fast it came back.
    const afterRestart = holders.length;
    await waitFor(async () => holders.slice(afterRestart).some((n) => n > 0), 60_000, () => `holders sampled ${holders.join(",")}`);
    sampling = false;
    await sampler;
    expect(Math.max(...holders)).toBe(1);
    await waitFor(leaderAndStandby, 60_000, () => `after the restart: ${rolesSeen()}`);

    cluster.pause();
    await caughtUp([a!, b!]);
    const server = await startWebServer({ DATABASE_URL: url });
    try {
      await expectIndexMatchesLedger(server, cluster);
    } finally {
      await server.stop();
    }
    for (const w of [a!, b!]) {
      expect(w.child.exitCode).toBeNull();
      expect(w.output()).not.toMatch(/TypeError|\n\s+at /);
    }
    // /metrics parses as Prometheus text and counted what was indexed.
    const metricsText = await (await fetch(`http://127.0.0.1:${ports[0]}/metrics`)).text();
    expect(metricsText).toMatch(/^# HELP offer_book_worker_transactions_indexed_total /m);
  }, 300_000);
});
