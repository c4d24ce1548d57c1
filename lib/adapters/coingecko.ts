import type { Database } from "../db/client";
import { readBookInWholeUnits } from "../db/reads/book";
import { FILL_FEED_ORDER, fillFilterConditions } from "../db/reads/fills";
import { PAIR_DAYS, pairDayOrder, readActivePairs } from "../db/reads/pair-day";
import { shiftedDecimal } from "../db/reads/fields";
import { and } from "../db/reads/page";
import { PAYMENT_MINTS } from "../program/constants";
import { pairDecimals, type DecimalsOf, type Pair, type PairDecimals } from "./pair-units";

// The CoinGecko exchange API standard for order-book venues (its "Spot
// Exchanges" section: /pairs, /tickers, /orderbook, /historical_trades) over
// our markets, offers and fills. A ticker_id is TOKEN_PAYMENT (the mints,
// base58, joined by "_"): base is the offered token, target the payment
// mint. Every price and amount is in whole tokens (shifted by the mints'
// decimals) and written as an exact decimal string: the standard types them
// "decimal", and a JSON number would round what a u64 over 10^scale holds.

export const TICKER_SEPARATOR = "_";

export const tickerId = (pair: Pair): string => `${pair.tokenMint}${TICKER_SEPARATOR}${pair.paymentMint}`;

/** The pair a ticker_id names, or null when it is not two parts joined by "_" (each part's form is the caller's to check). */
export function parseTickerId(id: string): Pair | null {
  const parts = id.split(TICKER_SEPARATOR);
  if (parts.length !== 2 || !parts[0] || !parts[1]) return null;
  return { tokenMint: parts[0], paymentMint: parts[1] };
}

export interface CoinGeckoPair {
  ticker_id: string;
  base: string;
  target: string;
  pool_id: string;
}

/** One ticker of /v1/coingecko/tickers' body, as PostgreSQL writes it (coinGeckoTickers). */
export interface CoinGeckoTicker {
  ticker_id: string;
  base_currency: string;
  target_currency: string;
  pool_id: string;
  last_price: string | null;
  base_volume: string;
  target_volume: string;
  bid: string | null;
  ask: string | null;
  high: string | null;
  low: string | null;
  /** Only where the target is a USD stablecoin (USDC, USDT): the open book's value in it. */
  liquidity_in_usd?: string;
}

const USD_STABLE_MINTS = PAYMENT_MINTS.filter((m) => ["USDC", "USDT"].includes(m.symbol)).map((m) => m.address);

/** The rows whose two mints' decimals are known, each with them; the others left out (a pair without them cannot be stated in whole tokens). */
async function withPairDecimals<R extends { token_mint: string; payment_mint: string }>(rows: R[], decimalsOf: DecimalsOf): Promise<[R, PairDecimals][]> {
  const decimals = await decimalsOf([...new Set(rows.flatMap((r) => [r.token_mint, r.payment_mint]))]);
  return rows.flatMap((row) => {
    const d = pairDecimals(decimals, { tokenMint: row.token_mint, paymentMint: row.payment_mint });
    return d ? [[row, d] as [R, PairDecimals]] : [];
  });
}

/** A raw price of the row `d` (raw payment units per raw token unit) in whole tokens, as SQL. */
const wholePrice = (column: string) => shiftedDecimal(`d.${column}`, "d.token_decimals - d.payment_decimals");

/**
 * The tickers (CoinGeckoTicker[]) as JSON text PostgreSQL writes, over the
 * decimals passed as $2 (mints) and $3 (their decimals); a pair whose mints
 * are not all among them is left out, and named in `unknown`.
 */
