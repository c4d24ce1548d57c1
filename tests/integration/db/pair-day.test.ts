import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coinGeckoMarkets, PAIRS_STATEMENT, TICKERS_STATEMENT } from "../../../lib/adapters/coingecko-markets";
import type { DecimalsOf } from "../../../lib/adapters/pair-units";
import type { Database } from "../../../lib/db/client";
import { PAIR_DAYS, pairDayOrder } from "../../../lib/db/reads/pair-day";
import { formatDecimal, parseDecimal, shiftDecimal } from "../../../lib/program/decimal";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { USDC, USDT, WSOL } from "../../helpers/fixtures";

// The CoinGecko tickers' read (lib/db/reads/pair-day.ts) walks the pairs by
// index and takes the day from the candles. This pins that it answers what
// the first definition (below, verbatim: every open offer grouped, the day's
// fills joined with their offers) answered, over a ledger of several tokens
// and payment mints with open, lapsed, expiring, filled and cancelled offers,
// a pair with fills only and one with offers only, sums beyond 2^64, and
// after a rollback deletes and moves fills; that the one documented change
// (the day starts at the minute holding now() - 24 hours) is what differs;
// and that its plan scans neither offers nor fills.

/** The first definition's statements (lib/adapters/coingecko.ts before the pair-day read), verbatim but for parameters. */
const REFERENCE_FLOOR = `select slot_floor::text as floor from fill_slot_bounds
    where minute >= date_bin('1 minute', now() - interval '24 hours', timestamptz '2000-01-01 00:00:00+00') order by minute limit 1`;
const referenceStatement = (floor: string | null) => `
    with book as (
      select token_mint, payment_mint,
        min(price) filter (where side = 'sell') as ask, max(price) filter (where side = 'buy') as bid,
        sum(remaining_size * price) as depth
      from offers where state = 'active' and not lapsed and expires_at > now()
      group by token_mint, payment_mint
    ),
    recent as (
      select f.token_mint, f.payment_mint, sum(f.fill_amount) as base, sum(f.payment_amount) as target,
        max(fill_price(o.price_per_token, o.price_scale)) as high, min(fill_price(o.price_per_token, o.price_scale)) as low
      from fills f join offers o on o.pda = f.offer_pda
      where f.block_time > now() - interval '24 hours' and ${floor === null ? "false" : `f.slot >= ${floor}::bigint`}
      group by f.token_mint, f.payment_mint
    ),
    pairs as (
      select coalesce(b.token_mint, r.token_mint) as token_mint, coalesce(b.payment_mint, r.payment_mint) as payment_mint,
        b.ask, b.bid, coalesce(b.depth, 0) as depth, coalesce(r.base, 0) as base, coalesce(r.target, 0) as target, r.high, r.low
      from book b full join recent r on r.token_mint = b.token_mint and r.payment_mint = b.payment_mint
    )
    select p.token_mint, p.payment_mint, p.ask::text, p.bid::text, p.depth::text, p.base::text, p.target::text, p.high::text, p.low::text,
      (select fill_price(o.price_per_token, o.price_scale) from fills f join offers o on o.pda = f.offer_pda
        where f.token_mint = p.token_mint and f.payment_mint = p.payment_mint
        order by f.slot desc, f.signature desc, f.ix_index desc limit 1)::text as last
    from pairs p order by p.target desc, p.token_mint, p.payment_mint`;

/** PAIR_DAYS' rows, busiest first, their figures as text. */
const PAIR_DAY_STATEMENT = `${PAIR_DAYS}
  select d.token_mint, d.payment_mint, d.ask::text, d.bid::text, d.depth::text, d.base::text, d.target::text, d.high::text, d.low::text, d.last::text
  from days d order by ${pairDayOrder("d")}`;

interface PairDayRow {
  token_mint: string;
  payment_mint: string;
  ask: string | null;
  bid: string | null;
  /** Only for the pairs whose payment mint was asked for. */
  depth: string | null;
  base: string;
  target: string;
  high: string | null;
  low: string | null;
  last: string | null;
}

const USD = [USDC, USDT];
const MINTS = [USDC, USDT, WSOL];
const TOKENS = Array.from({ length: 5 }, (_, i) => `day-token-${i}`);

let database: TestDatabase;
let sql: postgres.Sql;

