import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../../lib/db/client";
import { listOffers, type OfferListParams } from "../../../lib/db/reads/offers";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { insertPlanOffers } from "../../helpers/plan-offers";

// GET /v1/offers' pages (lib/db/reads/offers.ts listOffers) over the offers'
// indexes, as the write path leaves them (drizzle/0014 dropped the one per
// side of the open offers): each status and filter is an index range in
// (created_at, pda) order, never a scan of offers, over 40,000 offers of 40
// tokens, 3 payment mints and 300 makers, most of the active ones past their
// expiry and flagged (the bulk of a real table). A page of one side's open
// offers walks the open offers' index and skips the other side's.

let database: TestDatabase;
let traced: postgres.Sql;
let db: Database;
const statements: { query: string; params: unknown[] }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const sql = database.db.$client;
  await insertPlanOffers(sql, { rows: 40_000 });
  await sql`vacuum analyze offers`;
  traced = postgres(database.url, { max: 1, onnotice: () => {}, debug: (_c, query, params) => statements.push({ query, params }) });
  db = drizzle(traced) as unknown as Database;
});

afterAll(async () => {
  await traced?.end();
  await database?.drop();
});

/** The plan of listOffers' statement for `p` (as text, or JSON with `options` "format json"). */
async function planOf(p: Omit<OfferListParams, "limit" | "offset">, options = "format text"): Promise<string> {
  statements.length = 0;
  await listOffers(db, { limit: 50, offset: 0, ...p });
  const { query, params } = statements.find((s) => s.query.includes("from offers o"))!;
  const rows = await database.db.$client.unsafe(`explain (${options}) ${query}`, params as string[]);
  return rows.map((r) => (typeof r["QUERY PLAN"] === "string" ? r["QUERY PLAN"] : JSON.stringify(r["QUERY PLAN"]))).join("\n");
}

interface PlanNode {
  "Node Type": string;
  "Parent Relationship"?: string;
  Plans?: PlanNode[];
}

/** The node types that evaluate a correlated subquery (an Offer's JSON is one, per row). */
function subPlanOwners(node: PlanNode): string[] {
  const children = node.Plans ?? [];
  const own = children.some((c) => c["Parent Relationship"] === "SubPlan") ? [node["Node Type"]] : [];
  return [...own, ...children.flatMap(subPlanOwners)];
}

describe("/v1/offers' pages over the offers' indexes", () => {
  it.each([
    [{ status: "open" }, /offers_open_created_idx/],
    [{ status: "open", side: "sell" }, /offers_open_created_idx/],
    [{ status: "open", tokenMint: "token-7" }, /offers_(open_token_created|lapse_due)_idx/],
    [{ status: "open", maker: "maker-11" }, /offers_(maker_created|lapse_due_maker)_idx/],
    [{ status: "filled" }, /offers_state_created_idx/],
    [{ status: "cancelled", tokenMint: "token-7" }, /offers_token_state_created_idx/],
    [{ status: "filled", paymentMint: "pay-1" }, /offers_payment_state_created_idx/],
    [{ status: "expired" }, /offers_lapsed_created_idx/],
  ] as const)("%j reads an index, no scan of offers", async (params, index) => {
    const plan = await planOf(params as Omit<OfferListParams, "limit" | "offset">);
    expect(plan, plan).toMatch(index);
    expect(plan, plan).not.toMatch(/Seq Scan on offers/);
  });

  // An Offer's JSON rendered inside the status branches was rendered for every
  // offer of the status before the sort (expired: 5 to 7 s a page at 1 M).
  it.each(["filled", "cancelled", "expired"] as const)("a by-price page of %s offers renders only the page's rows", async (status) => {
    const [plan] = JSON.parse(await planOf({ status, sort: "price" }, "format json")) as { Plan: PlanNode }[];
    expect(subPlanOwners(plan!.Plan), JSON.stringify(plan)).toEqual(["Aggregate"]);
  });
});
