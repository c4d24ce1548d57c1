import postgres from "postgres";
import { seedExplorer } from "./seed";

// Development: `DATABASE_URL=… npx tsx tests/e2e/seed-cli.ts` writes the e2e seed into a migrated database.
const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL is required");
const sql = postgres(url, { max: 1, onnotice: () => {} });
const seeded = await seedExplorer(sql);
console.log(`seeded ${seeded.offers.length} offers and ${seeded.fills} fills`);
await sql.end();
