import type { Database } from "../client";
import { field, jsonObject, shiftedDecimal } from "./fields";
import { openOffer } from "./open-offer";

/**
 * A BookLevel (/v1/book), over a row `l` of one side's levels: an exact
 * price (raw payment units per raw token unit, as offers, markets and candles
 * write it), the open remaining size at that price and how many offers make it.
 */
export const BOOK_LEVEL_FIELDS = {
  price: field("price", "l.price"),
  size: field("amount", "l.size"),
  offers: field("uint", "l.offers"),
};

const LEVEL_JSON = jsonObject(BOOK_LEVEL_FIELDS);

export const MAX_BOOK_DEPTH = 500;
export const DEFAULT_BOOK_DEPTH = 50;

export interface BookQuery {
  tokenMint: string;
  paymentMint: string;
  /** Price levels per side at most. */
  depth: number;
}

/**
 * The levels of one side, best first: open offers (active, not flagged
 * lapsed, not past expiry: the offer list's `status=open`) walked down
 * offers_active_book_idx (token, payment, side, price) in price order and
 * grouped as they come, so the walk stops after `depth` distinct prices. The
 * price column is the exact numeric pricePerToken / 10^priceScale: offers
 * stating one price at two scales (25/10 and 250/100) share a level.
 */
const sideLevelRows = (side: "sell" | "buy", order: "asc" | "desc") => `
    select o.price, sum(o.remaining_size) as size, count(*)::int as offers
    from offers o
    where o.token_mint = $1 and o.payment_mint = $2 and o.side = '${side}'
      and ${openOffer("o")}
    group by o.price order by o.price ${order} limit $3`;

const sideLevels = (side: "sell" | "buy", order: "asc" | "desc") => `(
  select coalesce(json_agg(${LEVEL_JSON} order by l.price ${order}), '[]')
  from (${sideLevelRows(side, order)}) l)`;

/**
 * The same levels as [price, quantity] pairs in whole tokens ($4 the price's
 * shift, $5 the size's; exact in numeric: ./fields.ts shiftedDecimal),
 * written compact, as JSON.stringify writes them (decimals need no escape).
 */
const sideInWholeUnits = (side: "sell" | "buy", order: "asc" | "desc") => `(
  select '[' || coalesce(string_agg('["' || ${shiftedDecimal("l.price", "$4")} || '","' || ${shiftedDecimal("l.size", "$5")} || '"]', ',' order by l.price ${order}), '') || ']'
  from (${sideLevelRows(side, order)}) l)`;

/** The book's one statement: both sides, the slot and the feed id, all from one snapshot. */
export const BOOK_STATEMENT = `select
  ${sideLevels("sell", "asc")}::text as asks,
  ${sideLevels("buy", "desc")}::text as bids,
  (select max(last_slot) from scanner_checkpoints)::text as slot,
  greatest((select max(id) from feed_events), (select pruned_through from feed_retention where id = 1), 0)::text as feed_id`;

/**
 * GET /v1/book: the pair's L2 book as JSON text, asks ascending and bids
 * descending. One statement, so the levels, `slot` (the scanner's newest
 * applied slot; null before its first) and `feedId` (the newest live-feed
 * event: resume /v1/stream with after=feedId to follow the book from here)
 * describe the same moment.
 */
export async function readBook(db: Database, q: BookQuery): Promise<string> {
  const sql = db.$client;
  const [row] = await sql.unsafe(BOOK_STATEMENT, [q.tokenMint, q.paymentMint, q.depth]);
  const slot = row?.slot == null ? "null" : JSON.stringify(String(row.slot));
  return (
    `{"tokenMint":${JSON.stringify(q.tokenMint)},"paymentMint":${JSON.stringify(q.paymentMint)},"depth":${q.depth},` +
    `"slot":${slot},"feedId":${JSON.stringify(String(row?.feed_id ?? "0"))},"asks":${row?.asks ?? "[]"},"bids":${row?.bids ?? "[]"}}`
  );
}

const BOOK_IN_WHOLE_UNITS_STATEMENT = `select ${sideInWholeUnits("sell", "asc")} as asks, ${sideInWholeUnits("buy", "desc")} as bids`;

/**
 * The book's levels as JSON arrays of [price, quantity] in whole tokens (the
 * CoinGecko orderbook), asks ascending and bids descending, from `decimals`
 * of the pair's token and payment mints.
 */
export async function readBookInWholeUnits(db: Database, q: BookQuery, decimals: { token: number; payment: number }): Promise<{ asks: string; bids: string }> {
  const [row] = await db.$client.unsafe<{ asks: string; bids: string }[]>(BOOK_IN_WHOLE_UNITS_STATEMENT, [
    q.tokenMint,
    q.paymentMint,
    q.depth,
    decimals.token - decimals.payment,
    -decimals.token,
  ]);
  return row!;
}