const TICKERS_STATEMENT = `${PAIR_DAYS},
  known(mint, decimals) as (select * from unnest($2::text[], $3::int[])),
  placed as materialized (
    select d.*, kt.decimals as token_decimals, kp.decimals as payment_decimals from days d
      left join known kt on kt.mint = d.token_mint left join known kp on kp.mint = d.payment_mint
  ),
  tickers as (
    select d.target, d.token_mint, d.payment_mint, d.depth,
      (select row_to_json(t)::text from (select d.token_mint || '${TICKER_SEPARATOR}' || d.payment_mint as ticker_id,
        d.token_mint as base_currency, d.payment_mint as target_currency, d.token_mint || '${TICKER_SEPARATOR}' || d.payment_mint as pool_id,
        ${wholePrice("last")} as last_price,
        ${shiftedDecimal("d.base", "-d.token_decimals")} as base_volume,
        ${shiftedDecimal("d.target", "-d.payment_decimals")} as target_volume,
        ${wholePrice("bid")} as bid, ${wholePrice("ask")} as ask, ${wholePrice("high")} as high, ${wholePrice("low")} as low) t) as ticker,
      ${shiftedDecimal("d.depth", "-d.payment_decimals")} as liquidity
    from placed d where d.token_decimals is not null and d.payment_decimals is not null
  )
  select '[' || coalesce(string_agg(case when d.depth is null then d.ticker
      else left(d.ticker, -1) || ',"liquidity_in_usd":' || to_json(d.liquidity)::text || '}' end, ',' order by ${pairDayOrder("d")}), '') || ']' as body,
    array(select distinct x.mint from placed u, lateral (values (u.token_mint, u.token_decimals), (u.payment_mint, u.payment_decimals)) x(mint, decimals)
      where x.decimals is null) as unknown
  from tickers d`;

/** Above this many, the mints' decimals a tickers reader holds are forgotten (the active pairs' mints, read again on the next answer). */
const TICKER_DECIMALS_MAX = 10_000;

/**
 * GET /v1/coingecko/tickers: the last day of every active pair whose two
 * mints' decimals are known (a pair without them cannot be stated in whole
 * tokens, so it is left out, here and in /pairs alike), busiest first, as
 * JSON text PostgreSQL writes (the shifts to whole tokens exact in numeric:
 * lib/db/reads/fields.ts shiftedDecimal). The reader holds the decimals of
 * the mints the answers named, so a steady answer is one statement; a new
 * pair's mints cost a look-up and the statement once more.
 */
export function coinGeckoTickers(decimalsOf: DecimalsOf): (db: Database) => Promise<string> {
  let known = new Map<string, number>();
  const read = async (db: Database) => {
    const [row] = await db.$client.unsafe<{ body: string; unknown: string[] }[]>(TICKERS_STATEMENT, [USD_STABLE_MINTS, [...known.keys()], [...known.values()]]);
    return row!;
  };
  return async (db) => {
    const first = await read(db);
    if (first.unknown.length === 0) return first.body;
    const found = await decimalsOf(first.unknown);
    if (found.size === 0) return first.body;
    if (known.size + found.size > TICKER_DECIMALS_MAX) known = new Map();
    for (const [mint, d] of found) known.set(mint, d);
    return (await read(db)).body;
  };
}

/** GET /v1/coingecko/pairs: the tickers' pairs, in their order, without their figures. */
export async function listCoinGeckoPairs(db: Database, decimalsOf: DecimalsOf): Promise<CoinGeckoPair[]> {
  const rows = await withPairDecimals(await readActivePairs(db), decimalsOf);
  return rows.map(([row]) => {
    const id = tickerId({ tokenMint: row.token_mint, paymentMint: row.payment_mint });
    return { ticker_id: id, base: row.token_mint, target: row.payment_mint, pool_id: id };
  });
}

export interface CoinGeckoOrderbook {
  ticker_id: string;
  /** Milliseconds since the epoch, when the book was read. */
  timestamp: number;
  /** [price, quantity in whole tokens], best first. */
  bids: [string, string][];
  asks: [string, string][];
}

/**
 * GET /v1/coingecko/orderbook: /v1/book's levels in whole tokens, as JSON
 * text (CoinGeckoOrderbook) whose levels PostgreSQL writes. `perSide` levels
 * on each side (the standard's depth counts both sides together).
 */
