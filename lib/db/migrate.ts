import { migrate } from "drizzle-orm/postgres-js/migrator";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { connect, disconnect } from "./client";

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../drizzle");

/**
 * Applies every pending migration in `drizzle/`; safe to run at every start.
 * The functions and triggers they leave are in lib/db/sql, one file each.
 */
export async function migrateDatabase(url: string): Promise<void> {
  const db = connect(url, { max: 1, applicationName: "offer-book-migrate" });
  try {
    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await disconnect(db);
  }
}
