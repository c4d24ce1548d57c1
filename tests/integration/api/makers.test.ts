import { describe, expect, it } from "vitest";
import { recordFills, type NewFill, type NewOffer } from "../../../lib/db/writes/index";
import { makerLeaderboardStatement } from "../../../lib/db/reads/makers";
import { MAKER_WINDOW_NAMES } from "../../../lib/db/reads/maker-windows";
import { addressOf, fillFixture, offerFixture, signatureOf, USDC, USDT } from "../../helpers/fixtures";
import { seededApi } from "../../helpers/seeded-api";

// GET /v1/makers (the leaderboard of a window) and the makers' figures on
// /v1/makers/:maker/stats (fill rate, median wait for a first fill, activity
// in a window), over real PostgreSQL and HTTP: kept by the triggers of
// migration 0009 in maker_activity and offer_first_fills, undone by a
// rollback, equal to a rebuild from the rows, and read without the fills table.

const ALICE = addressOf("maker:alice");
const BOB = addressOf("maker:bob");
const CAROL = addressOf("maker:carol");

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// Whole seconds, as block times are.
const NOW = Math.floor(Date.now() / SECOND) * SECOND;
const ago = (ms: number) => new Date(NOW - ms);

// Times chosen away from the windows' edges: 24h holds the last 23 hours at least,
// 7d the last 6 days, 30d the last 29, and none holds more than one bucket beyond its name.
const offers: NewOffer[] = [
  offerFixture("mk-a1", { maker: ALICE, originalSize: 1000n, remainingSize: 1000n, createdAt: ago(HOUR) }),
  offerFixture("mk-a2", { maker: ALICE, paymentMint: USDT, originalSize: 3000n, remainingSize: 3000n, createdAt: ago(3 * DAY) }),
  offerFixture("mk-b1", { maker: BOB, originalSize: 2000n, remainingSize: 2000n, createdAt: ago(20 * DAY) }),
  offerFixture("mk-b2", { maker: BOB, originalSize: 10n, remainingSize: 10n, createdAt: ago(2 * HOUR) }),
  offerFixture("mk-c1", { maker: CAROL, originalSize: 500n, remainingSize: 500n, createdAt: ago(60 * DAY) }),
];
const pda = (i: number) => offers[i]!.pda;

let slot = 1000n;
const fill = (label: string, offer: number, at: Date, fillAmount: bigint, paymentAmount: bigint, feeAmount: bigint): NewFill =>
  fillFixture(label, pda(offer), { blockTime: at, fillAmount, paymentAmount, feeAmount, slot: (slot += 1n), signature: signatureOf(`mk-${label}`) });

const fills: NewFill[] = [
  fill("a1-first", 0, ago(50 * MINUTE), 100n, 250n, 1n), // 600 s after a1's creation
  fill("a1-second", 0, ago(30 * MINUTE), 200n, 500n, 2n),
  fill("a2", 1, new Date(NOW - 3 * DAY + 2 * MINUTE), 300n, 900n, 3n), // 120 s
  fill("b1", 2, new Date(NOW - 20 * DAY + 30 * SECOND), 2000n, 4000n, 8n), // 30 s
  fill("b2", 3, ago(90 * MINUTE), 10n, 10000n, 20n), // 1800 s
  fill("c1", 4, ago(59 * DAY), 100n, 50n, 0n), // a day
];

const { server, sql } = seededApi({ offers, fills });

const makersOf = (body: { makers: { maker: string }[] }) => body.makers.map((m) => m.maker);

