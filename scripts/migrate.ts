import { databaseStartupError } from "../platform/postgres/connect-error";
import { migrateDatabase } from "../lib/db/migrate";
import { resolveDatabase } from "../platform/postgres/resolve";
import { env } from "../platform/env";
import { exitWithOneLine } from "../platform/startup-error";

// `npm run db:migrate`: applies drizzle/ to DATABASE_URL, or to the embedded
// cluster of this checkout. Any failure is one line and a non-zero exit.
try {
  const configured = env().DATABASE_URL;
  const database = await resolveDatabase(configured, (line) => console.error(line));
  try {
    await migrateDatabase(database.url).catch((error) => {
      throw databaseStartupError(database.url, error, configured ? "DATABASE_URL" : "the embedded database");
    });
    console.log(`migrations applied to ${new URL(database.url).pathname.slice(1)}`);
  } finally {
    await database.embedded?.stop();
  }
} catch (error) {
  exitWithOneLine("db:migrate", error);
}