export async function readCoinGeckoOrderbook(db: Database, pair: Pair, d: PairDecimals, perSide: number): Promise<string> {
  const { asks, bids } = await readBookInWholeUnits(db, { ...pair, depth: perSide }, d);
  return `{"ticker_id":${JSON.stringify(tickerId(pair))},"timestamp":${Date.now()},"bids":${bids},"asks":${asks}}`;
}

export type TradeType = "buy" | "sell";

/** One trade of /v1/coingecko/historical_trades' body, `{ buy: CoinGeckoTrade[], sell: CoinGeckoTrade[] }`, as PostgreSQL writes it (listCoinGeckoTrades). */
export interface CoinGeckoTrade {
  /** The fill's transaction signature and its position in it, joined by ":": unique and stable. */
  trade_id: string;
  price: string;
  base_volume: string;
  target_volume: string;
  /** Milliseconds since the epoch (the block's time). */
  trade_timestamp: number;
  type: TradeType;
}

export interface TradeQuery extends Pair {
  type?: TradeType;
  limit: number;
  /** Unix seconds, inclusive. */
  startTime?: number;
  endTime?: number;
}

/**
 * The taker's side: a take of an ask (a sell offer) is a buy of the token,
 * a take of a bid a sell, as the standard counts trades.
 */
const OFFER_SIDE_OF: Record<TradeType, "sell" | "buy"> = { buy: "sell", sell: "buy" };

/** An integer as SQL text (a mint's decimals, a difference of two): never anything else. */
function sqlInteger(n: number): string {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not an integer: ${n}`);
  return String(n);
}

/**
 * GET /v1/coingecko/historical_trades: the pair's newest `limit` fills in the
 * window (of one type when asked), newest first, split into buy and sell,
 * as JSON text PostgreSQL writes (the shift to whole tokens is exact in
 * numeric: lib/db/reads/fields.ts shiftedDecimal), so no row becomes an
 * object here. In the fills indexes' own order (nulls last): `slot desc`
 * alone sorted every fill of the pair (at 5 M fills, seconds a request).
 */
export async function listCoinGeckoTrades(db: Database, q: TradeQuery, d: PairDecimals): Promise<string> {
  const sql = db.$client;
  const conditions = fillFilterConditions(sql, { tokenMint: q.tokenMint, paymentMint: q.paymentMint, fromTime: q.startTime, toTime: q.endTime });
  if (q.type) conditions.push(sql`side = ${OFFER_SIDE_OF[q.type]}`);
  const price = shiftedDecimal("(select fill_price(o.price_per_token, o.price_scale) from offers o where o.pda = f.offer_pda)", sqlInteger(d.token - d.payment));
  const trades = (type: TradeType) => `coalesce(string_agg(t.trade, ',' order by t.n) filter (where t.side = '${OFFER_SIDE_OF[type]}'), '')`;
  const [row] = await sql<{ body: string }[]>`
    select '{"buy":[' || ${sql.unsafe(trades("buy"))} || '],"sell":[' || ${sql.unsafe(trades("sell"))} || ']}' as body
    from (
      select f.side, row_number() over (order by ${sql.unsafe(FILL_FEED_ORDER)}) as n, row_to_json(j)::text as trade
      from (select * from fills where ${and(sql, conditions)} order by ${sql.unsafe(FILL_FEED_ORDER)} limit ${q.limit}) f,
      lateral (select f.signature || ':' || f.ix_index as trade_id,
        ${sql.unsafe(price)} as price,
        ${sql.unsafe(shiftedDecimal("f.fill_amount", sqlInteger(-d.token)))} as base_volume,
        ${sql.unsafe(shiftedDecimal("f.payment_amount", sqlInteger(-d.payment)))} as target_volume,
        (extract(epoch from f.block_time) * 1000)::bigint as trade_timestamp,
        ${sql.unsafe(`case when f.side = '${OFFER_SIDE_OF.buy}' then 'buy' else 'sell' end`)} as type) j
    ) t`;
  return row!.body;
}
