import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endOffer, insertOffer, markLapsedOffers, recordFill, type NewFill, type NewOffer } from "../../../lib/db/writes/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, fillFixture, offerFixture, signatureOf } from "../../helpers/fixtures";
import { startWebServer, type WebServer } from "../../helpers/server";

// Issue 2's read paths: the lapse flag (a periodic job) must never change an
// answer, only its speed; a block-time window is served through slot bounds
// and must return exactly the fills in the window, whatever their slot order.

let database: TestDatabase;
let server: WebServer;

const MAKER = addressOf("maker:lapse");
const OTHER = addressOf("maker:lapse-other");
const HOUR = 3_600_000;
const now = Date.now();

const offers: NewOffer[] = [
  offerFixture("l-open-1", { maker: MAKER, createdAt: new Date("2026-06-01T00:00:00Z") }),
  offerFixture("l-open-2", { maker: OTHER, createdAt: new Date("2026-06-01T00:05:00Z") }),
  offerFixture("l-lapsed-1", { maker: MAKER, createdAt: new Date("2026-06-01T00:01:00Z"), expiresAt: new Date(now - 2 * HOUR) }),
  offerFixture("l-lapsed-2", { maker: MAKER, createdAt: new Date("2026-06-01T00:03:00Z"), expiresAt: new Date(now - HOUR) }),
  offerFixture("l-lapsed-3", { maker: OTHER, createdAt: new Date("2026-06-01T00:02:00Z"), expiresAt: new Date(now - 3 * HOUR) }),
  offerFixture("l-cranked", { maker: OTHER, createdAt: new Date("2026-06-01T00:04:00Z") }),
  offerFixture("l-cancelled", { maker: MAKER, createdAt: new Date("2026-06-01T00:06:00Z") }),
  // Open when the suite starts, past its expiry a few seconds later (set once the server is up): no write marks the moment.
  offerFixture("l-soon", { maker: MAKER, createdAt: new Date("2026-06-01T00:07:00Z") }),
];
const byLabel = (label: string) => offers.find((o) => o.pda === addressOf(`offer:${label}`))!;

/** Every answer that depends on lapsing, as JSON text, for before/after comparisons. */
async function answers() {
  const paths = [
    "/v1/stats",
    `/v1/makers/${MAKER}/stats`,
    `/v1/makers/${OTHER}/stats`,
    "/v1/offers?status=open&limit=200",
    "/v1/offers?status=expired&limit=200",
    "/v1/offers?status=expired&limit=2",
    `/v1/offers?status=expired&maker=${MAKER}`,
    `/v1/offers?status=open&maker=${MAKER}`,
    `/v1/makers/${OTHER}/offers?status=expired`,
  ];
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const { status, body } = await server.json(path);
    expect(status).toBe(200);
    out[path] = path === "/v1/stats" ? body : path.includes("/stats") ? body : body.offers.map((o: any) => `${o.pda}:${o.status}`);
  }
  return out;
}

const expiredPdas = (labels: string[]) =>
  labels
    .map(byLabel)
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.pda < b.pda ? 1 : -1))
    .map((o) => `${o.pda}:expired`);

const aggregateSnapshot = () =>
  database.db.execute(sql`select
    (select row_to_json(p) from protocol_stats p) as protocol,
    (select json_agg(m order by maker) from maker_stats m) as makers`);

