import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../../../platform/postgres/embedded";
import { startLocalCluster, type LocalCluster } from "../../../local/cluster/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { portOutsideEphemeralRange } from "../../helpers/reserved-port";
import { startWorker, waitFor, workerMetric, type WorkerProcess } from "../../helpers/worker";

// Every way the worker's start can fail that a person meets is one line on
// stderr naming the cause and the fix, and a non-zero exit, never a stack. An
// RPC that does not answer is not one of them: the worker waits for it and
// says so once per interval, then once when it answers.

const ROOT = path.resolve(import.meta.dirname, "../../..");
const PROGRAM = { PROGRAM_ID: "11111111111111111111111111111111", SOLANA_RPC_URL: "http://127.0.0.1:9" };
let database: TestDatabase;
let passworded: EmbeddedDatabase;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  passworded = await startEmbeddedPostgres({ dataDir: path.join(ROOT, ".data", `test-pg-password-${process.pid}`), persistent: false });
}, 60_000);

afterAll(async () => {
  for (const w of workers) w.kill("SIGKILL");
  await database?.drop();
  await passworded?.stop();
});

async function failsWithOneLine(env: Record<string, string>, expected: RegExp, code = 1): Promise<void> {
  const worker = startWorker({ LOG_FORMAT: "json", ...env });
  workers.push(worker);
  let deadline: NodeJS.Timeout | undefined;
  const exit = await Promise.race([worker.exited, new Promise((r) => (deadline = setTimeout(() => r("still running after 60 s"), 60_000)))]);
  clearTimeout(deadline);
  const lines = worker.output().trim().split("\n");
  expect(exit, worker.output()).toBe(code);
  expect(lines, worker.output()).toHaveLength(1);
  expect(lines[0]).toMatch(/^worker: /);
  expect(lines[0]).toMatch(expected);
}

const withDatabase = (url: string, name: string) => Object.assign(new URL(url), { pathname: `/${name}` }).toString();

describe("the worker's start", () => {
  it("says in one line that no PostgreSQL answers at DATABASE_URL", async () => {
    const port = await portOutsideEphemeralRange();
    await failsWithOneLine({ ...PROGRAM, DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/offer_book` }, new RegExp(`no PostgreSQL answers at 127\\.0\\.0\\.1:${port} .*start PostgreSQL`));
  });

  it("says in one line that the password in DATABASE_URL was refused", async () => {
    const url = new URL(passworded.adminUrl);
    url.password = "wrong";
    await failsWithOneLine({ ...PROGRAM, DATABASE_URL: url.toString() }, /refused the login: .*: correct the user and password in DATABASE_URL/);
  });

  it("says in one line that the database in DATABASE_URL does not exist", async () => {
    await failsWithOneLine({ ...PROGRAM, DATABASE_URL: withDatabase(inject("adminDatabaseUrl"), "no_such_database") }, /database "no_such_database" does not exist.*createdb/);
  });

  it("says in one line that the database has no tables yet", async () => {
    await failsWithOneLine({ ...PROGRAM, DATABASE_URL: passworded.adminUrl }, /no offer-book tables.*npm run db:migrate/);
  });

  it("names the missing configuration in one line, exit 2", async () => {
    await failsWithOneLine({ DATABASE_URL: database.url, SOLANA_RPC_URL: "", PROGRAM_ID: "" }, /needs SOLANA_RPC_URL, PROGRAM_ID/, 2);
  });

  it("names an invalid variable in one line, exit 2", async () => {
    await failsWithOneLine({ ...PROGRAM, DATABASE_URL: database.url, SCAN_BATCH_SIZE: "many" }, /invalid environment: SCAN_BATCH_SIZE: .*: correct or unset these variables/, 2);
  });

  it("waits for an RPC that does not answer, saying so once, and once more when it answers", async () => {
    const port = await portOutsideEphemeralRange(); // the cluster listens there only after many refused connects
    const metricsPort = await portOutsideEphemeralRange();
    const worker = startWorker({ DATABASE_URL: database.url, SOLANA_RPC_URL: `http://127.0.0.1:${port}`, PROGRAM_ID: PROGRAM.PROGRAM_ID, LOG_FORMAT: "json", WORKER_HEALTH_PORT: String(metricsPort) });
    workers.push(worker);
    const failing = () => worker.output().split("\n").filter((l) => l.includes("failing") && l.includes(`127.0.0.1:${port}`));
    await waitFor(async () => failing().length > 0, 60_000, () => worker.output());
    // Many retries (back-off from 250 ms), counted in /metrics, while the log says it once.
    await waitFor(async () => ((await workerMetric(metricsPort, "offer_book_worker_retries_total")) ?? 0) >= 4, 60_000, () => worker.output());
    expect(worker.child.exitCode).toBeNull();
    expect(failing(), worker.output()).toHaveLength(1);
    expect(failing()[0]).toMatch(/nothing answers|ECONNREFUSED/);
    expect(worker.output()).not.toMatch(/\n\s+at /);
    let cluster: LocalCluster | undefined;
    try {
      cluster = await startLocalCluster({ seed: "start-failures", history: 20, live: false, port, programId: undefined });
      await waitFor(async () => /answering again/.test(worker.output()), 60_000, () => worker.output());
    } finally {
      worker.kill("SIGTERM");
      await worker.exited;
      await cluster?.stop();
    }
  }, 120_000);
});
