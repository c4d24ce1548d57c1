import type { Database } from "../db/client";
import { shiftedDecimal } from "../db/reads/fields";
import { ACTIVE_PAIRS, PAIR_DAYS, pairDayOrder } from "../db/reads/pair-day";
import { PAYMENT_MINTS } from "../program/constants";
import type { DecimalsOf } from "./pair-units";
import { TICKER_SEPARATOR } from "./coingecko";

// /v1/coingecko/tickers and /pairs: every active pair (lib/db/reads/pair-day.ts)
// whose two mints' decimals are known, busiest first, as JSON text PostgreSQL
// writes, the shifts to whole tokens exact in numeric (shiftedDecimal, which
// tests/integration/api/candle-chart.test.ts pins to JavaScript's shift). The
// decimals come from the token service, and which mints need them is known
// only from the pairs' rows: so the statement takes the decimals the reader
// already holds, leaves out each pair missing one and names its mints; the
// reader looks those up and reads once more. A steady answer is one
// statement; a pair without decimals (neither the provider nor the chain
// knows them) is left out, here and in /pairs alike.

const USD_STABLE_MINTS = PAYMENT_MINTS.filter((m) => ["USDC", "USDT"].includes(m.symbol)).map((m) => m.address);

/** Above this many, the decimals a reader holds are forgotten (the active pairs' mints: looked up again as the next answers name them). */
const HELD_DECIMALS_MAX = 10_000;

/**
 * A statement over `ctes`, whose CTE `source` has a row per pair: a JSON
 * array of `item` (JSON text over the row `d`, its mints' decimals in
 * `d.token_decimals` and `d.payment_decimals`) for each pair whose mints are
 * both among the decimals passed as $`at` (mints) and $`at + 1`, in the
 * pairs' order (`body`); and the mints of the others (`unknown`).
 */
const overHeldDecimals = (ctes: string, source: string, item: string, at: number) => `${ctes},
  held(mint, decimals) as (select * from unnest($${at}::text[], $${at + 1}::int[])),
  placed as materialized (
    select s.*, kt.decimals as token_decimals, kp.decimals as payment_decimals from ${source} s
      left join held kt on kt.mint = s.token_mint left join held kp on kp.mint = s.payment_mint
  )
  select '[' || coalesce(string_agg(${item}, ',' order by ${pairDayOrder("d")})
      filter (where d.token_decimals is not null and d.payment_decimals is not null), '') || ']' as body,
    array(select distinct x.mint from placed u, lateral (values (u.token_mint, u.token_decimals), (u.payment_mint, u.payment_decimals)) x(mint, decimals)
      where x.decimals is null) as unknown
  from placed d`;

const TICKER_ID = `d.token_mint || '${TICKER_SEPARATOR}' || d.payment_mint`;

/** A raw price of the row `d` (raw payment units per raw token unit) in whole tokens. */
const wholePrice = (column: string) => shiftedDecimal(`d.${column}`, "d.token_decimals - d.payment_decimals");

/** A CoinGeckoTicker without liquidity_in_usd, as JSON text. */
const TICKER = `(select row_to_json(t)::text from (select ${TICKER_ID} as ticker_id, d.token_mint as base_currency, d.payment_mint as target_currency,
    ${TICKER_ID} as pool_id, ${wholePrice("last")} as last_price,
    ${shiftedDecimal("d.base", "-d.token_decimals")} as base_volume, ${shiftedDecimal("d.target", "-d.payment_decimals")} as target_volume,
    ${wholePrice("bid")} as bid, ${wholePrice("ask")} as ask, ${wholePrice("high")} as high, ${wholePrice("low")} as low) t)`;

/** The tickers (CoinGeckoTicker[]); liquidity_in_usd, put before the closing brace, where the payment mint is one of $1 (`depth` is null elsewhere). */
export const TICKERS_STATEMENT = overHeldDecimals(
  PAIR_DAYS,
  "days",
  `left(${TICKER}, -1) || case when d.depth is null then ''
    else ',"liquidity_in_usd":' || to_json(${shiftedDecimal("d.depth", "-d.payment_decimals")})::text end || '}'`,
  2,
);

/** The tickers' pairs (CoinGeckoPair[]), in their order. */
export const PAIRS_STATEMENT = overHeldDecimals(
  ACTIVE_PAIRS,
  "pairs",
  `(select row_to_json(p)::text from (select ${TICKER_ID} as ticker_id, d.token_mint as base, d.payment_mint as target, ${TICKER_ID} as pool_id) p)`,
  1,
);

export interface CoinGeckoMarkets {
  /** GET /v1/coingecko/tickers' body. */
  tickers(db: Database): Promise<string>;
  /** GET /v1/coingecko/pairs' body. */
  pairs(db: Database): Promise<string>;
}

/** The two answers' reader, holding the decimals `decimalsOf` gave for the mints they named. */
export function coinGeckoMarkets(decimalsOf: DecimalsOf): CoinGeckoMarkets {
  let held = new Map<string, number>();
  const read = async (db: Database, statement: string, params: string[][]) => {
    const [row] = await db.$client.unsafe<{ body: string; unknown: string[] }[]>(statement, [...params, [...held.keys()], [...held.values()]]);
    return row!;
  };
  const answer = async (db: Database, statement: string, params: string[][]) => {
    const first = await read(db, statement, params);
    if (first.unknown.length === 0) return first.body;
    const found = await decimalsOf(first.unknown);
    if (found.size === 0) return first.body;
    if (held.size + found.size > HELD_DECIMALS_MAX) held = new Map();
    for (const [mint, d] of found) held.set(mint, d);
    return (await read(db, statement, params)).body;
  };
  return {
    tickers: (db) => answer(db, TICKERS_STATEMENT, [USD_STABLE_MINTS]),
    pairs: (db) => answer(db, PAIRS_STATEMENT, []),
  };
}
