import { createInterface } from "node:readline/promises";
import { connect, disconnect } from "../lib/db/client";
import { migrateDatabase } from "../lib/db/migrate";
import { resolveDatabase } from "../platform/postgres/resolve";
import { env } from "../platform/env";
import { exitWithOneLine, StartupError } from "../platform/startup-error";
import { describeChain, emptyIndex, readChainIdentity } from "../lib/db/writes";

// `npm run db:reset -- --yes`: empties the index (offers, fills, aggregates,
// checkpoint, recorded chain) of whichever database is in use, so a worker
// can index another chain into it. Asks first on a terminal; needs --yes
// otherwise.

async function confirmed(name: string): Promise<boolean> {
  if (process.argv.includes("--yes")) return true;
  if (!process.stdin.isTTY) throw new StartupError(`db:reset empties the index of database ${name}`, "run `npm run db:reset -- --yes` to confirm");
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await prompt.question(`Empty every offer, fill and stat of database ${name}? Type "yes": `);
  prompt.close();
  return answer.trim() === "yes";
}

let stopEmbedded: (() => Promise<void>) | undefined;
try {
  const database = await resolveDatabase(env().DATABASE_URL);
  stopEmbedded = database.embedded && (() => database.embedded!.stop());
  const name = new URL(database.url).pathname.slice(1);
  await migrateDatabase(database.url);
  if (await confirmed(name)) {
    const db = connect(database.url, { max: 1, applicationName: "offer-book-reset" });
    try {
      const recorded = await readChainIdentity(db.$client);
      await emptyIndex(db.$client);
      console.log(`emptied the index of database ${name}${recorded ? ` (it held ${describeChain(recorded)})` : ""}`);
    } finally {
      await disconnect(db);
    }
  } else {
    console.log("nothing emptied");
  }
  await stopEmbedded?.();
} catch (error) {
  await stopEmbedded?.().catch(() => {});
  exitWithOneLine("db:reset", error);
}
