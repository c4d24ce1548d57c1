import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKET_PROJECTION, MARKETS_STATEMENT } from "../../../lib/db/reads/markets";
import { OPEN_BOOK_SIDES } from "../../../lib/db/reads/open-book";
import { applyAccountSnapshot, endOffers, insertOffers, markLapsedOffers, recordFills } from "../../../lib/db/writes/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, fillFixture, offerFixture, USDC, USDT, WSOL } from "../../helpers/fixtures";

// The open books' sums (open_book, migration 0012, kept by the offers'
// trigger) and the reads built on them (lib/db/reads/open-book.ts: the
// markets' counts, the tickers' liquidity). This pins that the kept rows
// equal the open candidates grouped after every kind of write the worker
// makes (offers made, fills, account reads, ends, the lapse flag, rows
// deleted by a rollback) and what rebuild_aggregates computes; that the read
// equals the open offers grouped, past-expiry ones not yet flagged left out;
// that /v1/markets answers what its first statement (below, verbatim)
// answered; and that neither reads the open offers one by one.

const HOUR = 3_600_000;
const TOKENS = [addressOf("book-token:a"), addressOf("book-token:b"), addressOf("book-token:c")];
const PAYMENTS = [USDC, USDT, WSOL];

/** The first /v1/markets statement (lib/db/reads/markets.ts before the open books' sums), verbatim but for its parameter. */
const REFERENCE_MARKETS = `
    with open as (
      select token_mint, payment_mint, side from offers where offers.state = 'active' and not offers.lapsed and offers.expires_at > now()
    ),
    book as (
      select token_mint, payment_mint,
        count(*) filter (where side = 'sell')::int as asks,
        count(*) filter (where side = 'buy')::int as bids
      from open group by token_mint, payment_mint
    ),
    recent as (
      select token_mint, payment_mint, sum(payment_amount) as volume, count(*)::int as fills
      from fills where block_time > now() - interval '24 hours' and slot >= $1::bigint
      group by token_mint, payment_mint
    ),
    pairs as (
      select coalesce(b.token_mint, r.token_mint) as token_mint, coalesce(b.payment_mint, r.payment_mint) as payment_mint,
        coalesce(b.asks, 0) as asks, coalesce(b.bids, 0) as bids, coalesce(r.volume, 0) as volume, coalesce(r.fills, 0) as fills
      from book b full join recent r on r.token_mint = b.token_mint and r.payment_mint = b.payment_mint
    )
    select coalesce(json_agg(x order by p.volume desc, p.asks + p.bids desc, p.token_mint, p.payment_mint), '[]')::text as j
    from pairs p, lateral (select MARKET_PROJECTION) x`;

let database: TestDatabase;
let sql: postgres.Sql;

beforeAll(async () => {
  database = await createTestDatabase();
  sql = database.db.$client;
});

afterAll(async () => {
  await database?.drop();
});

/** open_book's rows that hold anything, as text in one spelling. */
const keptRows = () => sql`select token_mint, payment_mint, side::text, offers::text, trim_scale(value)::text as value from open_book
  where offers <> 0 or value <> 0 order by 1, 2, 3`;

/** The open candidates (active, not flagged lapsed) grouped, as open_book should hold them. */
const candidatesGrouped = () => sql`select token_mint, payment_mint, side::text, count(*)::text as offers, trim_scale(sum(remaining_size * price))::text as value
  from offers where state = 'active' and not lapsed group by 1, 2, 3 order by 1, 2, 3`;

/** The open offers (with the expiry) grouped, as OPEN_BOOK_SIDES should read them. */
const openGrouped = () => sql`select token_mint, payment_mint, side::text, count(*)::text as offers, trim_scale(sum(remaining_size * price))::text as value
  from offers where state = 'active' and not lapsed and expires_at > now() group by 1, 2, 3 order by 1, 2, 3`;

const sidesRead = () =>
  sql.unsafe(`select s.token_mint, s.payment_mint, s.side::text, s.offers::text, trim_scale(s.value)::text as value from ${OPEN_BOOK_SIDES} s order by 1, 2, 3`);

/** The markets' answer by both statements, in one transaction (one now()). */
async function bothMarkets(): Promise<{ current: unknown; reference: unknown }> {
  return sql.begin(async (tx) => {
    const [bound] = await tx`select slot_floor::text as floor from fill_slot_bounds
      where minute >= date_bin('1 minute', now() - interval '24 hours', timestamptz '2000-01-01 00:00:00+00') order by minute limit 1`;
    const floor = (bound?.floor as string | undefined) ?? null;
    const [current] = await tx.unsafe(MARKETS_STATEMENT, [floor]);
    const [reference] = await tx.unsafe(REFERENCE_MARKETS.replace("MARKET_PROJECTION", MARKET_PROJECTION), [floor]);
    return { current: JSON.parse(current!.j as string), reference: JSON.parse(reference!.j as string) };
  });
}