/**
 * 600 offers over the last 40 days on 5 tokens × 3 payment mints (one pair,
 * token 4 in SOL, gets none: its fills come from token 4's USDC offers'
 * twins below), open, lapsed, past expiry, filled and cancelled; 3,000 fills
 * over the last 48 hours, none within 3 minutes of now() - 24 hours (where
 * the two definitions differ), some paying past 2^64. Run inside `tx`.
 */
async function seed(tx: postgres.TransactionSql): Promise<void> {
  await tx`
    insert into offers (pda, maker, token_mint, payment_mint, side, nonce, original_size, remaining_size, price_per_token, price_scale,
      min_fill, created_at, expires_at, state, lapsed, last_slot)
    select 'day-offer-' || i, 'day-maker', (${TOKENS}::text[])[1 + i % 5], (${MINTS}::text[])[1 + (i / 5) % 3],
      (case when i % 3 = 0 then 'buy' else 'sell' end)::offer_side, i, 1000 + i * 7, 1 + (i * 13) % (1000 + i * 7),
      1 + (i * 37) % 997, (i % 4)::smallint, 1, now() - i * interval '95 minutes',
      case when i % 11 = 0 then now() - interval '1 minute' else now() + interval '30 days' end,
      (case when i % 9 = 0 then 'filled' when i % 13 = 0 then 'cancelled' else 'active' end)::offer_state,
      i % 17 = 0 and i % 9 <> 0 and i % 13 <> 0, 1000 + i
    from generate_series(1, 600) i
    where not ((${TOKENS}::text[])[1 + i % 5] = 'day-token-4' and (${MINTS}::text[])[1 + (i / 5) % 3] = ${WSOL})`;
  await tx`
    insert into fills (signature, ix_index, offer_pda, maker, taker, token_mint, payment_mint, side, fill_amount, payment_amount, fee_amount, block_time, slot)
    select 'day-fill-' || j, j % 3, o.pda, o.maker, 'day-taker', o.token_mint, o.payment_mint, o.side,
      1 + j % 29, case when j % 101 = 0 then 18446744073709551615 else 100 + (j * 31) % 1000 end, 0, t.at, 5000 + j
    from generate_series(1, 3000) j
    join offers o on o.pda = 'day-offer-' || (1 + (j * 7) % 600)
    cross join lateral (select now() - (j * 57) * interval '1 second' as at) t
    where abs(extract(epoch from t.at - (now() - interval '24 hours'))) > 180`;
  // Fills only: a pair whose offers are all filled (token 4 in SOL, on offers made for it here).
  await tx`
    insert into offers (pda, maker, token_mint, payment_mint, side, nonce, original_size, remaining_size, price_per_token, price_scale,
      min_fill, created_at, expires_at, state, last_slot)
    select 'day-gone-' || i, 'day-maker', 'day-token-4', ${WSOL}, 'sell', 10000 + i, 50, 0, 3 + i, 1, 1,
      now() - interval '2 days', now() + interval '28 days', 'filled', 3000 + i
    from generate_series(1, 3) i`;
  await tx`
    insert into fills (signature, ix_index, offer_pda, maker, taker, token_mint, payment_mint, side, fill_amount, payment_amount, fee_amount, block_time, slot)
    select 'day-gone-fill-' || i, 0, 'day-gone-' || i, 'day-maker', 'day-taker', 'day-token-4', ${WSOL}, 'sell', 50, 15 + i, 0,
      now() - i * interval '3 hours', 9000 + i
    from generate_series(1, 3) i`;
}

const normal = (text: string | null) => (text === null ? null : formatDecimal(parseDecimal(text)));

/** A row with its numbers in one spelling (numeric's scale is not the answer's: the adapter normalizes), depth only where asked for. */
const comparable = (r: PairDayRow) => ({
  pair: `${r.token_mint}/${r.payment_mint}`,
  ask: normal(r.ask),
  bid: normal(r.bid),
  depth: USD.includes(r.payment_mint) ? normal(r.depth) : null,
  base: normal(r.base),
  target: normal(r.target),
  high: normal(r.high),
  low: normal(r.low),
  last: normal(r.last),
});

/** The adapters' reads over `tx` (they speak SQL through the client alone). */
const inTransaction = (tx: postgres.TransactionSql) => ({ $client: tx }) as unknown as Database;

