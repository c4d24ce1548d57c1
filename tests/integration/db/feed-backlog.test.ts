import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEED_EVENT_KINDS } from "../../../lib/db/schema/feed";
import { matches, type FeedFilter } from "../../../lib/feed/events";
import { readMatching } from "../../../lib/feed/log";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";

// A resuming stream's backlog (lib/feed/log.ts readMatching) over one GIN
// index of every event's filter values (feed_events_keys_idx): each filter
// (a maker, an offer, a token, a payment mint, two at once) returns exactly
// the events the hub's own test (matches) passes, in id order, including
// events whose other columns hold the value asked for; and a rare value's
// page after an old id is read through that index, not by walking the log.

let database: TestDatabase;
let sql: postgres.Sql;
const ALL = new Set(FEED_EVENT_KINDS);

beforeAll(async () => {
  database = await createTestDatabase();
  sql = database.db.$client;
  // 30,000 events: 40 tokens, 3 payment mints, 500 makers, an offer per 3 events; candles with no offer or maker;
  // revokes naming several offers; and events whose maker is named like a token (only the makers column must match).
  await sql`insert into feed_events (kind, signature, slot, offer_pdas, makers, token_mints, payment_mints, payload)
    select (array['fill', 'offer', 'candle', 'revoke'])[1 + (case when i % 97 = 0 then 3 when i % 7 = 0 then 2 when i % 2 = 0 then 1 else 0 end)],
      'sig-' || i, i,
      case when i % 7 = 0 and i % 97 <> 0 then '{}'::text[] when i % 97 = 0 then array['offer-' || i / 3, 'offer-' || i / 3 + 1] else array['offer-' || i / 3] end,
      case when i % 7 = 0 and i % 97 <> 0 then '{}'::text[] when i % 1000 = 5 then array['token-' || i % 40] else array['maker-' || i % 500] end,
      array['token-' || i % 40], array['pay-' || i % 3], '{}'
    from generate_series(1, 30000) i`;
  await sql`vacuum analyze feed_events`; // as autovacuum leaves it: the GIN pending list merged
});

afterAll(async () => {
  await database?.drop();
});

const rowsOf = async (filter: FeedFilter) => {
  const rows = await sql<{ id: string; offer_pdas: string[]; makers: string[]; token_mints: string[]; payment_mints: string[]; kind: never }[]>`
    select id::text, kind, offer_pdas, makers, token_mints, payment_mints from feed_events order by feed_events.id`;
  return rows
    .map((r) => ({ id: r.id, kind: r.kind, offerPdas: r.offer_pdas, makers: r.makers, tokenMints: r.token_mints, paymentMints: r.payment_mints }))
    .filter((e) => matches(e as never, filter))
    .map((e) => e.id);
};

describe("the feed's backlog over feed_events_keys_idx", () => {
  const filters: FeedFilter[] = [
    { types: ALL, maker: "maker-7" },
    { types: ALL, maker: "token-5" },
    { types: ALL, offerPda: "offer-2910" },
    { types: ALL, tokenMint: "token-5" },
    { types: new Set(["candle", "fill"] as const), tokenMint: "token-5", paymentMint: "pay-2" },
    { types: ALL, paymentMint: "pay-1", maker: "maker-13" },
  ];
  it.each(filters.map((f) => [JSON.stringify({ ...f, types: [...f.types] }), f] as const))("returns what the hub matches: %s", async (_, filter) => {
    const page = await readMatching(sql, 0n, filter, 100_000);
    const expected = await rowsOf(filter);
    expect(expected.length).toBeGreaterThan(0);
    expect(page.events.map((e) => e.id.toString())).toEqual(expected);
  });

  it("reads a rare value's page after an old id through the index, not by walking the log", async () => {
    const statements: { query: string; params: unknown[] }[] = [];
    const traced = postgres(database.url, { max: 1, onnotice: () => {}, debug: (_c, query, params) => statements.push({ query, params }) });
    try {
      await readMatching(traced, 10n, { types: ALL, maker: "maker-7" });
      const { query, params } = statements.find((s) => s.query.includes("feed_events"))!;
      const plan = (await sql.unsafe(`explain ${query}`, params as string[])).map((r) => r["QUERY PLAN"]).join("\n");
      expect(plan).toMatch(/Bitmap Index Scan on feed_events_keys_idx/);
      expect(plan).not.toMatch(/Seq Scan on feed_events/);
    } finally {
      await traced.end();
    }
  });
});
