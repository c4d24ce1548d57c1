import type postgres from "postgres";
import type { Database } from "../client";
import { and } from "./page";

export interface CandleQuery {
  tokenMint: string;
  paymentMint: string;
  /** The bucket's length in seconds. */
  resolution: number;
  /** Unix seconds, inclusive, on the bucket's start. */
  fromTime?: number;
  toTime?: number;
  limit: number;
}

/**
 * GET /v1/candles: the newest `limit` buckets with fills whose start lies in
 * [fromTime, toTime], oldest first, as JSON text. One range of the candles
 * primary key (pair, resolution, bucket), read backwards from toTime: a
 * client pages back with toTime = the oldest time it has, minus one.
 */
export async function listCandles(db: Database, q: CandleQuery): Promise<string> {
  const sql = db.$client;
  const conditions: postgres.PendingQuery<postgres.Row[]>[] = [
    sql`token_mint = ${q.tokenMint}`,
    sql`payment_mint = ${q.paymentMint}`,
    sql`resolution = ${q.resolution}`,
  ];
  if (q.fromTime !== undefined) conditions.push(sql`bucket >= to_timestamp(${q.fromTime})`);
  if (q.toTime !== undefined) conditions.push(sql`bucket <= to_timestamp(${q.toTime})`);
  const [row] = await sql`
    select coalesce(json_agg(j order by bucket), '[]')::text as items from (
      select c.bucket, (select row_to_json(x) from (select
        extract(epoch from c.bucket)::bigint as "time",
        trim_scale(c.open)::text as "open",
        trim_scale(c.high)::text as "high",
        trim_scale(c.low)::text as "low",
        trim_scale(c.close)::text as "close",
        c.volume::text as "volume",
        c.quote_volume::text as "quoteVolume",
        c.fills as "fills") x) as j
      from candles c
      where ${and(sql, conditions)}
      order by c.bucket desc limit ${q.limit}
    ) page`;
  return `{"candles":${row?.items ?? "[]"}}`;
}
