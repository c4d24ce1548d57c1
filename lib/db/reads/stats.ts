import type { Database } from "../client";

/** A compact JSON object of key -> decimal string over the rows of `from`, keys sorted; {} when none. */
const jsonMap = (key: string, amount: string, from: string) =>
  `coalesce((select ('{' || string_agg(to_json(${key})::text || ':"' || ${amount}::text || '"', ',' order by ${key}) || '}')::json from ${from}), '{}'::json)`;

// Stats read the trigger-kept aggregates. Active offers past their expiry show
// as expired: the aggregates count those the lapse job has flagged, and the
// rest (past expiry, not yet flagged: a handful when the job keeps up) are
// counted live over offers_lapse_due_idx, so the sum is exact at any instant.

/** GET /v1/stats: the response body as JSON text. */
export async function protocolStats(db: Database): Promise<string> {
  const sql = db.$client;
  const [row] = await sql`
    with lapsed as (select count(*) as n from offers where state = 'active' and not lapsed and expires_at <= now()),
    mints as (select * from protocol_mint_stats where fills <> 0)
    select row_to_json(x)::text as j from (select
      p.total_offers as "totalOffers",
      p.active_offers - p.lapsed_offers - lapsed.n as "openOffers",
      p.filled_offers as "filledOffers",
      p.expired_offers + p.lapsed_offers + lapsed.n as "expiredOffers",
      p.cancelled_offers as "cancelledOffers",
      p.total_fills as "totalFills",
      ${sql.unsafe(jsonMap("payment_mint", "fees", "mints"))} as "feesByMint",
      ${sql.unsafe(jsonMap("payment_mint", "volume", "mints"))} as "volumeByMint"
    from protocol_stats p, lapsed where p.id = 1) x`;
  return row?.j;
}

/** GET /v1/makers/:maker/stats: zeros and empty totals for a wallet the indexer has not seen. */
export async function makerStats(db: Database, maker: string): Promise<string> {
  const sql = db.$client;
  const [row] = await sql`
    with m as (
      select total_offers, active_offers, filled_offers, cancelled_offers, expired_offers, lapsed_offers from maker_stats where maker = ${maker}
      union all select 0, 0, 0, 0, 0, 0
      limit 1
    ),
    lapsed as (select count(*) as n from offers where maker = ${maker} and state = 'active' and not lapsed and expires_at <= now()),
    volume as (select side, token_mint, amount from maker_volume where maker = ${maker} and amount <> 0)
    select row_to_json(x)::text as j from (select
      ${maker}::text as "maker",
      m.total_offers as "totalOffers",
      m.active_offers - m.lapsed_offers - lapsed.n as "openOffers",
      m.filled_offers as "filledOffers",
      m.expired_offers + m.lapsed_offers + lapsed.n as "expiredOffers",
      m.cancelled_offers as "cancelledOffers",
      ${sql.unsafe(jsonMap("token_mint", "amount", "volume where side = 'sell'"))} as "totalSold",
      ${sql.unsafe(jsonMap("token_mint", "amount", "volume where side = 'buy'"))} as "totalBought"
    from m, lapsed) x`;
  return row?.j;
}