/** Both definitions' rows, in `tx` (one now()), and /v1/coingecko/pairs' pairs with every mint's decimals known. */
async function bothAnswers(tx: postgres.TransactionSql) {
  const [bound] = await tx.unsafe(REFERENCE_FLOOR);
  const reference = (await tx.unsafe(referenceStatement((bound?.floor as string | undefined) ?? null))) as unknown as PairDayRow[];
  const current = (await tx.unsafe(PAIR_DAY_STATEMENT, [USD])) as unknown as PairDayRow[];
  const pairs = JSON.parse(await coinGeckoMarkets(async (mints) => new Map(mints.map((m) => [m, 0]))).pairs(inTransaction(tx))) as { base: string; target: string }[];
  return { reference: reference.map(comparable), current: current.map(comparable), pairs: pairs.map((p) => `${p.base}/${p.target}`) };
}

/** Runs `f` in a transaction that is rolled back, so each case starts from the empty database. */
async function inRolledBack(f: (tx: postgres.TransactionSql) => Promise<void>): Promise<void> {
  const rollback = new Error("rollback");
  await sql.begin(async (tx) => {
    await f(tx);
    throw rollback;
  }).catch((error: unknown) => {
    if (error !== rollback) throw error;
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  sql = database.db.$client;
});

afterAll(async () => {
  await database?.drop();
});

describe("the CoinGecko tickers' read", () => {
  it("answers what the first definition answered, and /pairs names the same pairs in the same order", async () => {
    await inRolledBack(async (tx) => {
      await seed(tx);
      const { reference, current, pairs } = await bothAnswers(tx);
      expect(reference.length).toBe(15);
      expect(reference.filter((r) => r.base !== "0").length).toBeGreaterThan(10);
      expect(reference.some((r) => r.ask === null && r.bid === null)).toBe(true); // the fills-only pair
      expect(current).toEqual(reference);
      expect(pairs).toEqual(reference.map((r) => r.pair));
    });
  });

  it("still does after a rollback deletes fills and offers and a fill moves", async () => {
    await inRolledBack(async (tx) => {
      await seed(tx);
      await tx`delete from fills where slot % 7 = 0`;
      await tx`delete from offers o where o.pda like 'day-offer-%' and o.nonce % 23 = 0 and not exists (select 1 from fills f where f.offer_pda = o.pda)`;
      await tx`update fills set block_time = block_time - interval '1 hour' where slot % 13 = 0 and block_time < now() - interval '26 hours'`;
      await tx`update fills set block_time = block_time - interval '30 hours' where slot % 19 = 0 and block_time > now() - interval '20 hours'`;
      const { reference, current } = await bothAnswers(tx);
      expect(current).toEqual(reference);
    });
  });

  it("counts the day from the start of the minute that holds now() - 24 hours (the documented change)", async () => {
    await inRolledBack(async (tx) => {
      await seed(tx);
      await tx`
        insert into fills (signature, ix_index, offer_pda, maker, taker, token_mint, payment_mint, side, fill_amount, payment_amount, fee_amount, block_time, slot)
        select 'day-edge-' || e.n, 0, o.pda, o.maker, 'day-taker', o.token_mint, o.payment_mint, o.side, 1000000, 7000000, 0, e.at, 1
        from offers o, (values
          (1, date_bin('1 minute', now() - interval '24 hours', timestamptz '2000-01-01 00:00:00+00')),
          (2, date_bin('1 minute', now() - interval '24 hours', timestamptz '2000-01-01 00:00:00+00') - interval '1 microsecond')) e(n, at)
        where o.pda = 'day-offer-2'`;
      const { reference, current } = await bothAnswers(tx);
      const pair = (rows: typeof current) => rows.find((r) => r.pair === `day-token-2/${USDC}`)!;
      const baseOf = (rows: typeof current) => BigInt(pair(rows).base!);
      // The fill at the minute's start is in the day; the one a microsecond before is in neither.
      expect(baseOf(current) - baseOf(reference)).toBe(1000000n);
    });
  });
});

describe("the CoinGecko tickers' and pairs' bodies", () => {
  // Decimals of every mint but day-token-4's, from 0 to 12: its pairs cannot be stated in whole tokens.
  const DECIMALS = new Map([[USDC, 6], [USDT, 6], [WSOL, 9], ["day-token-0", 0], ["day-token-1", 5], ["day-token-2", 9], ["day-token-3", 12]]);

  /** The body as JavaScript writes it from the pairs' raw rows (the adapter's first form): lib/program/decimal.ts's exact shifts. */
  function javaScriptTickers(rows: PairDayRow[]): string {
    const tickers = rows.flatMap((r) => {
      const token = DECIMALS.get(r.token_mint);
      const payment = DECIMALS.get(r.payment_mint);
      if (token === undefined || payment === undefined) return [];
      const price = (raw: string | null) => (raw === null ? null : shiftDecimal(raw, token - payment));
      const id = `${r.token_mint}_${r.payment_mint}`;
      return [{
        ticker_id: id,
        base_currency: r.token_mint,
        target_currency: r.payment_mint,
        pool_id: id,
        last_price: price(r.last),
        base_volume: shiftDecimal(r.base, -token),
        target_volume: shiftDecimal(r.target, -payment),
        bid: price(r.bid),
        ask: price(r.ask),
        high: price(r.high),
        low: price(r.low),
        ...(USD.includes(r.payment_mint) ? { liquidity_in_usd: shiftDecimal(r.depth ?? "0", -payment) } : {}),
      }];
    });
    return JSON.stringify(tickers);
  }

  it("are JavaScript's exact shift of the pairs' rows, byte for byte, without the pairs whose decimals are unknown", async () => {
    await inRolledBack(async (tx) => {
      await seed(tx);
      const asked: string[][] = [];
      const decimalsOf: DecimalsOf = async (mints) => {
        asked.push([...mints].sort());
        return new Map(mints.flatMap((m) => (DECIMALS.has(m) ? [[m, DECIMALS.get(m)!] as const] : [])));
      };
      const markets = coinGeckoMarkets(decimalsOf);
      const rows = (await tx.unsafe(PAIR_DAY_STATEMENT, [USD])) as unknown as PairDayRow[];
      const tickers = await markets.tickers(inTransaction(tx));
      expect(tickers).toBe(javaScriptTickers(rows));
      expect(JSON.parse(tickers).length).toBe(rows.filter((r) => r.token_mint !== "day-token-4").length);
      expect(tickers).toContain('"liquidity_in_usd"');
      const pairs = JSON.parse(tickers).map((t: { ticker_id: string; base_currency: string; target_currency: string }) => ({
        ticker_id: t.ticker_id,
        base: t.base_currency,
        target: t.target_currency,
        pool_id: t.ticker_id,
      }));
      expect(await markets.pairs(inTransaction(tx))).toBe(JSON.stringify(pairs));
      // The first answer asks for every mint; the next ones, either kind, only for the one still unknown.
      expect(asked[0]).toEqual([...DECIMALS.keys(), "day-token-4"].sort());
      expect(await markets.tickers(inTransaction(tx))).toBe(tickers);
      expect(asked.slice(1)).toEqual([["day-token-4"], ["day-token-4"]]);
    });
  });
});

describe("the CoinGecko tickers' plan", () => {
  it("reads the open books' sums, probes offers_open_book_idx for best prices and walks candles: no scan of offers or fills", async () => {
    await sql`insert into offers (pda, maker, token_mint, payment_mint, side, nonce, original_size, remaining_size, price_per_token, price_scale,
        min_fill, created_at, expires_at, state, last_slot)
      select 'day-bulk-' || i, 'day-bulk-maker', 'day-bulk-token-' || i % 40, (${MINTS}::text[])[1 + i % 3], 'sell', i, 10, 10, 1 + i % 50, 0, 1,
        now() - i * interval '1 minute', now() - i * interval '1 minute' + interval '30 days', (case when i % 20 = 0 then 'active' else 'filled' end)::offer_state, i
      from generate_series(1, 40000) i`;
    await sql`insert into fills (signature, ix_index, offer_pda, maker, taker, token_mint, payment_mint, side, fill_amount, payment_amount, fee_amount, block_time, slot)
      select 'day-bulk-fill-' || o.pda, 0, o.pda, o.maker, 'day-taker', o.token_mint, o.payment_mint, o.side, 1, 1, 0, o.created_at, o.last_slot
      from offers o where o.pda like 'day-bulk-%' and o.state = 'filled'`;
    await sql`analyze`;
    for (const [statement, params] of [
      [TICKERS_STATEMENT, [USD, [], []]],
      [PAIRS_STATEMENT, [[], []]],
    ] as const) {
      const plan = (await sql.unsafe(`explain ${statement}`, params as unknown as string[][])).map((r) => r["QUERY PLAN"]).join("\n");
      expect(plan).not.toMatch(/Seq Scan on (offers|fills|candles)/);
      expect(plan).toMatch(/on open_book b/);
      if (statement === TICKERS_STATEMENT) expect(plan).toMatch(/Index Scan( Backward)? using offers_open_book_idx on offers/);
      expect(plan).toMatch(/candles_token_mint_payment_mint_resolution_bucket_pk/);
    }
  });
});
