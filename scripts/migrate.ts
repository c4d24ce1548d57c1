import { migrateDatabase } from "../lib/db/migrate";
import { resolveDatabase } from "../lib/db/resolve";
import { env } from "../lib/env";

const database = await resolveDatabase(env().DATABASE_URL, (line) => console.error(line));
try {
  await migrateDatabase(database.url);
  console.log(`migrations applied to ${new URL(database.url).pathname.slice(1)}`);
} finally {
  await database.embedded?.stop();
}
