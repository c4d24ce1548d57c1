import type { Database } from "../client";
import { field, projection } from "./fields";

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

/** MakerStats (/v1/makers/:maker/stats), over makerStats' row `m` of maker_stats, `lapsed` and `volume`. */
export const MAKER_STATS_FIELDS = {
  maker: field("address", "m.maker"),
  ...offerCounts("m"),
  totalSold: field("mintMap", jsonMap("token_mint", "amount", "volume where side = 'sell'")),
  totalBought: field("mintMap", jsonMap("token_mint", "amount", "volume where side = 'buy'")),
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

/** GET /v1/makers/:maker/stats: zeros and empty totals for a wallet the indexer has not seen. */
export async function makerStats(db: Database, maker: string): Promise<string> {
  const sql = db.$client;
  const [row] = await sql`
    with m as (
      select maker, total_offers, active_offers, filled_offers, cancelled_offers, expired_offers, lapsed_offers from maker_stats where maker = ${maker}
      union all select ${maker}::text, 0, 0, 0, 0, 0, 0
      limit 1
    ),
    lapsed as (select count(*) as n from offers where maker = ${maker} and state = 'active' and not lapsed and expires_at <= now()),
    volume as (select side, token_mint, amount from maker_volume where maker = ${maker} and amount <> 0)
    select row_to_json(x)::text as j from (select ${sql.unsafe(MAKER_STATS_PROJECTION)}
    from m, lapsed) x`;
  return row?.j;
}
