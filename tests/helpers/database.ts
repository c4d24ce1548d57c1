import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { inject } from "vitest";
import { connect, disconnect, type Database } from "../../lib/db/client";
import { migrateDatabase } from "../../lib/db/migrate";

export interface TestDatabase {
  url: string;
  db: Database;
  drop(): Promise<void>;
}

function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A new, migrated database (unless `migrate: false`) of its own for one suite, dropped at the end. */
export async function createTestDatabase({ migrate = true }: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = inject("adminDatabaseUrl");
  const name = `test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = withDatabase(adminUrl, name);
  if (migrate) await migrateDatabase(url);
  const db = connect(url, { max: 4, applicationName: "tests" });
  return {
    url,
    db,
    async drop() {
      await disconnect(db);
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 2 });
    },
  };
}
