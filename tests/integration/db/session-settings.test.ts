import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, disconnect, type Database } from "../../../lib/db/client";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";

// What every direct connection sets for its session (lib/db/client.ts): the
// web's bound on a statement's time, and no JIT, whose compile time a short
// read would pay past jit_above_cost. Pooled connections get the same from
// PgBouncer (tests/integration/scale/topology.test.ts).

let database: TestDatabase;
let web: Database;
let worker: Database;

beforeAll(async () => {
  database = await createTestDatabase({ migrate: false });
  web = connect(database.url, { max: 1, statementTimeoutMs: 10_000 });
  worker = connect(database.url, { max: 1 });
});
afterAll(async () => {
  await Promise.all([web, worker].filter(Boolean).map(disconnect));
  await database?.drop();
});

const settings = async (db: Database) =>
  (await db.$client`select current_setting('jit') as jit, current_setting('statement_timeout') as timeout`)[0];

describe("a direct connection's session", () => {
  it("runs with JIT off and the web's statement bound", async () => {
    expect(await settings(web)).toEqual({ jit: "off", timeout: "10s" });
  });

  it("runs with JIT off and no bound where none is asked (the worker)", async () => {
    expect(await settings(worker)).toEqual({ jit: "off", timeout: "0" });
  });
});
