import type postgres from "postgres";
import type { Database } from "../client";
import type { OfferStatus, Side } from "../../offer-status";
import { offers } from "../schema/offers";
import { decodeOfferCursor, encodeOfferCursor } from "./cursor";
import { csvHeader, csvLine, csvLines } from "./csv";
import { columnsOf, field, jsonObject } from "./fields";
import { and, listBody, type PageParams } from "./page";
import { lapsedUnflagged, openOffer } from "./open-offer";

const o = columnsOf(offers, "o");

/** The API status: the on-chain state, with an active offer past its expiry shown as expired. */
const OFFER_STATUS = `(case ${o.state}
  when 'active' then case when ${o.expiresAt} > now() then 'open' else 'expired' end
  when 'filled' then 'filled'
  when 'cancelled' then 'cancelled'
  else 'expired' end)`;

/** The Offer (/v1/offers, /v1/offers/:pda, the stream's offer events), over a row `o` of offers. */
export const OFFER_FIELDS = {
  pda: field("address", o.pda),
  maker: field("address", o.maker),
  tokenMint: field("address", o.tokenMint),
  paymentMint: field("address", o.paymentMint),
  side: field("side", o.side),
  nonce: field("amount", o.nonce),
  originalSize: field("amount", o.originalSize),
  remainingSize: field("amount", o.remainingSize),
  pricePerToken: field("amount", o.pricePerToken),
  priceScale: field("uint", o.priceScale),
  minFill: field("amount", o.minFill),
  createdAt: field("time", o.createdAt),
  expiresAt: field("time", o.expiresAt),
  status: field("offerStatus", OFFER_STATUS),
  lastSlot: field("slot", o.lastSlot),
  indexedAt: field("time", o.indexedAt),
};

/** An Offer's JSON over a row `o` of offers. */
export const OFFER_JSON = jsonObject(OFFER_FIELDS);

export interface OfferFilters {
  status: OfferStatus;
  maker?: string;
  tokenMint?: string;
  paymentMint?: string;
  side?: Side;
}

export interface OfferListParams extends OfferFilters, PageParams {
  /** `price`: the book view, best price first on each side (docs/api.md#paging-and-order). */
  sort?: "created" | "price";
}

type Fragment = postgres.PendingQuery<postgres.Row[]>;

/**
 * Each status as row sets that an index serves in (created_at, pda) order,
 * merged rather than one scan filtered and sorted. An active offer past its
 * expiry shows as expired; the lapse job flags such offers (`lapsed`, only
 * ever set once expires_at <= now()), so "open" walks the unflagged active
 * offers and "expired" is cranked offers, flagged ones, and the few past
 * expiry that the job has not flagged yet: exact whether or not it has run.
 */
function statusBranches(sql: postgres.Sql, status: OfferStatus): Fragment[] {
  switch (status) {
    case "open":
      return [sql.unsafe(openOffer("o"))];
    case "filled":
      return [sql`state = 'filled'`];
    case "cancelled":
      return [sql`state = 'cancelled'`];
    case "expired":
      return [
        sql`state = 'expired'`,
        sql`state = 'active' and lapsed`,
        // Few rows, found through offers_lapse_due_idx; as an array (which the
        // planner takes for a handful) so no plan walks the open offers for them.
        sql.unsafe(`${lapsedUnflagged("o")} and o.pda = any(array(select x.pda from offers x where ${lapsedUnflagged("x")}))`),
      ];
  }
}

function filterConditions(sql: postgres.Sql, f: OfferFilters): Fragment[] {
  const conditions: Fragment[] = [];
  if (f.maker) conditions.push(sql`maker = ${f.maker}`);
  if (f.tokenMint) conditions.push(sql`token_mint = ${f.tokenMint}`);
  if (f.paymentMint) conditions.push(sql`payment_mint = ${f.paymentMint}`);
  if (f.side) conditions.push(sql`side = ${f.side}`);
  return conditions;
}

const NEWEST_FIRST = "created_at desc nulls last, pda desc nulls last";

/** GET /v1/offers (and /v1/makers/:maker/offers): the response body as JSON text. */
export async function listOffers(db: Database, p: OfferListParams): Promise<string> {
  const sql = db.$client;
  const filters = filterConditions(sql, p);
  if (p.sort === "price") return listOffersByPrice(sql, p, filters);

  const after = p.cursor ? decodeOfferCursor(p.cursor) : undefined;
  if (after) filters.push(sql`(created_at, pda) < (to_timestamp(${after.createdAt}), ${after.pda})`);
  const window = p.limit + p.offset;
  const branches = statusBranches(sql, p.status).map(
    (status) => sql`(select created_at, pda, ${sql.unsafe(OFFER_JSON)} as j from offers o
      where ${and(sql, [status, ...filters])}
      order by ${sql.unsafe(NEWEST_FIRST)} limit ${window})`,
  );
  const union = branches.reduce((all, next) => sql`${all} union all ${next}`);
  const [row] = await sql`
    select coalesce(json_agg(j order by ${sql.unsafe(NEWEST_FIRST)}), '[]')::text as items,
      count(*)::int as n,
      min(extract(epoch from created_at)::bigint) as last_created,
      (array_agg(pda order by created_at asc, pda asc))[1] as last_pda
    from (select * from (${union}) u order by ${sql.unsafe(NEWEST_FIRST)} limit ${p.limit} offset ${p.offset}) page`;
  const next =
    row && row.n === p.limit ? encodeOfferCursor({ createdAt: Number(row.last_created), pda: String(row.last_pda) }) : null;
  return listBody("offers", row?.items ?? "[]", p, next);
}

