import type postgres from "postgres";
import type { Database } from "../client";
import { candles } from "../schema/candles";
import { columnsOf, field, jsonObject } from "./fields";
import { and } from "./page";

const c = columnsOf(candles, "c");

/** Candle resolutions and their lengths in seconds (the candles table's `resolution`). */
export const CANDLE_RESOLUTIONS = { "1m": 60, "5m": 300, "15m": 900, "1h": 3600, "4h": 14_400, "1d": 86_400 } as const;
export type CandleResolution = keyof typeof CANDLE_RESOLUTIONS;

/** A Candle (/v1/candles), over a row `c` of candles: the bucket's start, its prices, volumes and number of fills. */
export const CANDLE_FIELDS = {
  time: field("unixTime", c.bucket),
  open: field("price", c.open),
  high: field("price", c.high),
  low: field("price", c.low),
  close: field("price", c.close),
  volume: field("amount", c.volume),
  quoteVolume: field("amount", c.quoteVolume),
  fills: field("uint", c.fills),
};

export const CANDLE_JSON = jsonObject(CANDLE_FIELDS);

/**
 * The live feed's candle event (GET /v1/stream, types=candle), over a row `m`
 * of (token_mint, payment_mint, minute): the pair, and its candle at each
 * resolution whose bucket holds that minute, keyed by resolution name, each a
 * Candle as /v1/candles serves it. A chart upserts candles[its resolution] by time.
 */
export const CANDLE_EVENT_JSON = `(select row_to_json(e) from (select m.token_mint as "tokenMint", m.payment_mint as "paymentMint",
  (select row_to_json(by_resolution) from (select ${Object.entries(CANDLE_RESOLUTIONS)
    .map(
      ([name, seconds]) => `(select ${CANDLE_JSON} from candles c
        where c.token_mint = m.token_mint and c.payment_mint = m.payment_mint and c.resolution = ${seconds}
          and c.bucket = date_bin(interval '${seconds} seconds', m.minute, timestamptz '2000-01-01 00:00:00+00')) as "${name}"`,
    )
    .join(",\n      ")}) by_resolution) as "candles") e)`;

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
      select c.bucket, ${sql.unsafe(CANDLE_JSON)} as j
      from candles c
      where ${and(sql, conditions)}
      order by c.bucket desc limit ${q.limit}
    ) page`;
  return `{"candles":${row?.items ?? "[]"}}`;
}