async function expectAllAgree(step: string): Promise<void> {
  expect(await keptRows(), step).toEqual(await candidatesGrouped());
  expect(await sidesRead(), step).toEqual(await openGrouped());
  const { current, reference } = await bothMarkets();
  expect(current, step).toEqual(reference);
}

describe("the open books' sums", () => {
  it("equal the open candidates grouped after offers, fills, account reads, ends, lapse flags and a rollback's deletes; and rebuild_aggregates agrees", async () => {
    const now = Date.now();
    const made = Array.from({ length: 60 }, (_, i) =>
      offerFixture(`book-${i}`, {
        tokenMint: TOKENS[i % 3]!,
        paymentMint: PAYMENTS[Math.floor(i / 3) % 3]!,
        side: i % 4 === 0 ? "buy" : "sell",
        nonce: BigInt(i),
        originalSize: 1_000n + BigInt(i),
        remainingSize: 1_000n + BigInt(i),
        // Prices at several scales, some beyond 2^64 in sum.
        pricePerToken: i % 7 === 0 ? 2n ** 64n - 1n : 1n + BigInt((i * 37) % 997),
        priceScale: i % 5,
        createdAt: new Date(now - i * HOUR),
        // Some already past expiry (not yet flagged), some about to be flagged.
        expiresAt: new Date(i % 6 === 0 ? now - HOUR : now + 24 * HOUR),
      }),
    );
    await insertOffers(sql, made);
    await expectAllAgree("offers made");

    await recordFills(
      sql,
      made.slice(0, 30).map((o, i) =>
        fillFixture(`book-fill-${i}`, o.pda, {
          // Every third takes the whole remaining size: the offer is filled.
          fillAmount: i % 3 === 0 ? o.remainingSize : 7n,
          paymentAmount: 11n,
          blockTime: new Date(now - i * 60_000),
          slot: 300n + BigInt(i),
        }),
      ),
    );
    await expectAllAgree("fills");

    await applyAccountSnapshot(sql, made[31]!.pda, { remainingSize: 5n, state: "active", slot: 900n });
    await applyAccountSnapshot(sql, made[32]!.pda, { remainingSize: 0n, state: "filled", slot: 900n });
    await endOffers(sql, [
      { pda: made[33]!.pda, state: "cancelled", slot: 901n, signature: null },
      { pda: made[34]!.pda, state: "expired", slot: 901n, signature: null },
    ]);
    await expectAllAgree("account reads and ends");

    expect(await markLapsedOffers(sql)).toBeGreaterThan(0);
    await expectAllAgree("lapse flags");

    // A rollback deletes fills (restoring the offer's size) and offers, and moves an offer to another side and price.
    await sql`update offers set remaining_size = original_size, state = 'active' where pda = ${made[3]!.pda}`;
    await sql`delete from fills where offer_pda = ${made[6]!.pda}`;
    await sql`delete from offers where pda in ${sql([made[6]!.pda, made[40]!.pda, made[41]!.pda])}`;
    await sql`update offers set side = 'buy', price_per_token = price_per_token + 1 where pda = ${made[43]!.pda}`;
    await expectAllAgree("a rollback");

    const kept = await keptRows();
    await sql`select rebuild_aggregates()`;
    expect(await keptRows()).toEqual(kept);
  });
});

describe("the open books' plans", () => {
  it("/v1/markets reads open_book and probes offers_open_book_idx: no scan of offers", async () => {
    await sql`insert into offers (pda, maker, token_mint, payment_mint, side, nonce, original_size, remaining_size, price_per_token, price_scale,
        min_fill, created_at, expires_at, state, lapsed, last_slot)
      select 'book-bulk-' || i, 'book-bulk-maker', 'book-bulk-token-' || i % 40, (${PAYMENTS}::text[])[1 + i % 3],
        (case when i % 2 = 0 then 'sell' else 'buy' end)::offer_side, i, 10, 10, 1 + i % 50, 0, 1,
        now() - i * interval '1 minute', now() - i * interval '1 minute' + interval '30 days',
        (case when i % 20 = 0 then 'active' else 'filled' end)::offer_state, i % 40 = 0, i
      from generate_series(1, 40000) i`;
    await sql`analyze`;
    const plan = (await sql.unsafe(`explain ${MARKETS_STATEMENT}`, ["1"])).map((r) => r["QUERY PLAN"]).join("\n");
    expect(plan).not.toMatch(/Seq Scan on offers/);
    expect(plan).toMatch(/on open_book b/);
    expect(plan).toMatch(/Index Scan using offers_open_book_idx on offers/);
    expect(plan).toMatch(/Index Scan Backward using offers_open_book_idx on offers/);
    expect(plan).toMatch(/offers_lapse_due_idx/);
  });
});