describe("GET /v1/makers", () => {
  it("ranks the window's makers by fills (the default), with exact figures per payment mint", async () => {
    const { status, body } = await server.json("/v1/makers");
    expect(status).toBe(200);
    expect(body).toEqual({
      makers: [
        { maker: ALICE, fills: 2, offers: 1, volumeByPaymentMint: { [USDC]: "750" }, takerFeesByPaymentMint: { [USDC]: "3" } },
        { maker: BOB, fills: 1, offers: 1, volumeByPaymentMint: { [USDC]: "10000" }, takerFeesByPaymentMint: { [USDC]: "20" } },
      ],
      limit: 50,
      offset: 0,
      nextCursor: null,
    });
  });

  it("covers each window: 7d, 30d, all", async () => {
    const fillsOf = async (window: string) =>
      Object.fromEntries((await server.json(`/v1/makers?window=${window}`)).body.makers.map((m: { maker: string; fills: number }) => [m.maker, m.fills]));
    expect(await fillsOf("7d")).toEqual({ [ALICE]: 3, [BOB]: 1 });
    expect(await fillsOf("30d")).toEqual({ [ALICE]: 3, [BOB]: 2 });
    expect(await fillsOf("all")).toEqual({ [ALICE]: 3, [BOB]: 2, [CAROL]: 1 });
    const week = (await server.json("/v1/makers?window=7d")).body.makers[0];
    expect(week).toEqual({
      maker: ALICE,
      fills: 3,
      offers: 2,
      volumeByPaymentMint: { [USDC]: "750", [USDT]: "900" },
      takerFeesByPaymentMint: { [USDC]: "3", [USDT]: "3" },
    });
  });

  it("sorts by volume in one payment mint, and by offers created (ties by maker)", async () => {
    expect(makersOf((await server.json(`/v1/makers?sort=volume&paymentMint=${USDC}`)).body)).toEqual([BOB, ALICE]);
    expect(makersOf((await server.json(`/v1/makers?sort=offers&window=all`)).body)).toEqual([...[ALICE, BOB].sort(), CAROL]); // two offers each, then one
    const oneEach = (await server.json(`/v1/makers?sort=offers`)).body.makers;
    expect(makersOf({ makers: oneEach })).toEqual([ALICE, BOB].sort());
    const usdt = (await server.json(`/v1/makers?window=all&paymentMint=${USDT}`)).body.makers;
    expect(usdt).toEqual([{ maker: ALICE, fills: 1, offers: 1, volumeByPaymentMint: { [USDT]: "900" }, takerFeesByPaymentMint: { [USDT]: "3" } }]);
  });

  it("pages by cursor and by offset through the same rows", async () => {
    const all = makersOf((await server.json("/v1/makers?window=all")).body);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `&cursor=${cursor}` : "";
      const { body } = await server.json(`/v1/makers?window=all&limit=1${query}`);
      seen.push(...makersOf(body));
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(seen).toEqual(all);
    expect(makersOf((await server.json("/v1/makers?window=all&limit=1&offset=2")).body)).toEqual(all.slice(2, 3));
  });

  it("validates like the other lists", async () => {
    const expectError = async (pathAndQuery: string, param: string) => {
      const { status, body } = await server.json(pathAndQuery);
      expect(status, pathAndQuery).toBe(400);
      expect(body, pathAndQuery).toEqual({ error: expect.any(String), code: "invalid_parameter", param });
    };
    await expectError("/v1/makers?window=1y", "window");
    await expectError("/v1/makers?sort=price", "sort");
    await expectError("/v1/makers?sort=volume", "paymentMint");
    await expectError("/v1/makers?paymentMint=nope", "paymentMint");
    await expectError("/v1/makers?limit=0", "limit");
    await expectError("/v1/makers?cursor=bm9wZQ", "cursor");
    const first = (await server.json("/v1/makers?window=all&limit=1")).body.nextCursor;
    await expectError(`/v1/makers?window=all&cursor=${first}&offset=1`, "offset");
    await expectError(`/v1/makers/${ALICE}/stats?window=week`, "window");
  });
});

