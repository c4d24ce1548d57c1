import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertOffer, type NewOffer } from "../../../lib/db/writes/index";
import { BOOK_STATEMENT } from "../../../lib/db/reads/book";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, offerFixture, USDC, USDT } from "../../helpers/fixtures";
import { startWebServer, type WebServer } from "../../helpers/server";

// GET /v1/book over real PostgreSQL and HTTP: open offers summed per exact
// price, best first, with the slot and feed id; what is not open (ended,
// past expiry, flagged lapsed, another pair) left out; read from the book
// index, never a scan of offers.

let database: TestDatabase;
let server: WebServer;
const sql = () => database.db.$client;

const TOKEN = addressOf("token:book");
const U64_MAX = 2n ** 64n - 1n;
const past = new Date(Date.now() - 3600_000);

const ask = (label: string, pricePerToken: bigint, priceScale: number, remainingSize: bigint, extra: Partial<NewOffer> = {}) =>
  offerFixture(`book-${label}`, { tokenMint: TOKEN, side: "sell", pricePerToken, priceScale, originalSize: remainingSize, remainingSize, ...extra });
const bid = (label: string, pricePerToken: bigint, priceScale: number, remainingSize: bigint, extra: Partial<NewOffer> = {}) =>
  ask(label, pricePerToken, priceScale, remainingSize, { side: "buy", ...extra });

const offers: NewOffer[] = [
  ask("a1", 2_500_000n, 6, 1000n),
  ask("a2", 2_500_000n, 6, 3000n),
  ask("a3", 25n, 1, 7n), // 2.5 at another scale: the same level
  ask("a4", 26n, 1, 11n),
  ask("a5", 3n, 0, 5n),
  ask("expired", 24n, 1, 1n, { expiresAt: past }),
  ask("lapsed", 23n, 1, 1n, { expiresAt: past }),
  ask("filled", 22n, 1, 1n),
  ask("cancelled", 21n, 1, 1n),
  ask("other-pair", 1n, 0, 1n, { paymentMint: USDT }),
  bid("b1", 2n, 0, 100n),
  bid("b2", 1_999_999_999n, 9, U64_MAX),
  bid("b3", 1_999_999_999n, 9, U64_MAX),
  bid("b4", 15n, 1, 1n),
  bid("b-expired", 9n, 0, 1n, { expiresAt: past }),
];

const path = (extra = "") => `/v1/book?tokenMint=${TOKEN}&paymentMint=${USDC}${extra}`;

