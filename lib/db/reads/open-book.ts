import { lapsedUnflagged, openCandidate } from "./open-offer";

/**
 * Every pair's open book in sum, one row per pair and side with an open
 * offer: `offers` (how many) and `value` (the sum of remaining_size * price,
 * raw payment units), exactly what grouping the open offers (open-offer.ts)
 * would give. Read from open_book (lib/db/schema/open-book.ts), which the
 * offers' trigger keeps over the open candidates (active, not flagged
 * lapsed), less those already past their expiry that the lapse job has not
 * flagged yet: a range of offers_lapse_due_idx, few whenever the job keeps
 * up. So no read sums the open offers themselves.
 *
 * The lower bound on expires_at (the least of the candidates, one probe of
 * that index) changes no row: it is there for the planner, which takes
 * expires_at <= now() alone for most of the table (most offers have expired)
 * and plans a parallel scan whose workers' start costs 10-20 ms on a loaded
 * machine; given a range with an unknown end, it expects a few rows.
 */
export const OPEN_BOOK_SIDES = `(select b.token_mint, b.payment_mint, b.side,
      b.offers - coalesce(d.offers, 0) as offers, b.value - coalesce(d.value, 0) as value
    from open_book b left join (
      select x.token_mint, x.payment_mint, x.side, count(*) as offers, sum(x.remaining_size * x.price) as value from offers x
      where ${lapsedUnflagged("x")}
        and x.expires_at >= (select min(m.expires_at) from offers m where ${openCandidate("m")})
      group by x.token_mint, x.payment_mint, x.side
    ) d on d.token_mint = b.token_mint and d.payment_mint = b.payment_mint and d.side = b.side
    where b.offers - coalesce(d.offers, 0) > 0)`;
