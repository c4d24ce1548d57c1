import { readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { mintIsTraded } from "../lib/adapters/dextools";
import type { Database } from "../lib/db/client";
import { migrateDatabase } from "../lib/db/migrate";
import { listOffers, type OfferListParams } from "../lib/db/reads/offers";
import { startEmbeddedPostgres } from "../platform/postgres/embedded";
import { createDatabaseIfMissing } from "../platform/postgres/resolve";
import { insertPlanOffers } from "../tests/helpers/plan-offers";
import { log, ROOT } from "./harness";

// npm run bench:offer-plans — the reads of offers at scale, before and after a
// change of its indexes: OFFER_PLANS_ROWS (1,000,000) of the plan test's
// offers (tests/helpers/plan-offers.ts; tests/integration/db/offer-list-plans
// .test.ts reads 40,000), plus a rare token, payment mint and maker; then, for
// GET /v1/offers' every status, filter and sort (listOffers) and DEXTools'
// mintIsTraded, the indexes the plan reads, a sequential scan if any, and the
// execution time (EXPLAIN ANALYZE, median of 3). OFFER_PLANS_VARIANT=file.sql
// is run (then ANALYZE) before the plans: run once without and once with it,
// over the same table (OFFER_PLANS_BUILD=0 keeps the table of the previous
// run; a variant's changes stay with it). OFFER_PLANS_ADMIN_URL plans on
// another server (the embedded one otherwise). Written for issue 21's index
// trials (session 19).

const ROWS = Number(process.env.OFFER_PLANS_ROWS ?? 1_000_000);
const BUILD = process.env.OFFER_PLANS_BUILD !== "0";
const VARIANT = process.env.OFFER_PLANS_VARIANT;
const NAME = "offer_plans";

const embedded = process.env.OFFER_PLANS_ADMIN_URL
  ? null
  : await startEmbeddedPostgres({ dataDir: path.join(ROOT, ".data/bench-offer-plans-pg"), persistent: true });
const adminUrl = process.env.OFFER_PLANS_ADMIN_URL ?? embedded!.adminUrl;

/** The plan test's offers at ROWS, most active ones past expiry and flagged (but the last hour's); one in 5,000 of a rare token, payment mint or maker. */
async function build(): Promise<string> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${NAME} with (force)`);
  await admin.end();
  const url = await createDatabaseIfMissing(adminUrl, NAME);
  await migrateDatabase(url);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  // The aggregates' triggers are not what is measured, and would take most of the build.
  await sql.unsafe("alter table offers disable trigger user");
  await insertPlanOffers(sql, { rows: ROWS, rareOneIn: 5000, flagLagMinutes: 60 });
  await sql.unsafe("alter table offers enable trigger user");
  await sql.unsafe("vacuum analyze offers");
  await sql.end();
  return url;
}

interface Explained {
  ms: number;
  indexes: string;
}

/** `query`'s median execution time over 3 runs and the indexes its plan reads (" SEQ" when it scans offers whole). */
async function explain(sql: postgres.Sql, query: string, params: unknown[]): Promise<Explained> {
  const times: number[] = [];
  let plan = "";
  for (let i = 0; i < 3; i++) {
    const rows = await sql.unsafe(`explain (analyze, format json) ${query}`, params as string[]);
    const [top] = rows[0]!["QUERY PLAN"] as { "Execution Time": number; Plan: unknown }[];
    times.push(top!["Execution Time"]);
    plan = JSON.stringify(top!.Plan);
  }
  const indexes = [...new Set([...plan.matchAll(/"Index Name":"(\w+)"/g)].map((m) => m[1]))].sort().join(",");
  return { ms: times.sort((a, b) => a - b)[1]!, indexes: indexes + (plan.includes('"Node Type":"Seq Scan"') ? " SEQ" : "") };
}

const FILTERS: Partial<OfferListParams>[] = [
  {},
  { tokenMint: "token-7" },
  { tokenMint: "token-rare" },
  { paymentMint: "pay-1" },
  { paymentMint: "pay-rare" },
  { maker: "maker-11" },
  { maker: "maker-rare" },
  { side: "sell" },
  { tokenMint: "token-7", paymentMint: "pay-1" },
  { tokenMint: "token-rare", paymentMint: "pay-1" },
];

try {
  // Without a build, the previous run's table (createDatabaseIfMissing only names it then).
  const url = BUILD ? await build() : await createDatabaseIfMissing(adminUrl, NAME);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  if (VARIANT) {
    await sql.unsafe(readFileSync(path.resolve(VARIANT), "utf8"));
    await sql.unsafe("analyze offers");
  }
  const sizes = await sql<{ name: string; mb: string }[]>`
    select indexrelname as name, round(pg_relation_size(indexrelid) / 1e6, 1)::text as mb
    from pg_stat_user_indexes where relname = 'offers' order by 1`;
  log(`${ROWS.toLocaleString()} offers${VARIANT ? `, after ${VARIANT}` : ""}; indexes (MB): ${sizes.map((s) => `${s.name} ${s.mb}`).join(", ")}`);
  // The statements as listOffers and mintIsTraded send them, caught on the way out and explained with their parameters.
  const sent: { query: string; params: unknown[] }[] = [];
  const traced = postgres(url, { max: 1, onnotice: () => {}, debug: (_c, query, params) => sent.push({ query, params }) });
  const db = drizzle(traced) as unknown as Database;
  const lastSent = (marker: string) => sent.filter((s) => s.query.includes(marker)).at(-1)!;
  for (const sort of ["created", "price"] as const) {
    for (const status of ["open", "filled", "cancelled", "expired"] as const) {
      for (const filter of FILTERS) {
        await listOffers(db, { limit: 50, offset: 0, status, sort, ...filter } as OfferListParams);
        const { query, params } = lastSent("from offers o");
        const e = await explain(sql, query, params);
        console.log(`${sort}\t${status}\t${JSON.stringify(filter)}\t${e.ms.toFixed(2)} ms\t${e.indexes}`);
      }
    }
  }
  for (const mint of ["token-rare", "pay-rare", "not-traded"]) {
    await mintIsTraded(db, mint);
    const { query, params } = lastSent("payment_mint");
    const e = await explain(sql, query, params);
    console.log(`mintIsTraded\t${mint}\t\t${e.ms.toFixed(2)} ms\t${e.indexes}`);
  }
  await traced.end();
  await sql.end();
} finally {
  await embedded?.stop();
}
