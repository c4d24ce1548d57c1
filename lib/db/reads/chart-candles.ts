import type { Database } from "../client";
import { reciprocal, shiftDecimal } from "../../program/decimal";
import { CANDLE_FIELDS, type CandleQuery } from "./candles";
import { projection, shiftedDecimal } from "./fields";

/** A Candle as the chart options transform it: the same keys, each value as CANDLE_FIELDS renders it. */
export interface CandleRow {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  quoteVolume: string;
  fills: number;
}

export interface ChartOptions {
  /** Empty buckets between fills carry the previous close with zero volume and zero fills. */
  includeEmpty: boolean;
  /** Token per payment instead of payment per token: prices are reciprocals, high and low trade places, and so do the volumes. */
  invert: boolean;
  /** Whole tokens rather than raw units: set when units=human, from the mints' decimals. */
  decimals?: { token: number; payment: number };
}

const CANDLE_PROJECTION = projection(CANDLE_FIELDS);

/** The pair and resolution of the query, as conditions on candles `c` ($1 token, $2 payment, $3::int resolution). */
const PAIR = "c.token_mint = $1 and c.payment_mint = $2 and c.resolution = $3::int";

/**
 * The buckets of [start, end], every one of them: a bucket with fills as its
 * candle, an empty one as the close carried from the last candle before it.
 * `end` is the bucket of toTime (or of now), `start` the latest of: `limit`
 * buckets back from it, fromTime's first bucket, and the pair's first candle
 * (nothing is carried from before the first fill). Paging back with
 * toTime = oldest time - 1 continues with the bucket just before. Every read
 * is a range or a probe of the candles key.
 */
export const GAP_FILLED_STATEMENT = `
  with span as (
    select e - mod(e, $3::int) as end_bucket from (select coalesce($5::bigint, extract(epoch from now())::bigint) as e) now_or_to
  ),
  bounds as (
    select end_bucket, greatest(
      end_bucket - ($6::bigint - 1) * $3::int,
      $4::bigint + mod($3::int - mod($4::bigint, $3::int), $3::int),
      (select extract(epoch from c.bucket)::bigint from candles c where ${PAIR} order by c.bucket limit 1)
    ) as start_bucket
    from span
  ),
  buckets as (
    select t from bounds, generate_series(start_bucket, end_bucket, $3::bigint) t
  ),
  filled as (
    select b.t, real.*, count(real.j_close) over (order by b.t) as run
    from buckets b left join lateral (
      select ${CANDLE_PROJECTION}, c.close as j_close from candles c where ${PAIR} and c.bucket = to_timestamp(b.t)
    ) real on true
  )
  select t as "time",
    coalesce(f.open, carried.close) as open, coalesce(f.high, carried.close) as high,
    coalesce(f.low, carried.close) as low, coalesce(f.close, carried.close) as close,
    coalesce(f."volume", '0') as "volume", coalesce(f."quoteVolume", '0') as "quoteVolume", coalesce(f.fills, 0) as fills
  from (
    select f.*, first_value(f.j_close) over (partition by f.run order by f.t) as run_close from filled f
  ) f, lateral (
    select trim_scale(coalesce(f.run_close, (
      select c.close from candles c, bounds where ${PAIR} and c.bucket < to_timestamp(bounds.start_bucket) order by c.bucket desc limit 1
    )))::text as close
  ) carried
  where carried.close is not null
  order by t`;

/** Only buckets with fills: listCandles' rows, as rows to transform rather than JSON. */
const FILLED_ONLY = `
  select * from (
    select ${CANDLE_PROJECTION} from candles c
    where ${PAIR} and ($4::bigint is null or c.bucket >= to_timestamp($4)) and ($5::bigint is null or c.bucket <= to_timestamp($5))
    order by c.bucket desc limit $6
  ) page order by "time"`;

/** Raw payment per raw token × 10^(token decimals - payment decimals) = payment per whole token. */
function inWholeUnits(row: CandleRow, d: { token: number; payment: number }): CandleRow {
  const price = (p: string) => shiftDecimal(p, d.token - d.payment);
  return {
    ...row,
    open: price(row.open),
    high: price(row.high),
    low: price(row.low),
    close: price(row.close),
    volume: shiftDecimal(row.volume, -d.token),
    quoteVolume: shiftDecimal(row.quoteVolume, -d.payment),
  };
}

