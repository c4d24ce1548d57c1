import type postgres from "postgres";
import type { Database } from "../client";
import { fills } from "../schema/fills";
import { decodeFillCursor, encodeFillCursor } from "./cursor";
import { csvHeader, csvLine, csvLines } from "./csv";
import { columnsOf, field, jsonObject, pickFields } from "./fields";
import { and, listBody, type PageParams } from "./page";

const o = columnsOf(fills, "o");

/** A row of the global feed (/v1/fills, the stream's fill events), with the extensions ixIndex and maker, over a row `o` of fills. */
export const FILL_FIELDS = {
  signature: field("signature", o.signature),
  ixIndex: field("uint", o.ixIndex),
  offerPda: field("address", o.offerPda),
  maker: field("address", o.maker),
  taker: field("address", o.taker),
  fillAmount: field("amount", o.fillAmount),
  paymentAmount: field("amount", o.paymentAmount),
  feeAmount: field("amount", o.feeAmount),
  blockTime: field("time", o.blockTime),
  slot: field("slot", o.slot),
  tokenMint: field("address", o.tokenMint),
  paymentMint: field("address", o.paymentMint),
  side: field("side", o.side),
};

/** A row of one offer's history (/v1/offers/:pda/fills): the contract's seven fields and ixIndex; the offer gives the rest. */
export const OFFER_FILL_FIELDS = pickFields(FILL_FIELDS, [
  "signature",
  "ixIndex",
  "taker",
  "fillAmount",
  "paymentAmount",
  "feeAmount",
  "blockTime",
  "slot",
]);

/** A Fill's JSON over a row `o` of fills. */
export const FILL_JSON = jsonObject(FILL_FIELDS);
const OFFER_FILL_JSON = jsonObject(OFFER_FILL_FIELDS);

export interface FillFilters {
  taker?: string;
  maker?: string;
  offerPda?: string;
  tokenMint?: string;
  paymentMint?: string;
  /** Unix seconds, inclusive. */
  fromTime?: number;
  toTime?: number;
}

type Fragment = postgres.PendingQuery<postgres.Row[]>;

/** The origin of fill_slot_bounds' minutes (lib/db/sql/functions/fills_aggregate_statement.sql); date_bin ignores the session time zone. */
const BIN_ORIGIN = "2000-01-01T00:00:00Z";

/** The conditions of a fill filter over `fills` (unaliased), time windows bounded in slots; shared with the aggregator adapters. */
export function fillFilterConditions(sql: postgres.Sql, f: FillFilters): Fragment[] {
  const conditions: Fragment[] = [];
  if (f.offerPda) conditions.push(sql`offer_pda = ${f.offerPda}`);
  if (f.taker) conditions.push(sql`taker = ${f.taker}`);
  if (f.maker) conditions.push(sql`maker = ${f.maker}`);
  if (f.tokenMint) conditions.push(sql`token_mint = ${f.tokenMint}`);
  if (f.paymentMint) conditions.push(sql`payment_mint = ${f.paymentMint}`);
  // A block-time window also bounds the slots, so the walk down a slot-ordered
  // index starts and stops at the window instead of filtering the whole feed:
  // fill_slot_bounds gives, in one index probe per end, a slot range that holds
  // every fill of the window (block time need not follow slot order; the bounds
  // are monotone envelopes). The block_time conditions keep the rows exact.
  if (f.fromTime !== undefined) {
    conditions.push(sql`block_time >= to_timestamp(${f.fromTime})`);
    conditions.push(sql`slot >= (select slot_floor from fill_slot_bounds
      where minute >= date_bin('1 minute', to_timestamp(${f.fromTime}), ${BIN_ORIGIN}::timestamptz) order by minute limit 1)`);
  }
  if (f.toTime !== undefined) {
    conditions.push(sql`block_time <= to_timestamp(${f.toTime})`);
    conditions.push(sql`slot <= (select slot_ceiling from fill_slot_bounds
      where minute <= date_bin('1 minute', to_timestamp(${f.toTime}), ${BIN_ORIGIN}::timestamptz) order by minute desc limit 1)`);
  }
  return conditions;
}

/** The feed's order, newest first; every fills index ends in it. */
export const FILL_FEED_ORDER = "slot desc nulls last, signature desc nulls last, ix_index desc nulls last";
const NEWEST_FIRST = FILL_FEED_ORDER;

/** The filters' conditions, and the cursor's: the rows after it in the feed's order. */
function pageConditions(sql: postgres.Sql, filters: FillFilters, cursor: string | undefined): Fragment[] {
  const conditions = fillFilterConditions(sql, filters);
  if (cursor) {
    const after = decodeFillCursor(cursor);
    conditions.push(sql`(slot, signature, ix_index) < (${after.slot.toString()}::bigint, ${after.signature}, ${after.ixIndex}::int)`);
  }
  return conditions;
}

/**
 * A page of fills as the response body's text, and whether `knownOffer` (if
 * given) is known to the indexer, asked in the same statement: an offer
 * without fills is an empty page, an unknown one a 404, in one round trip
 * where a second query for the offer cost every request.
 */
async function fillPage(db: Database, rowJson: string, filters: FillFilters, page: PageParams, knownOffer?: string): Promise<{ body: string; known: boolean }> {
  const sql = db.$client;
  const conditions = pageConditions(sql, filters, page.cursor);
  const [row] = await sql`
    select coalesce(json_agg(j order by ${sql.unsafe(NEWEST_FIRST)}), '[]')::text as items,
      count(*)::int as n,
      (array_agg(array[slot::text, signature, ix_index::text] order by slot asc, signature asc, ix_index asc))[1:1] as last,
      ${knownOffer === undefined ? sql`true` : sql`exists (select 1 from offers where pda = ${knownOffer})`} as known
    from (
      select slot, signature, ix_index, ${sql.unsafe(rowJson)} as j from fills o
      where ${and(sql, conditions)}
      order by ${sql.unsafe(NEWEST_FIRST)} limit ${page.limit} offset ${page.offset}
    ) page`;
  const last = row?.last?.[0] as string[] | undefined;
  const next =
    row && row.n === page.limit && last
      ? encodeFillCursor({ slot: BigInt(last[0]!), signature: last[1]!, ixIndex: Number(last[2]) })
      : null;
  return { body: listBody("fills", row?.items ?? "[]", page, next), known: row?.known !== false };
}

/** GET /v1/fills: the response body as JSON text. */
export async function listFills(db: Database, params: FillFilters & PageParams): Promise<string> {
  return (await fillPage(db, FILL_JSON, params, params)).body;
}

/** GET /v1/offers/:pda/fills: one offer's history, newest first; undefined when the offer is unknown to the indexer. */
export async function listOfferFills(db: Database, offerPda: string, page: PageParams): Promise<string | undefined> {
  const { body, known } = await fillPage(db, OFFER_FILL_JSON, { offerPda }, page, offerPda);
  return known ? body : undefined;
}

const FILL_CSV_LINE = csvLine(FILL_FIELDS);

/**
 * GET /v1/fills as CSV: every fill the filters select, after `cursor` when
 * given, in the feed's order (the same walk down the same index as a page,
 * without its limit), a Fill's fields as columns.
 */
export function exportFills(db: Database, filters: FillFilters, cursor?: string): AsyncGenerator<Buffer> {
  const query = (sql: postgres.Sql) => sql`select ${sql.unsafe(FILL_CSV_LINE)} from fills o
    where ${and(sql, pageConditions(sql, filters, cursor))}
    order by ${sql.unsafe(NEWEST_FIRST)}`;
  return csvLines(db.$client, query, csvHeader(FILL_FIELDS));
}
