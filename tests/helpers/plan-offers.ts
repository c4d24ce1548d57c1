import type postgres from "postgres";

// The offers that the plan test (tests/integration/db/offer-list-plans.test.ts)
// and the bench of the offers' plans at scale (bench/offer-plans.ts) read:
// `plan-<i>` for i in 1..rows, one a minute up to now, of 40 tokens, 3 payment
// mints and 300 makers, half asks and half bids, priced 0.01 to 0.97; 40 %
// active, 30 % filled, 20 % cancelled, 10 % expired. Each expires 7 days after
// it was made, so most active ones are past their expiry; those are flagged
// lapsed as the lapse job would, but for the last `flagLagMinutes`.

export interface PlanOffersOptions {
  rows: number;
  /** One offer in `rareOneIn` (at offsets 3, 11 and 7) of a rare token, payment mint or maker: token-rare, pay-rare, maker-rare. */
  rareOneIn?: number;
  /** Active offers that expired within this many minutes of now are left unflagged (the job has not come round yet). */
  flagLagMinutes?: number;
}

/** An integer for the statement's text, refused when it is anything else. */
function whole(n: number, what: string): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`plan offers: ${what} must be a whole number, not ${n}`);
  return n;
}

/** `name-<i % of>`, or `name-rare` for one in `rareOneIn` at `at`. */
function label(name: string, of: number, rareOneIn: number | undefined, at: number): string {
  const plain = `'${name}-' || i % ${of}`;
  return rareOneIn === undefined ? plain : `case when i % ${whole(rareOneIn, "rareOneIn")} = ${at} then '${name}-rare' else ${plain} end`;
}

/** Inserts the plan offers into `offers` (by the connection's own statement, triggers as the caller has left them). */
export async function insertPlanOffers(sql: postgres.Sql, { rows, rareOneIn, flagLagMinutes = 0 }: PlanOffersOptions): Promise<void> {
  const n = whole(rows, "rows");
  const createdAt = `now() - (${n} - i) * interval '1 minute'`;
  const expiresAt = `${createdAt} + interval '7 days'`;
  await sql.unsafe(`insert into offers (pda, maker, token_mint, payment_mint, side, nonce, original_size, remaining_size, price_per_token,
      price_scale, min_fill, created_at, expires_at, state, lapsed, last_slot, created_slot)
    select 'plan-' || i, ${label("maker", 300, rareOneIn, 7)}, ${label("token", 40, rareOneIn, 3)}, ${label("pay", 3, rareOneIn, 11)},
      (case when i % 2 = 0 then 'sell' else 'buy' end)::offer_side, i, 100, 50, 1 + i % 97, 2, 1, ${createdAt}, ${expiresAt},
      (case when i % 10 < 4 then 'active' when i % 10 < 7 then 'filled' when i % 10 < 9 then 'cancelled' else 'expired' end)::offer_state,
      i % 10 < 4 and ${expiresAt} < now() - ${whole(flagLagMinutes, "flagLagMinutes")} * interval '1 minute', i, i
    from generate_series(1, ${n}) i`);
}
