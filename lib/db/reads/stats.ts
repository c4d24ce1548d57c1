import type { Database } from "../client";
import { field, jsonObject, objectField, projection } from "./fields";
import { windowCondition, type MakerWindow } from "./maker-windows";

/** A compact JSON object of key -> decimal string over the rows of `from`, keys sorted; {} when none. */
const jsonMap = (key: string, amount: string, from: string) =>
  `coalesce((select ('{' || string_agg(to_json(${key})::text || ':"' || ${amount}::text || '"', ',' order by ${key}) || '}')::json from ${from}), '{}'::json)`;

// Stats read the trigger-kept aggregates. Active offers past their expiry show
// as expired: the aggregates count those the lapse job has flagged, and the
// rest (past expiry, not yet flagged: a handful when the job keeps up) are
// counted live over offers_lapse_due_idx, so the sum is exact at any instant.

/** The offer counts of both stats bodies, over a row `counts` of the aggregates and the live count `lapsed.n`. */
const offerCounts = (counts: string) => ({
  totalOffers: field("uint", `${counts}.total_offers`),
  openOffers: field("uint", `${counts}.active_offers - ${counts}.lapsed_offers - lapsed.n`),
  filledOffers: field("uint", `${counts}.filled_offers`),
  expiredOffers: field("uint", `${counts}.expired_offers + ${counts}.lapsed_offers + lapsed.n`),
  cancelledOffers: field("uint", `${counts}.cancelled_offers`),
});

/** ProtocolStats (/v1/stats), over protocolStats' row `p` of protocol_stats, `lapsed` and `mints`. */
export const PROTOCOL_STATS_FIELDS = {
  ...offerCounts("p"),
  totalFills: field("uint", "p.total_fills"),
  feesByMint: field("mintMap", jsonMap("payment_mint", "fees", "mints")),
  volumeByMint: field("mintMap", jsonMap("payment_mint", "volume", "mints")),
};

/** Digits after the point of a fill rate, rounded half up: a ratio is rarely a finite decimal. */
export const FILL_RATE_DECIMALS = 18;

/** MakerStats' activity in the asked window, over a row `w` holding the window's name and the rows `act` of its figures per payment mint. */
export const MAKER_ACTIVITY_FIELDS = {
  window: field("makerWindow", "w.name"),
  fills: field("uint", "(select coalesce(sum(fills), 0)::bigint from act)"),
  offers: field("uint", "(select coalesce(sum(offers), 0)::bigint from act)"),
  volumeByPaymentMint: field("mintMap", jsonMap("payment_mint", "volume", "act where volume <> 0")),
  takerFeesByPaymentMint: field("mintMap", jsonMap("payment_mint", "taker_fees", "act where taker_fees <> 0")),
};

/** MakerStats (/v1/makers/:maker/stats), over makerStats' rows `m` of maker_stats, `lapsed`, `volume`, `lifetime`, `waits` and `act`. */
export const MAKER_STATS_FIELDS = {
  maker: field("address", "m.maker"),
  ...offerCounts("m"),
  totalSold: field("mintMap", jsonMap("token_mint", "amount", "volume where side = 'sell'")),
  totalBought: field("mintMap", jsonMap("token_mint", "amount", "volume where side = 'buy'")),
  // filled / offered, both summed in raw token units over all the maker's offers, rounded half up.
  fillRate: field(
    "decimal",
    `(case when lifetime.offered > 0 then (div(2 * lifetime.filled * 1${"0".repeat(FILL_RATE_DECIMALS)} + lifetime.offered, 2 * lifetime.offered)::text || 'e-${FILL_RATE_DECIMALS}')::numeric end)`,
    { nullable: true },
  ),
  // The middle wait, or the mean of the two middle ones: whole seconds, or a half.
  medianSecondsToFirstFill: field("decimal", "(select (min(wait_seconds) + max(wait_seconds))::numeric / 2 from waits where rn in ((n + 1) / 2, (n + 2) / 2))", { nullable: true }),
  activity: objectField(MAKER_ACTIVITY_FIELDS, jsonObject(MAKER_ACTIVITY_FIELDS)),
};

const PROTOCOL_STATS_PROJECTION = projection(PROTOCOL_STATS_FIELDS);
const MAKER_STATS_PROJECTION = projection(MAKER_STATS_FIELDS);

/** GET /v1/stats: the response body as JSON text. */
export async function protocolStats(db: Database): Promise<string> {
  const sql = db.$client;
  const [row] = await sql`
    with lapsed as (select count(*) as n from offers where state = 'active' and not lapsed and expires_at <= now()),
    mints as (select * from protocol_mint_stats where fills <> 0)
    select row_to_json(x)::text as j from (select ${sql.unsafe(PROTOCOL_STATS_PROJECTION)}
    from protocol_stats p, lapsed where p.id = 1) x`;
  return row?.j;
}

/**
 * GET /v1/makers/:maker/stats: zeros and empty totals for a wallet the
 * indexer has not seen. Every figure is a range of an aggregate's index
 * (maker_stats, maker_volume, maker_activity, offer_first_fills by maker);
 * the median reads the maker's filled offers' waits in index order.
 */
export async function makerStats(db: Database, maker: string, window: MakerWindow = "all"): Promise<string> {
  const sql = db.$client;
  const [row] = await sql`
    with m as (
      select maker, total_offers, active_offers, filled_offers, cancelled_offers, expired_offers, lapsed_offers from maker_stats where maker = ${maker}
      union all select ${maker}::text, 0, 0, 0, 0, 0, 0
      limit 1
    ),
    lapsed as (select count(*) as n from offers where maker = ${maker} and state = 'active' and not lapsed and expires_at <= now()),
    volume as (select side, token_mint, amount from maker_volume where maker = ${maker} and amount <> 0),
    lifetime as (select coalesce(sum(filled_size), 0) as filled, coalesce(sum(offered_size), 0) as offered from maker_activity where maker = ${maker} and resolution = 0),
    waits as (select wait_seconds, row_number() over (order by wait_seconds) as rn, count(*) over () as n from offer_first_fills where maker = ${maker}),
    act as (
      select payment_mint, sum(fills) as fills, sum(offers) as offers, sum(volume) as volume, sum(taker_fees) as taker_fees
      from maker_activity a where a.maker = ${maker} and ${sql.unsafe(windowCondition(window, "a"))} group by payment_mint
    ),
    w as (select ${window}::text as name)
    select row_to_json(x)::text as j from (select ${sql.unsafe(MAKER_STATS_PROJECTION)}
    from m, lapsed, lifetime, w) x`;
  return row?.j;
}
