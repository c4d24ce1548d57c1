import { writeFileSync } from "node:fs";
import postgres from "postgres";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "./embedded";
import { EMBEDDED_URL_FILE, embeddedDatabaseUrl } from "./embedded-url";
import { isPostgresProcess, readPostmasterPid } from "./postmaster";
import { dataDir } from "../data-dir";

/** Where `npm start` keeps the embedded cluster, and the file that says how to reach it. */
export const EMBEDDED_DATA_DIR = dataDir("pg");
export const EMBEDDED_DATABASE = "offer_book";

export interface ResolvedDatabase {
  url: string;
  /** Set when this process started the embedded cluster and must stop it. */
  embedded?: EmbeddedDatabase;
}

async function reachable(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

export async function createDatabaseIfMissing(adminUrl: string, name: string): Promise<string> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`select 1 as found from pg_database where datname = ${name}`;
    if (!row) await sql.unsafe(`create database "${name}"`);
  } finally {
    await sql.end({ timeout: 1 });
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * `DATABASE_URL` when set; otherwise the embedded cluster under `.data/`:
 * the one already running for this checkout, or a new one started here.
 */
export async function resolveDatabase(
  databaseUrl: string | undefined,
  log: (line: string) => void = () => {},
): Promise<ResolvedDatabase> {
  if (databaseUrl) return { url: databaseUrl };
  const running = embeddedDatabaseUrl();
  if (running && (await reachable(running))) return { url: running };
  // The URL file is gone or stale but a server runs on the data directory: its port is in postmaster.pid.
  const postmaster = readPostmasterPid(EMBEDDED_DATA_DIR);
  if (postmaster && isPostgresProcess(postmaster.pid)) {
    const url = `postgres://postgres:postgres@127.0.0.1:${postmaster.port}/${EMBEDDED_DATABASE}`;
    if (await reachable(url)) {
      writeFileSync(EMBEDDED_URL_FILE, `${url}\n`);
      return { url };
    }
  }
  const embedded = await startEmbeddedPostgres({ dataDir: EMBEDDED_DATA_DIR, persistent: true, log });
  const url = await createDatabaseIfMissing(embedded.adminUrl, EMBEDDED_DATABASE);
  writeFileSync(EMBEDDED_URL_FILE, `${url}\n`);
  return { url, embedded };
}