/**
 * The book's order (asks by ascending price, bids by descending price; at
 * one price, the older offer first) as keys an index can serve in one
 * ascending walk: a bid's price negated, so descending (price is never null:
 * it is generated from two not-null columns). BOOK_PRICE is over a row of
 * offers; BOOK_KEYS over a row that names it book_price beside side,
 * created_at and pda (a page's, an export's under its own prefix).
 */
const BOOK_PRICE = "(case when side = 'buy' then -price else price end)";
const BOOK_KEYS = "side, book_price, created_at, pda";

/**
 * The page's keys first, each status branch cut to the page's window in the
 * book's order and the branches merged, then the JSON of the page's rows
 * only: rendered in each branch, every offer of the status was rendered
 * before the sort (expired, three branches, 2.5 to 8.5 s at 1 M, against
 * 0.45 s now; docs/benchmarks-api.md). No index serves a closed status in
 * price order, so each branch still sorts its rows (a top-N sort).
 */
async function listOffersByPrice(sql: postgres.Sql, p: OfferListParams, filters: Fragment[]): Promise<string> {
  const window = p.limit + p.offset;
  const branches = statusBranches(sql, p.status).map(
    (status) => sql`(select side, ${sql.unsafe(BOOK_PRICE)} as book_price, created_at, pda from offers o
      where ${and(sql, [status, ...filters])}
      order by ${sql.unsafe(BOOK_KEYS)} limit ${window})`,
  );
  const union = branches.reduce((all, next) => sql`${all} union all ${next}`);
  const [row] = await sql`
    select coalesce(json_agg(${sql.unsafe(OFFER_JSON)} order by ${sql.unsafe(BOOK_KEYS.replace(/\w+/g, "page.$&"))}), '[]')::text as items
    from (select * from (${union}) u order by ${sql.unsafe(BOOK_KEYS)} limit ${p.limit} offset ${p.offset}) page
    join offers o on o.pda = page.pda`;
  return listBody("offers", row?.items ?? "[]", p, null);
}

/** GET /v1/offers/:pda: the Offer's JSON text, or undefined when the indexer has never seen it. */
export async function getOffer(db: Database, pda: string): Promise<string | undefined> {
  const sql = db.$client;
  const [row] = await sql`select ${sql.unsafe(OFFER_JSON)}::text as j from offers o where pda = ${pda}`;
  return row?.j;
}

const OFFER_CSV_LINE = csvLine(OFFER_FIELDS);

/**
 * GET /v1/offers as CSV: every offer the status and filters select, after
 * `cursor` when given, newest first (or in the book's order with sort=price),
 * an Offer's fields as columns: the page's merge of status branches without
 * its limit.
 */
export function exportOffers(db: Database, p: OfferFilters & { sort?: "created" | "price"; cursor?: string }): AsyncGenerator<Buffer> {
  const after = p.cursor ? decodeOfferCursor(p.cursor) : undefined;
  // The sort keys, selected beside each branch's line under names of their own (the outer sort reads them).
  const keyed = (p.sort === "price" ? BOOK_KEYS : NEWEST_FIRST).replace(/\b(side|book_price|created_at|pda)\b/g, "k_$1");
  const query = (sql: postgres.Sql) => {
    const filters = filterConditions(sql, p);
    if (after) filters.push(sql`(created_at, pda) < (to_timestamp(${after.createdAt}), ${after.pda})`);
    const branches = statusBranches(sql, p.status).map(
      (status) => sql`(select side as k_side, ${sql.unsafe(BOOK_PRICE)} as k_book_price, created_at as k_created_at, pda as k_pda,
        ${sql.unsafe(OFFER_CSV_LINE)} as line from offers o where ${and(sql, [status, ...filters])} order by ${sql.unsafe(keyed)})`,
    );
    const union = branches.reduce((all, next) => sql`${all} union all ${next}`);
    return sql`select line from (${union}) u order by ${sql.unsafe(keyed)}`;
  };
  return csvLines(db.$client, query, csvHeader(OFFER_FIELDS));
}