beforeAll(async () => {
  database = await createTestDatabase();
  const c = database.db.$client;
  const soon = byLabel("l-soon");
  for (const offer of offers) if (offer !== soon) await insertOffer(c, offer);
  await endOffer(c, byLabel("l-cranked").pda, "expired", 500n);
  await endOffer(c, byLabel("l-cancelled").pda, "cancelled", 500n);
  server = await startWebServer({ DATABASE_URL: database.url });
  soon.expiresAt = new Date(Date.now() + 5_000);
  await insertOffer(c, soon);
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe("lapsed offers (active past expiry) are expired, exactly, whether or not the lapse job has run", () => {
  let before: Record<string, unknown>;

  it("before the job: counts and lists are exact", async () => {
    before = await answers();
    expect(before["/v1/stats"]).toMatchObject({ totalOffers: 8, openOffers: 3, expiredOffers: 4, cancelledOffers: 1, filledOffers: 0 });
    expect(before[`/v1/makers/${MAKER}/stats`]).toMatchObject({ totalOffers: 5, openOffers: 2, expiredOffers: 2, cancelledOffers: 1 });
    expect(before[`/v1/makers/${OTHER}/stats`]).toMatchObject({ totalOffers: 3, openOffers: 1, expiredOffers: 2 });
    expect(before["/v1/offers?status=expired&limit=200"]).toEqual(expiredPdas(["l-lapsed-1", "l-lapsed-2", "l-lapsed-3", "l-cranked"]));
  });

  it("the job flags exactly the lapsed active offers, once; every answer stays the same", async () => {
    expect(await markLapsedOffers(database.db.$client)).toBe(3);
    expect(await markLapsedOffers(database.db.$client)).toBe(0);
    const flagged = await database.db.execute(sql`select pda from offers where lapsed order by pda`);
    expect(flagged.map((r: any) => r.pda)).toEqual(["l-lapsed-1", "l-lapsed-2", "l-lapsed-3"].map((l) => byLabel(l).pda).sort());
    const [protocol] = await database.db.execute(sql`select lapsed_offers from protocol_stats`);
    expect(Number(protocol!.lapsed_offers)).toBe(3);
    expect(await answers()).toEqual(before);
  });

  it("an offer past its expiry but not yet flagged is expired at once; the next job run changes nothing visible", async () => {
    await new Promise((r) => setTimeout(r, Math.max(0, byLabel("l-soon").expiresAt.getTime() - Date.now() + 200)));
    const lapsedNow = await answers();
    expect(lapsedNow["/v1/stats"]).toMatchObject({ openOffers: 2, expiredOffers: 5 });
    expect(lapsedNow[`/v1/makers/${MAKER}/stats`]).toMatchObject({ openOffers: 1, expiredOffers: 3 });
    expect(lapsedNow["/v1/offers?status=expired&limit=200"]).toEqual(
      expiredPdas(["l-lapsed-1", "l-lapsed-2", "l-lapsed-3", "l-cranked", "l-soon"]),
    );
    expect(lapsedNow["/v1/offers?status=open&limit=200"]).toEqual(
      [byLabel("l-open-2"), byLabel("l-open-1")].map((o) => `${o.pda}:open`),
    );
    // Pages of the merged branches: the newest two expired.
    expect(lapsedNow["/v1/offers?status=expired&limit=2"]).toEqual(expiredPdas(["l-soon", "l-cranked"]));
    expect(await markLapsedOffers(database.db.$client)).toBe(1);
    expect(await answers()).toEqual(lapsedNow);
  });

  it("cranking a flagged offer, deleting one and undoing a crank keep the counts exact and equal to a recomputation", async () => {
    const c = database.db.$client;
    const expectedStats = async () => {
      const kept = await aggregateSnapshot();
      await database.db.execute(sql`select rebuild_aggregates()`);
      expect(await aggregateSnapshot()).toEqual(kept);
    };
    const base = (await server.json("/v1/stats")).body;
    await endOffer(c, byLabel("l-lapsed-1").pda, "expired", 600n, signatureOf("crank:l-lapsed-1"));
    expect((await server.json("/v1/stats")).body).toEqual(base); // still expired, now by state
    await expectedStats();
    await database.db.execute(sql`delete from offers where pda = ${byLabel("l-lapsed-2").pda}`);
    expect((await server.json("/v1/stats")).body).toMatchObject({ totalOffers: 7, expiredOffers: 4, openOffers: 2 });
    await expectedStats();
    // A rollback reopens the crank: the offer is active, flagged, and still past expiry.
    await database.db.execute(sql`update offers set state = 'active', ended_signature = null where pda = ${byLabel("l-lapsed-1").pda}`);
    expect((await server.json("/v1/stats")).body).toMatchObject({ totalOffers: 7, expiredOffers: 4, openOffers: 2 });
    expect((await server.json(`/v1/makers/${MAKER}/stats`)).body).toMatchObject({ totalOffers: 4, openOffers: 1, expiredOffers: 2 });
    await expectedStats();
  });
});

describe("GET /v1/fills with fromTime/toTime: exactly the fills in the window, newest slot first", () => {
  const T0 = Date.UTC(2026, 6, 1) / 1000;
  const offer = offerFixture("time-range", { originalSize: 10n ** 12n, remainingSize: 10n ** 12n });
  const TAKER_A = addressOf("taker:time-a");
  const TAKER_B = addressOf("taker:time-b");
  /**
   * 60 fills, two per slot, ~20 s apart and in slot order, except: a fill whose
   * block time is hours before its slot's neighbours, one hours after, and a
   * low slot stamped late. Inserted newest first (as a backfill pages) and the
   * rest in order, so the trigger sees both directions.
   */
  const fills: NewFill[] = Array.from({ length: 60 }, (_, i) => {
    const slot = 10_000n + BigInt(Math.floor(i / 2)) * 3n;
    let time = T0 + Math.floor(i / 2) * 20;
    if (i === 31) time = T0 - 4 * 3600; // far earlier than its slot says
    if (i === 40) time = T0 + 5 * 3600; // far later
    if (i === 3) time = T0 + 600 + 7; // a low slot stamped late (inside the 600..620 range)
    return fillFixture(`time-${i}`, offer.pda, {
      signature: signatureOf(`time-tx-${Math.floor(i / 2)}`),
      ixIndex: i % 2,
      taker: i % 3 === 0 ? TAKER_A : TAKER_B,
      fillAmount: 1n,
      paymentAmount: 2n,
      feeAmount: 0n,
      slot,
      blockTime: new Date(time * 1000),
    });
  });
  const cmp = (a: string | bigint, b: string | bigint) => (a < b ? -1 : a > b ? 1 : 0);
  const expected = (keep: (f: NewFill) => boolean) =>
    fills
      .filter(keep)
      .sort((a, b) => cmp(b.slot, a.slot) || cmp(b.signature, a.signature) || b.ixIndex - a.ixIndex)
      .map((f) => `${f.signature}/${f.ixIndex}`);
  const ids = (body: any) => body.fills.map((f: any) => `${f.signature}/${f.ixIndex}`);
  const secs = (f: NewFill) => f.blockTime.getTime() / 1000;
  const windows: [number | undefined, number | undefined][] = [
    [T0, T0 + 100],
    [T0 + 100, T0 + 100], // one instant, inclusive at both ends
    [T0 + 581, T0 + 619],
    [T0 + 600, T0 + 620],
    [T0 - 4 * 3600, T0 - 4 * 3600], // only the early outlier
    [T0 - 5 * 3600, T0 - 3 * 3600],
    [T0 + 4 * 3600, T0 + 6 * 3600], // only the late outlier
    [T0 + 1000, T0 + 3600], // between fills: none
    [T0 - 86_400, T0 + 86_400],
    [T0 + 300, undefined],
    [undefined, T0 + 300],
    [T0 + 7 * 3600, undefined],
    [undefined, T0 - 5 * 3600],
  ];
  const query = (from?: number, to?: number) => [from === undefined ? "" : `fromTime=${from}`, to === undefined ? "" : `toTime=${to}`].filter(Boolean).join("&");
  const inWindow = (from?: number, to?: number) => (f: NewFill) => (from === undefined || secs(f) >= from) && (to === undefined || secs(f) <= to);

  beforeAll(async () => {
    const c = database.db.$client;
    await insertOffer(c, offer);
    for (const f of [...fills.slice(30)].reverse()) await recordFill(c, f); // newest first
    for (const f of fills.slice(0, 30)) await recordFill(c, f); // then the older half in order
  });

  it("the trigger-kept slot bounds equal a recomputation from the rows", async () => {
    const read = () => database.db.execute(sql`select minute, slot_ceiling::text, slot_floor::text from fill_slot_bounds order by minute`);
    const kept = await read();
    await database.db.execute(sql`select rebuild_fill_slot_bounds()`);
    expect(await read()).toEqual(kept);
  });

  it.each(windows)("window [%s, %s] alone and with a taker filter", async (from, to) => {
    const keep = inWindow(from, to);
    expect(ids((await server.json(`/v1/fills?${query(from, to)}&limit=200`)).body)).toEqual(expected(keep));
    const withTaker = (await server.json(`/v1/fills?${query(from, to)}&taker=${TAKER_A}&limit=200`)).body;
    expect(ids(withTaker)).toEqual(expected((f) => keep(f) && f.taker === TAKER_A));
  });

  it("pages a window by cursor and by offset to the same rows", async () => {
    const [from, to] = [T0 - 5 * 3600, T0 + 400];
    const all = expected(inWindow(from, to));
    expect(all.length).toBeGreaterThan(10);
    const byCursor: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: any } = await server.json(`/v1/fills?${query(from, to)}&limit=7${cursor ? `&cursor=${cursor}` : ""}`);
      byCursor.push(...ids(page.body));
      cursor = page.body.nextCursor;
    } while (cursor);
    const byOffset: string[] = [];
    for (let offset = 0; offset < all.length; offset += 7) byOffset.push(...ids((await server.json(`/v1/fills?${query(from, to)}&limit=7&offset=${offset}`)).body));
    expect(byCursor).toEqual(all);
    expect(byOffset).toEqual(all);
  });

  it("stays exact after fills are deleted (a rollback) and new ones arrive out of order", async () => {
    const c = database.db.$client;
    await database.db.execute(sql`delete from fills where signature = ${fills[40]!.signature}`);
    fills.splice(40, 2);
    const late = fillFixture("time-late", offer.pda, { signature: signatureOf("time-tx-late"), slot: 9_000n, blockTime: new Date((T0 + 3000) * 1000) });
    const early = fillFixture("time-early", offer.pda, { signature: signatureOf("time-tx-early"), slot: 20_000n, blockTime: new Date((T0 - 7200) * 1000) });
    for (const f of [late, early]) {
      await recordFill(c, f);
      fills.push(f);
    }
    for (const [from, to] of [...windows, [T0 + 2999, T0 + 3001], [T0 - 7200, T0 - 7200]] as [number | undefined, number | undefined][]) {
      expect(ids((await server.json(`/v1/fills?${query(from, to)}&limit=200`)).body)).toEqual(expected(inWindow(from, to)));
    }
  });
});
