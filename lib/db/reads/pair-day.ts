import { OPEN_BOOK_SIDES } from "./open-book";
import { openOffer } from "./open-offer";

// Every pair's open book and last day for the aggregator adapters
// (lib/adapters/coingecko-markets.ts: /v1/coingecko/tickers and /pairs), read from
// indexes and the candles the writers keep, never by aggregating offers or
// fills: the pairs are those of the open books' sums (open_book, a row per
// pair and side) and a skip scan of the candles' key for the traded ones;
// each pair costs a few index probes (its best prices, one probe of
// offers_open_book_idx each); the open book's value is read from the sums.

const ORIGIN = "timestamptz '2000-01-01 00:00:00+00'";

const OPEN = openOffer("o");

/** The best open price of one side of the pair `p` (offers_open_book_idx, in price order). */
const bestPrice = (side: "sell" | "buy", order: "asc" | "desc") => `(select o.price from offers o
    where o.token_mint = p.token_mint and o.payment_mint = p.payment_mint and o.side = '${side}' and ${OPEN}
    order by o.price ${order} limit 1)`;

/**
 * The distinct pairs of `table`'s rows matching `where`, in (token, payment)
 * order: one probe of an index led by (token_mint, payment_mint) per pair.
 */
const skipScan = (name: string, table: string, where: string) => `${name}(token_mint, payment_mint) as (
    (select x.token_mint, x.payment_mint from ${table} x where ${where} order by x.token_mint, x.payment_mint limit 1)
    union all
    (select n.token_mint, n.payment_mint from ${name} s, lateral (
      select x.token_mint, x.payment_mint from ${table} x
      where ${where} and (x.token_mint, x.payment_mint) > (s.token_mint, s.payment_mint)
      order by x.token_mint, x.payment_mint limit 1) n)
  )`;

/**
 * The last day's window on the candles: every fill from the start of the
 * minute that holds now() - 24 hours (the minute candles from that minute to
 * the next whole hour, then the hour candles; the current hour's holds
 * nothing later than now). 24 hours and up to one minute more.
 */
const DAY_WINDOW = `day_window(m0, h1) as (
    select m0, case when date_bin('1 hour', m0, ${ORIGIN}) = m0 then m0 else date_bin('1 hour', m0, ${ORIGIN}) + interval '1 hour' end
    from (select date_bin('1 minute', now() - interval '24 hours', ${ORIGIN}) as m0) w
  )`;

/** The day's candles of the pair `t` in the window `w`: at most 59 minutes and 25 hours, two ranges of the candles' key. */
const dayCandles = `(select c.volume, c.quote_volume, c.high, c.low from candles c
      where c.token_mint = t.token_mint and c.payment_mint = t.payment_mint and c.resolution = 60 and c.bucket >= w.m0 and c.bucket < w.h1
    union all
    select c.volume, c.quote_volume, c.high, c.low from candles c
      where c.token_mint = t.token_mint and c.payment_mint = t.payment_mint and c.resolution = 3600 and c.bucket >= w.h1)`;

const PAIRS = `${skipScan("traded_pairs", "candles", "true")},
  open_sides as materialized (select * from ${OPEN_BOOK_SIDES} s),
  book_pairs as (select distinct s.token_mint, s.payment_mint from open_sides s),
  ${DAY_WINDOW},
  book_prices as materialized (
    select p.token_mint, p.payment_mint, ${bestPrice("sell", "asc")} as ask, ${bestPrice("buy", "desc")} as bid from book_pairs p
  ),
  book as (select * from book_prices b where b.ask is not null or b.bid is not null),
  day as (
    select t.token_mint, t.payment_mint, d.base, d.target, d.high, d.low
    from traded_pairs t cross join day_window w,
      lateral (select sum(c.volume) as base, sum(c.quote_volume) as target, max(c.high) as high, min(c.low) as low, count(*) as n
        from ${dayCandles} c) d
    where d.n > 0
  ),
  pairs as (
    select coalesce(b.token_mint, d.token_mint) as token_mint, coalesce(b.payment_mint, d.payment_mint) as payment_mint,
      b.ask, b.bid, coalesce(d.base, 0) as base, coalesce(d.target, 0) as target, d.high, d.low
    from book b full join day d on d.token_mint = b.token_mint and d.payment_mint = b.payment_mint
  )`;

/**
 * Every pair with an open offer or a fill in the last day (see DAY_WINDOW)
 * as the CTE `days`, its figures numeric, for a statement to select from
 * (`${PAIR_DAYS} select … from days d`): best prices, the open book's value
 * in raw payment units (where the payment mint is one of $1, else null), the
 * day's volumes, high and low, and the price of the pair's last fill ever (by
 * slot, signature, position; the offer's price). pairDayOrder orders them.
 */
export const PAIR_DAYS = `with recursive ${PAIRS},
  depth as (
    select s.token_mint, s.payment_mint, sum(s.value) as depth from open_sides s
    where s.payment_mint = any($1::text[]) group by s.token_mint, s.payment_mint
  ),
  days as (
    select p.token_mint, p.payment_mint, p.ask, p.bid,
      case when p.payment_mint = any($1::text[]) then coalesce(v.depth, 0) end as depth,
      p.base, p.target, p.high, p.low,
      (select fill_price(o.price_per_token, o.price_scale) from fills f join offers o on o.pda = f.offer_pda
        where f.token_mint = p.token_mint and f.payment_mint = p.payment_mint
        order by f.slot desc nulls last, f.signature desc nulls last, f.ix_index desc nulls last limit 1) as last
    from pairs p left join depth v on v.token_mint = p.token_mint and v.payment_mint = p.payment_mint
  )`;

/** The pairs' order, busiest first (by raw payment volume), over the columns of `alias` (a row of `pairs` or `days`). */
export const pairDayOrder = (alias: string) => `${alias}.target desc, ${alias}.token_mint, ${alias}.payment_mint`;

/** The same pairs as the CTE `pairs` (token_mint, payment_mint and their order's columns), for a statement that needs no figures. */
export const ACTIVE_PAIRS = `with recursive ${PAIRS}`;
