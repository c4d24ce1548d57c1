import type { Database } from "../db/client";
import { readBookInWholeUnits } from "../db/reads/book";
import { FILL_FEED_ORDER, fillFilterConditions } from "../db/reads/fills";
import { shiftedDecimal } from "../db/reads/fields";
import { and } from "../db/reads/page";
import type { Pair, PairDecimals } from "./pair-units";

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

/** One pair of /v1/coingecko/pairs' body, as PostgreSQL writes it (./coingecko-markets.ts). */
export interface CoinGeckoPair {
  ticker_id: string;
  base: string;
  target: string;
  pool_id: string;
}

/** One ticker of /v1/coingecko/tickers' body, as PostgreSQL writes it (./coingecko-markets.ts). */
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
