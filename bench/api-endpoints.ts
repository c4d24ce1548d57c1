import postgres from "postgres";
import { PAYMENT_MINTS } from "./api-data";

// The endpoints bench:api measures, each a name and the URLs its load cycles
// through, drawn from the bench database's own rows; bench:api-gc picks one of
// them by name. One table, so both benches ask the very same requests.

/** Rows of the bench database that the URLs are made of. */
export interface Samples {
  makers: string[];
  takers: string[];
  tokens: string[];
  pdas: string[];
  /** The newest fill's time, in seconds. */
  hi: number;
}

export async function benchSamples(url: string): Promise<Samples> {
  const sql = postgres(url, { max: 1 });
  try {
    const pick = async (query: string) => (await sql.unsafe(query)).map((r) => String(r.v));
    const makers = await pick("select maker as v from offers where state = 'active' group by maker limit 200");
    const takers = await pick("select taker as v from fills tablesample system (0.1) limit 200");
    const tokens = await pick("select distinct token_mint as v from offers limit 50");
    const pdas = await pick("select offer_pda as v from fills tablesample system (0.1) limit 200");
    const [range] = await sql`select extract(epoch from max(block_time))::bigint as hi from fills`;
    return { makers, takers, tokens, pdas, hi: Number(range!.hi) };
  } finally {
    await sql.end();
  }
}

export const NOOP = "GET /v1 (no-op route)";

const each = <T>(values: T[], f: (v: T) => string) => values.map(f);

