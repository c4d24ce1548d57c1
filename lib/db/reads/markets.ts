import type { Database } from "../client";
import { offers } from "../schema/offers";
import { columnsOf, field, objectField, projection } from "./fields";
import { OPEN_BOOK_SIDES } from "./open-book";
import { openOffer } from "./open-offer";

const o = columnsOf(offers, "o");

/** An offer's price as the offer states it, over a row `o` of offers. */
const SCALED_PRICE_FIELDS = {
  pricePerToken: field("amount", o.pricePerToken),
  priceScale: field("uint", o.priceScale),
};

/** The best open offer's price on one side of the pair `p`: the lowest ask, the highest bid; at one price, the older offer. */
const bestPrice = (side: "sell" | "buy", order: "asc" | "desc") =>
  objectField(
    SCALED_PRICE_FIELDS,
    `(select row_to_json(best) from (select ${projection(SCALED_PRICE_FIELDS)} from offers o
        where o.token_mint = p.token_mint and o.payment_mint = p.payment_mint and o.side = '${side}'
          and ${openOffer("o")}
        order by o.price ${order}, o.created_at asc limit 1) best)`,
    { nullable: true },
  );

/** A Market (/v1/markets), over a row `p` of listMarkets' pairs: a pair's open asks and bids, and its last day's volume and fills. */
export const MARKET_FIELDS = {
  tokenMint: field("address", "p.token_mint"),
  paymentMint: field("address", "p.payment_mint"),
  openOffers: field("uint", "p.asks + p.bids"),
  openAsks: field("uint", "p.asks"),
  openBids: field("uint", "p.bids"),
  bestAsk: bestPrice("sell", "asc"),
  bestBid: bestPrice("buy", "desc"),
  volume24h: field("amount", "p.volume"),
  fills24h: field("uint", "p.fills"),
  lastFillAt: field(
    "time",
    `(select f.block_time from fills f
        where f.token_mint = p.token_mint and f.payment_mint = p.payment_mint
        order by f.slot desc nulls last, f.signature desc nulls last, f.ix_index desc nulls last limit 1)`,
    { nullable: true },
  ),
};

export const MARKET_PROJECTION = projection(MARKET_FIELDS);

/**
 * The least slot of the last day's fills (null: none), read first (see
 * listFills) so that the planner sees real bounds and a volume scan is an
 * index range over the last day.
 */
export async function lastDaySlotFloor(db: Database): Promise<string | null> {
  const [bound] = await db.$client`select slot_floor::text as floor from fill_slot_bounds
    where minute >= date_bin('1 minute', now() - interval '24 hours', timestamptz '2000-01-01 00:00:00+00') order by minute limit 1`;
  return bound?.floor ?? null;
}

/**
 * The markets' one statement, $1 the least slot of the last day's fills
 * (lastDaySlotFloor; null: none). The open asks and bids are the open books'
 * sums (open-book.ts), never a count of the open offers; the best prices one
 * probe of offers_open_book_idx a side.
 */
export const MARKETS_STATEMENT = `
    with book as (
      select token_mint, payment_mint,
        coalesce(sum(offers) filter (where side = 'sell'), 0)::int as asks,
        coalesce(sum(offers) filter (where side = 'buy'), 0)::int as bids
      from ${OPEN_BOOK_SIDES} s group by token_mint, payment_mint
    ),
    recent as (
      select token_mint, payment_mint, sum(payment_amount) as volume, count(*)::int as fills
      from fills where block_time > now() - interval '24 hours' and slot >= $1::bigint
      group by token_mint, payment_mint
    ),
    pairs as (
      select coalesce(b.token_mint, r.token_mint) as token_mint, coalesce(b.payment_mint, r.payment_mint) as payment_mint,
        coalesce(b.asks, 0) as asks, coalesce(b.bids, 0) as bids, coalesce(r.volume, 0) as volume, coalesce(r.fills, 0) as fills
      from book b full join recent r on r.token_mint = b.token_mint and r.payment_mint = b.payment_mint
    )
    select coalesce(json_agg(x order by p.volume desc, p.asks + p.bids desc, p.token_mint, p.payment_mint), '[]')::text as j
    from pairs p, lateral (select ${MARKET_PROJECTION}) x`;

/**
 * GET /v1/markets (an extension): every token/payment pair with open offers or
 * fills in the last 24 hours: open asks and bids, the best of each (as the
 * offer's raw price and scale), 24-hour volume and fills, and the last fill.
 * Busiest first.
 */
export async function listMarkets(db: Database): Promise<string> {
  const floor = await lastDaySlotFloor(db);
  const [row] = await db.$client.unsafe(MARKETS_STATEMENT, [floor]);
  return `{"markets":${(row?.j as string | undefined) ?? "[]"}}`;
}