/** The statement's parameters: $1 token, $2 payment, $3 resolution, $4 fromTime, $5 toTime, $6 limit. */
const parameters = (q: CandleQuery) => [q.tokenMint, q.paymentMint, q.resolution, q.fromTime ?? null, q.toTime ?? null, q.limit];

/** A decimal text column of rows `r` × 10^(the int parameter `places`), exact, as shiftDecimal writes it. */
const shifted = (column: string, places: string) => `${shiftedDecimal(`r."${column}"`, places)} as "${column}"`;

/** The rows in whole units ($7 the token's decimals, $8 the payment's), as inWholeUnits makes them. */
const inWholeUnitsSql = (rows: string) => `
  select r."time", ${shifted("open", "$7::int - $8::int")}, ${shifted("high", "$7::int - $8::int")}, ${shifted("low", "$7::int - $8::int")},
    ${shifted("close", "$7::int - $8::int")}, ${shifted("volume", "-$7::int")}, ${shifted("quoteVolume", "-$8::int")}, r.fills
  from (${rows}) r`;

/**
 * The body as JSON.stringify writes it from the rows (time and fills
 * numbers, the rest strings, keys in the rows' order, no spaces): row_to_json
 * is compact, and the rows are joined by a bare comma (json_agg adds a space).
 */
const asBody = (rows: string) => `
  select '{"candles":[' || coalesce(string_agg(row_to_json(j)::text, ',' order by j."time"), '') || ']}' as body
  from (${rows}) j`;

/**
 * GET /v1/candles with the chart options (includeEmpty, invert, units=human)
 * as JSON text. Whole units are an exact shift of the raw strings, which
 * PostgreSQL makes (the shift is exact in numeric); an inverted price is the
 * one rounding (lib/program/decimal.ts reciprocal), taken after the shift.
 * Without invert PostgreSQL writes the body: no row is parsed into objects
 * and written again here, which for a day of minutes (1,440 rows) was most
 * of a request's CPU, the collector's included. The inverted form's
 * rounding is lib/program/decimal.ts's, so that form is written here, one
 * object a row.
 */
export async function listChartCandles(db: Database, q: CandleQuery, options: ChartOptions): Promise<string> {
  const rows = options.includeEmpty ? GAP_FILLED_STATEMENT : FILLED_ONLY;
  const d = options.decimals;
  const statement = d ? inWholeUnitsSql(rows) : rows;
  const values = d ? [...parameters(q), d.token, d.payment] : parameters(q);
  if (options.invert) {
    const candles = (await db.$client.unsafe<CandleRow[]>(statement, values)).map(
      (r): CandleRow => ({
        time: Number(r.time),
        open: reciprocal(r.open),
        high: reciprocal(r.low),
        low: reciprocal(r.high),
        close: reciprocal(r.close),
        volume: r.quoteVolume,
        quoteVolume: r.volume,
        fills: Number(r.fills),
      }),
    );
    return JSON.stringify({ candles });
  }
  const [row] = await db.$client.unsafe<{ body: string }[]>(asBody(statement), values);
  return row!.body;
}

/**
 * The chart form without invert, rendered in JavaScript from the rows: the
 * reference PostgreSQL's body is pinned to, byte for byte
 * (tests/integration/api/candle-chart.test.ts); not served.
 */
export async function chartCandlesInJs(db: Database, q: CandleQuery, options: Omit<ChartOptions, "invert">): Promise<string> {
  const statement = options.includeEmpty ? GAP_FILLED_STATEMENT : FILLED_ONLY;
  const rows = await db.$client.unsafe<CandleRow[]>(statement, parameters(q));
  const candleRows = rows.map((r) => {
    const row: CandleRow = {
      time: Number(r.time),
      open: r.open,
      high: r.high,
      low: r.low,
      close: r.close,
      volume: r.volume,
      quoteVolume: r.quoteVolume,
      fills: Number(r.fills),
    };
    return options.decimals ? inWholeUnits(row, options.decimals) : row;
  });
  return JSON.stringify({ candles: candleRows });
}
