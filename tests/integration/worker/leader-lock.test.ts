import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import pino from "pino";
import postgres from "postgres";
import { acquireLeadership, LockLostError, type Lease } from "../../../worker/leader-lock";
import { createOutageLog } from "../../../worker/outage";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";

// The scanner's one-writer rule on a real PostgreSQL: a write commits only on
// the session that holds the advisory lock, so a leader whose session died
// (or lost the lock any other way) cannot write, even before it notices.

let database: TestDatabase;
const log = pino({ level: "silent" });
const NAME = "offer-book-scanner:lock-test";
const leases: Lease[] = [];

const take = (signal = new AbortController().signal, onWaiting = () => {}) =>
  acquireLeadership({
    url: database.url,
    name: NAME,
    applicationName: "lock-test",
    signal,
    onWaiting,
    database: createOutageLog(log, "the database"),
  }).then((lease) => (lease && leases.push(lease), lease));

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.$client`create table lock_test_writes (writer text)`;
});

afterAll(async () => {
  for (const lease of leases) await lease.release();
  await database?.drop();
});

const writes = async () => (await database.db.$client`select writer from lock_test_writes`).map((r) => r.writer as string);

describe("the scanner lock", () => {
  it("lets one leader write while a second waits as a standby", async () => {
    const first = (await take())!;
    await first.write((tx) => tx`insert into lock_test_writes values ('first')`);
    const waiting = new AbortController();
    let standbyWaiting = false;
    const second = acquireLeadership({
      url: database.url,
      name: NAME,
      applicationName: "lock-test",
      signal: waiting.signal,
      onWaiting: () => (standbyWaiting = true),
      database: createOutageLog(log, "the database"),
    });
    await vi.waitFor(() => expect(standbyWaiting).toBe(true), { timeout: 60_000, interval: 20 });
    waiting.abort();
    expect(await second).toBeNull();
    await first.release();
    expect(await writes()).toEqual(["first"]);
  });

  it("refuses a write on a session whose backend was terminated, and a standby takes over", async () => {
    const old = (await take())!;
    const sql = database.db.$client;
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'lock-test' and pid <> pg_backend_pid()`;
    const successor = (await take())!;
    await successor.write((tx) => tx`insert into lock_test_writes values ('successor')`);
    await expect(old.write((tx) => tx`insert into lock_test_writes values ('old')`)).rejects.toThrow();
    expect(old.lost.aborted).toBe(true);
    expect(old.lost.reason).toBeInstanceOf(LockLostError);
    await successor.release();
    expect(await writes()).toEqual(["first", "successor"]);
  });

  it("refuses a write, and writes nothing of it, once its session no longer holds the lock", async () => {
    const lease = (await take())!;
    // Another party frees the lock under the leader (as a session ending would): the fence must notice.
    const [row] = await database.db.$client<{ key: string }[]>`select hashtext(${NAME})::bigint::text as key`;
    const key = row!.key;
    await lease.write(async (tx) => {
      await tx.unsafe(`select pg_advisory_unlock(${key}::bigint)`);
      return [];
    });
    await expect(lease.write((tx) => tx`insert into lock_test_writes values ('unlocked')`)).rejects.toThrow(/scanner lock/);
    expect(await writes()).toEqual(["first", "successor"]);
  });

  it("ends the wait when its signal aborts", async () => {
    const blocker = postgres(database.url, { max: 1, onnotice: () => {} });
    await blocker`select pg_advisory_lock(hashtext(${NAME}))`;
    const stop = new AbortController();
    // Aborted once it waits for the lock the blocker holds.
    expect(await take(stop.signal, () => stop.abort())).toBeNull();
    await blocker.end();
  });
});
