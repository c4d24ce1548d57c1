import type { ChildProcess } from "node:child_process";
import { accessSync, constants, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, disconnect, type Database } from "../../../lib/db/client";
import { asPostgres, chownToPostgres, freePort, startChild, stopChild, tcpOpen, waitFor } from "../../../scripts/scale/engines";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";

// The one-flight statements (patches/postgres+*.patch) are what a pooled web
// sends through PgBouncer in transaction mode, each ending in its own Sync,
// so PgBouncer may hand the next to another server connection. This pins, on
// Debian's PgBouncer (1.18) with two server connections under twenty
// clients, that every answer is its own query's, errors included, and none
// is lost, statements described before they are bound among them. Skipped where PgBouncer is not
// installed, unless OFFER_BOOK_SCALE_ENGINES=required (CI).

const PGBOUNCER = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find((p) => {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
});
const required = process.env.OFFER_BOOK_SCALE_ENGINES === "required";

describe.skipIf(!PGBOUNCER && !required)("pipelined one-flight statements through PgBouncer in transaction mode", () => {
  let database: TestDatabase;
  let bouncer: ChildProcess | undefined;
  let clients: Database[] = [];
  const log: string[] = [];

  beforeAll(async () => {
    if (!PGBOUNCER) throw new Error("pgbouncer is not installed: apt-get install pgbouncer");
    database = await createTestDatabase({ migrate: false });
    const target = new URL(database.url);
    const dbName = target.pathname.slice(1);
    const dir = mkdtempSync(path.join(os.tmpdir(), "offer-book-pgbouncer-test-"));
    const port = await freePort();
    // PgBouncer logs into the server with the password the userlist gives (the embedded server's, or none over trust).
    const user = decodeURIComponent(target.username || "postgres");
    writeFileSync(path.join(dir, "userlist.txt"), `"${user}" "${decodeURIComponent(target.password)}"\n`);
    writeFileSync(
      path.join(dir, "pgbouncer.ini"),
      [
        "[databases]",
        `${dbName} = host=${target.hostname} port=${target.port || 5432} dbname=${dbName} user=${user}`,
        "[pgbouncer]",
        "listen_addr = 127.0.0.1",
        `listen_port = ${port}`,
        "unix_socket_dir =",
        "auth_type = trust",
        `auth_file = ${dir}/userlist.txt`,
        "pool_mode = transaction",
        "max_client_conn = 100",
        "default_pool_size = 2",
        "max_db_connections = 2",
        "log_connections = 0",
        "log_disconnections = 0",
      ].join("\n") + "\n",
    );
    await chownToPostgres(dir);
    const [command, args] = asPostgres(PGBOUNCER, [path.join(dir, "pgbouncer.ini")]);
    bouncer = startChild(command, args, process.env, (line) => log.push(line));
    await waitFor("pgbouncer", () => tcpOpen(port));
    const pooledUrl = new URL(database.url);
    pooledUrl.port = String(port);
    clients = Array.from({ length: 20 }, () => connect(pooledUrl.toString(), { pooled: true, max: 2, applicationName: "pgbouncer-test" }));
  });
  afterAll(async () => {
    await Promise.all(clients.map(disconnect));
    await stopChild(bouncer);
    await database?.drop();
  });

  it("answers every statement with its own rows or its own error", async () => {
    const outcomes = await Promise.all(
      clients.flatMap((db, c) =>
        Array.from({ length: 60 }, async (_, i) => {
          const k = c * 1000 + i;
          const sql = db.$client;
          if (i % 7 === 3) {
            const error = await sql`select ${`x${k}`}::int as k`.then(() => undefined, (e: Error & { code?: string }) => e);
            return error?.code === "22P02" && error.message.includes(`"x${k}"`);
          }
          const [row] = await sql`select ${k}::int as k, ${`w${k}`} as w, ${String(k)}::numeric * ${"0.5"} as half`;
          return row!.k === k && row!.w === `w${k}` && row!.half === String(k * 0.5).replace(/^(\d+)$/, "$1.0");
        }),
      ),
    );
    expect(outcomes.filter((ok) => !ok)).toHaveLength(0);
    expect(outcomes).toHaveLength(20 * 60);
  });

  // A statement with an array parameter is described before it is bound (a
  // Parse, Describe and Flush, no Sync). Sent behind another statement on the
  // same client connection, PgBouncer 1.18 let go of the server at that
  // statement's ReadyForQuery and dropped the description ("got packet '1'
  // from server when not linked"): the query waited for ever (a stream's
  // backlog read, in bench:scale's 1,000 streams). Pooled connections send
  // one statement at a time (lib/db/client.ts).
  it("answers statements described before they are bound, among others on the same connections", async () => {
    const outcomes = await Promise.all(
      clients.flatMap((db, c) =>
        Array.from({ length: 30 }, async (_, i) => {
          const k = c * 1000 + i;
          const sql = db.$client;
          if (i % 2 === 0) {
            const [row] = await sql`select ${k}::int as k`;
            return row!.k === k;
          }
          const [row] = await sql`select count(*)::int as n from unnest(${[`a${k}`, `b${k}`]}::text[]) v where v = any(${[`b${k}`]}::text[])`;
          return row!.n === 1;
        }),
      ),
    );
    expect(outcomes.filter((ok) => !ok)).toHaveLength(0);
  }, 30_000);
});