/** Every endpoint bench:api measures, in its order: [name, URLs]. */
export function benchEndpoints(s: Samples): [string, string[]][] {
  const day = 86_400;
  const book = PAYMENT_MINTS[0]!;
  return [
  // No database: what the framework itself costs a request, against a bare constant reply.
  [NOOP, ["/v1"]],
  ["/v1/stats", ["/v1/stats"]],
  ["/v1/offers (open)", ["/v1/offers"]],
  ["/v1/offers?maker", each(s.makers, (m) => `/v1/offers?maker=${m}`)],
  ["/v1/offers?tokenMint", each(s.tokens, (t) => `/v1/offers?tokenMint=${t}`)],
  ["/v1/offers?paymentMint", each(PAYMENT_MINTS, (p) => `/v1/offers?paymentMint=${p}`)],
  ["/v1/offers?side", ["/v1/offers?side=buy", "/v1/offers?side=sell"]],
  ["/v1/offers?status=filled", ["/v1/offers?status=filled"]],
  ["/v1/offers?status=expired", ["/v1/offers?status=expired"]],
  ["/v1/offers?sort=price (book)", each(s.tokens, (t) => `/v1/offers?sort=price&tokenMint=${t}&paymentMint=${book}&side=sell`)],
  ["/v1/offers/:pda", each(s.pdas, (p) => `/v1/offers/${p}`)],
  ["/v1/offers/:pda/fills", each(s.pdas, (p) => `/v1/offers/${p}/fills`)],
  ["/v1/fills", ["/v1/fills"]],
  ["/v1/fills?taker", each(s.takers, (t) => `/v1/fills?taker=${t}`)],
  ["/v1/fills?maker", each(s.makers, (m) => `/v1/fills?maker=${m}`)],
  ["/v1/fills?offerPda", each(s.pdas, (p) => `/v1/fills?offerPda=${p}`)],
  ["/v1/fills?tokenMint", each(s.tokens, (t) => `/v1/fills?tokenMint=${t}`)],
  ["/v1/fills?paymentMint", each(PAYMENT_MINTS, (p) => `/v1/fills?paymentMint=${p}`)],
  ["/v1/fills?fromTime&toTime", Array.from({ length: 50 }, (_, i) => `/v1/fills?fromTime=${s.hi - (i + 2) * 7 * day}&toTime=${s.hi - (i + 1) * 7 * day}`)],
  // Narrow (one hour) and wide (from a year back) windows, and a window with another filter.
  ["/v1/fills?from&to (1 h)", Array.from({ length: 50 }, (_, i) => `/v1/fills?fromTime=${s.hi - (i + 1) * 7 * day}&toTime=${s.hi - (i + 1) * 7 * day + 3600}`)],
  ["/v1/fills?from&to (wide)", Array.from({ length: 50 }, (_, i) => `/v1/fills?fromTime=${s.hi - 51 * 7 * day}&toTime=${s.hi - i * 7 * day}`)],
  ["/v1/fills?tokenMint&from&to", each(s.tokens, (t) => `/v1/fills?tokenMint=${t}&fromTime=${s.hi - 20 * 7 * day}&toTime=${s.hi - 19 * 7 * day}`)],
  ["/v1/makers/:maker/stats", each(s.makers, (m) => `/v1/makers/${m}/stats`)],
  ["/v1/makers/:maker/offers", each(s.makers, (m) => `/v1/makers/${m}/offers`)],
  // The leaderboard of each window (maker_activity's hour, day and all-time buckets), and a maker's windowed stats.
  ["/v1/makers (24h)", ["/v1/makers?window=24h"]],
  ["/v1/makers (7d, by offers)", ["/v1/makers?window=7d&sort=offers"]],
  ["/v1/makers (30d, by volume)", each(PAYMENT_MINTS, (p) => `/v1/makers?window=30d&sort=volume&paymentMint=${p}`)],
  ["/v1/makers (all)", ["/v1/makers?window=all"]],
  ["/v1/makers/:maker/stats?window=7d", each(s.makers, (m) => `/v1/makers/${m}/stats?window=7d`)],
  ["/v1/candles (1d, a year)", each(s.tokens, (t) => `/v1/candles?tokenMint=${t}&paymentMint=${book}&resolution=1d&limit=365`)],
  ["/v1/candles (1m, a day)", each(s.tokens, (t) => `/v1/candles?tokenMint=${t}&paymentMint=${book}&resolution=1m&limit=1440`)],
  // The chart options: every minute of a day (empty ones filled), and a year of days in whole units (decimals from the token stand-in).
  ["/v1/candles (1m, a day, includeEmpty)", each(s.tokens, (t) => `/v1/candles?tokenMint=${t}&paymentMint=${book}&resolution=1m&limit=1440&includeEmpty=true&toTime=${s.hi}`)],
  ["/v1/candles (1d, a year, units=human)", each(s.tokens, (t) => `/v1/candles?tokenMint=${t}&paymentMint=${book}&resolution=1d&limit=365&units=human`)],
  ["/v1/candles (1h, human+invert+empty)", each(s.tokens, (t) => `/v1/candles?tokenMint=${t}&paymentMint=${book}&resolution=1h&limit=500&units=human&invert=true&includeEmpty=true&toTime=${s.hi}`)],
  ["/v1/book", each(s.tokens, (t) => `/v1/book?tokenMint=${t}&paymentMint=${book}`)],
  ["/v1/book (depth 500)", each(s.tokens, (t) => `/v1/book?tokenMint=${t}&paymentMint=${book}&depth=500`)],
  ["/v1/wallets/:address/trades", each(s.makers, (m) => `/v1/wallets/${m}/trades`)],
  ["/v1/wallets/:address/trades?role=taker", each(s.takers, (t) => `/v1/wallets/${t}/trades?role=taker`)],
  // An export streams every row: a pair's year of fills as CSV (5 M fills over 200 pairs: some 25,000 rows each).
  ["/v1/fills CSV (a pair's year)", each(s.tokens, (t) => `/v1/fills?format=csv&tokenMint=${t}&paymentMint=${book}&fromTime=${s.hi - 365 * day}&toTime=${s.hi}`)],
  // The aggregator adapters (whole tokens: decimals from the token stand-in). The DEXTools blocks are the
  // scanned transactions' slots (one per fill: api-data.ts's recordScan), announced below the checkpoint.
  ["/v1/coingecko/tickers", ["/v1/coingecko/tickers"]],
  ["/v1/coingecko/pairs", ["/v1/coingecko/pairs"]],
  ["/v1/markets", ["/v1/markets"]],
  ["/v1/coingecko/orderbook", each(s.tokens, (t) => `/v1/coingecko/orderbook?ticker_id=${t}_${book}&depth=100`)],
  ["/v1/coingecko/historical_trades", each(s.tokens, (t) => `/v1/coingecko/historical_trades?ticker_id=${t}_${book}`)],
  ["/v1/coingecko/historical_trades (week)", each(s.tokens, (t) => `/v1/coingecko/historical_trades?ticker_id=${t}_${book}&start_time=${s.hi - 7 * day}&end_time=${s.hi}`)],
  ["/v1/dextools/pair", each(s.tokens, (t) => `/v1/dextools/pair?id=${t}:${book}`)],
  ["/v1/dextools/latest-block", ["/v1/dextools/latest-block"]],
  ];
}