beforeAll(async () => {
  database = await createTestDatabase();
  for (const offer of offers) await insertOffer(sql(), offer);
  await sql()`update offers set lapsed = true where price_per_token = 23 and token_mint = ${TOKEN}`;
  await sql()`update offers set state = 'filled' where price_per_token = 22 and token_mint = ${TOKEN}`;
  await sql()`update offers set state = 'cancelled' where price_per_token = 21 and token_mint = ${TOKEN}`;
  await sql()`insert into scanner_checkpoints (program_id, last_slot) values ('book-test', 4242)`;
  server = await startWebServer({ DATABASE_URL: database.url });
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

const ASKS = [
  { price: "2.5", size: "4007", offers: 3 },
  { price: "2.6", size: "11", offers: 1 },
  { price: "3", size: "5", offers: 1 },
];
const BIDS = [
  { price: "2", size: "100", offers: 1 },
  { price: "1.999999999", size: (2n * U64_MAX).toString(), offers: 2 },
  { price: "1.5", size: "1", offers: 1 },
];

describe("GET /v1/book", () => {
  it("sums the open offers per exact price, asks ascending and bids descending, with the slot and feed id it reflects", async () => {
    const [feed] = await sql()`select coalesce(max(id), 0)::text as id from feed_events`;
    const { status, headers, body } = await server.json(path());
    expect(status).toBe(200);
    expect(headers.get("etag")).toBeTruthy();
    expect(body).toEqual({ tokenMint: TOKEN, paymentMint: USDC, depth: 50, slot: "4242", feedId: feed!.id, asks: ASKS, bids: BIDS });
  });

  it("keeps `depth` levels per side, clamps above the maximum, and answers an empty book for a pair without open offers", async () => {
    const two = (await server.json(path("&depth=2"))).body;
    expect([two.depth, two.asks, two.bids]).toEqual([2, ASKS.slice(0, 2), BIDS.slice(0, 2)]);
    expect((await server.json(path("&depth=100000"))).body).toMatchObject({ depth: 500, asks: ASKS, bids: BIDS });
    const empty = (await server.json(`/v1/book?tokenMint=${TOKEN}&paymentMint=${addressOf("nobody-pays")}`)).body;
    expect([empty.asks, empty.bids]).toEqual([[], []]);
  });

  it("follows the offers: a partial fill and an end move the levels", async () => {
    await sql()`update offers set remaining_size = 400 where pda = ${offers[0]!.pda}`;
    await sql()`update offers set state = 'filled', remaining_size = 0 where pda = ${offers[4]!.pda}`;
    const { body } = await server.json(path());
    expect(body.asks).toEqual([{ price: "2.5", size: "3407", offers: 3 }, { price: "2.6", size: "11", offers: 1 }]);
    await sql()`update offers set remaining_size = 1000 where pda = ${offers[0]!.pda}`;
    await sql()`update offers set state = 'active', remaining_size = 5 where pda = ${offers[4]!.pda}`;
  });

  it("validates like the other endpoints", async () => {
    const expectError = async (query: string, code: string, param: string) => {
      const { status, body } = await server.json(`/v1/book?${query}`);
      expect(status, query).toBe(400);
      expect(body, query).toEqual({ error: expect.any(String), code, param });
    };
    await expectError(`paymentMint=${USDC}`, "missing_parameter", "tokenMint");
    await expectError(`tokenMint=${TOKEN}`, "missing_parameter", "paymentMint");
    await expectError(`tokenMint=nope&paymentMint=${USDC}`, "invalid_parameter", "tokenMint");
    await expectError(`tokenMint=${TOKEN}&paymentMint=${USDC}&depth=0`, "invalid_parameter", "depth");
    await expectError(`tokenMint=${TOKEN}&paymentMint=${USDC}&depth=ten`, "invalid_parameter", "depth");
  });
});

describe("the book's plan", () => {
  it("walks offers_open_book_idx per side and stops at the depth: no scan of offers, among many offers of other books", async () => {
    // Offers of 400 other pairs, open, and of this pair, ended: the book must not read them.
    await sql()`insert into offers (pda, maker, token_mint, payment_mint, side, nonce, original_size, remaining_size,
        price_per_token, price_scale, min_fill, created_at, expires_at, state, last_slot)
      select 'bulk-' || i, 'maker-' || (i % 97), case when i % 5 = 0 then ${TOKEN} else 'token-' || (i % 400) end, ${USDC},
        (case when i % 2 = 0 then 'sell' else 'buy' end)::offer_side, i, 1000, 1000, 1 + i % 1000, 3, 1,
        now() - interval '1 day', now() + interval '1 day',
        (case when i % 5 = 0 then 'filled' else 'active' end)::offer_state, 1
      from generate_series(1, 60000) i`;
    await sql()`analyze offers`;
    const rows = await sql().unsafe(`explain ${BOOK_STATEMENT}`, [TOKEN, USDC, 50]);
    const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
    expect(plan).toMatch(/Index Scan using offers_open_book_idx on offers/);
    expect(plan).toMatch(/Index Scan Backward using offers_open_book_idx on offers/);
    expect(plan).not.toMatch(/Seq Scan on offers/);
    expect(plan).not.toMatch(/Sort\b/);
    // The values are as before: the bulk is other books, or ended.
    expect((await server.json(path())).body).toMatchObject({ asks: ASKS, bids: BIDS });
  });
});