describe("GET /v1/makers/:maker/stats: the makers' figures", () => {
  it("adds the fill rate, the median wait for a first fill and the window's activity", async () => {
    const { status, body } = await server.json(`/v1/makers/${ALICE}/stats?window=24h`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      maker: ALICE,
      totalOffers: 2,
      fillRate: "0.15", // 600 of 4000 offered
      medianSecondsToFirstFill: "360", // 120 and 600
      activity: { window: "24h", fills: 2, offers: 1, volumeByPaymentMint: { [USDC]: "750" }, takerFeesByPaymentMint: { [USDC]: "3" } },
    });
    expect((await server.json(`/v1/makers/${ALICE}/stats`)).body.activity).toEqual({
      window: "all",
      fills: 3,
      offers: 2,
      volumeByPaymentMint: { [USDC]: "750", [USDT]: "900" },
      takerFeesByPaymentMint: { [USDC]: "3", [USDT]: "3" },
    });
    expect((await server.json(`/v1/makers/${BOB}/stats?window=all`)).body).toMatchObject({ fillRate: "1", medianSecondsToFirstFill: "915" });
  });

  it("answers nulls and zeros for a wallet without offers", async () => {
    const body = (await server.json(`/v1/makers/${addressOf("maker:nobody")}/stats?window=7d`)).body;
    expect(body).toMatchObject({
      fillRate: null,
      medianSecondsToFirstFill: null,
      activity: { window: "7d", fills: 0, offers: 0, volumeByPaymentMint: {}, takerFeesByPaymentMint: {} },
    });
  });
});

describe("the makers' aggregates", () => {
  const snapshot = async () => ({
    activity: await sql()`select resolution, bucket, maker, payment_mint, fills, offers, volume::text, taker_fees::text, filled_size::text, offered_size::text
      from maker_activity where fills <> 0 or offers <> 0 or volume <> 0 or offered_size <> 0 order by 1, 2, 3, 4`,
    waits: await sql()`select offer_pda, maker, first_fill_at, wait_seconds from offer_first_fills order by 1`,
  });

  it("follow a rollback of a first fill, and equal a rebuild from the rows", async () => {
    await sql()`delete from fills where signature = ${fills[0]!.signature}`;
    const body = (await server.json(`/v1/makers/${ALICE}/stats?window=24h`)).body;
    // a1's first fill is now the one 30 minutes ago: 1800 s; with a2's 120 s the median is 960.
    expect(body).toMatchObject({ fillRate: "0.125", medianSecondsToFirstFill: "960", activity: { fills: 1, volumeByPaymentMint: { [USDC]: "500" } } });
    const kept = await snapshot();
    await sql()`select rebuild_maker_activity()`;
    expect(await snapshot()).toEqual(kept);
    await recordFills(sql(), [fills[0]!]);
    expect((await server.json(`/v1/makers/${ALICE}/stats?window=24h`)).body).toMatchObject({ medianSecondsToFirstFill: "360", activity: { fills: 2 } });
  });

  it("are read by index, never from the fills table, among many other makers' fills", async () => {
    await sql()`insert into fills (signature, ix_index, offer_pda, maker, taker, token_mint, payment_mint, side, fill_amount,
        payment_amount, fee_amount, block_time, slot)
      select 'bulk-' || i, 0, 'bulk-offer', 'maker-' || (i % 500), 'taker-' || (i % 700), 'bulk-token', 'bulk-payment', 'sell',
        1, 1, 0, timestamptz '2026-06-01' + i * interval '1 second', 10000 + i
      from generate_series(1, 50000) i`;
    await sql()`analyze`;
    for (const window of MAKER_WINDOW_NAMES) {
      for (const cursor of [false, true]) {
        const params = [50, 0, null, ...(cursor ? ["5", ALICE] : [])];
        const plan = (await sql().unsafe(`explain ${makerLeaderboardStatement(window, "fills", cursor)}`, params)).map((r) => r["QUERY PLAN"]).join("\n");
        expect(plan, `${window}\n${plan}`).not.toMatch(/ on fills\b/);
        expect(plan, `${window}\n${plan}`).toMatch(/on maker_activity/);
        if (window !== "30d") expect(plan, `${window}\n${plan}`).toMatch(/Index (Only )?Scan using maker_activity_resolution_bucket_maker_payment_mint_pk/);
        // Only the page's makers get their figures per payment mint, each one index range (the maker's, or the all-time key's).
        expect(plan, `${window}\n${plan}`).toMatch(/Index Scan using maker_activity_(maker_idx|resolution_bucket_maker_payment_mint_pk) on maker_activity b/);
      }
    }
  });
});
