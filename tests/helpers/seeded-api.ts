import { afterAll, beforeAll } from "vitest";
import { insertOffer, recordFills, type NewFill, type NewOffer } from "../../lib/db/writes/index";
import { createTestDatabase, type TestDatabase } from "./database";
import { startWebServer, type WebServer } from "./server";

/** The database client of a TestDatabase: tagged SQL for seeding and for looking at plans. */
export type TestSql = TestDatabase["db"]["$client"];

export interface SeededApi {
  /** The web server of the suite; usable in tests and hooks after the suite's beforeAll. */
  server: WebServer;
  sql(): TestSql;
}

/**
 * An API suite's fixture, set up in its beforeAll and torn down in its
 * afterAll: a database of its own holding the offers and fills (written
 * through the write path, so the triggers keep every aggregate), and the
 * production web server in front of it.
 */
export function seededApi({ offers, fills = [] }: { offers: readonly NewOffer[]; fills?: readonly NewFill[] }): SeededApi {
  let database: TestDatabase | undefined;
  let started: WebServer | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    const sql = database.db.$client;
    for (const offer of offers) await insertOffer(sql, offer);
    if (fills.length > 0) await recordFills(sql, fills);
    started = await startWebServer({ DATABASE_URL: database.url });
  });

  afterAll(async () => {
    await started?.stop();
    await database?.drop();
  });

  const running = (): WebServer => {
    if (!started) throw new Error("the suite's web server is not started yet (seededApi's beforeAll has not run)");
    return started;
  };
  // The server exists only once beforeAll has run; the suite holds this stand-in from its first line.
  const server = new Proxy({} as WebServer, {
    get(_, key: keyof WebServer) {
      const target = running();
      const value = target[key];
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    server,
    sql() {
      if (!database) throw new Error("the suite's database is not made yet (seededApi's beforeAll has not run)");
      return database.db.$client;
    },
  };
}
