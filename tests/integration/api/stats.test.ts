import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fills as fillsTable, offers as offersTable } from "../../../lib/db/schema/index";
import { endOffer, insertOffer, recordFill, type NewFill, type NewOffer } from "../../../lib/db/writes/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, fillFixture, offerFixture, signatureOf, USDC, WSOL } from "../../helpers/fixtures";
import { startWebServer, type WebServer } from "../../helpers/server";

let database: TestDatabase;
let server: WebServer;

const U64_MAX = 2n ** 64n - 1n;
const ABOVE_2_53 = 2n ** 53n + 1n;
const MAKER = addressOf("maker:stats");
const OTHER_MAKER = addressOf("maker:other");
const TOKEN_X = addressOf("token:x");
const TOKEN_Y = addressOf("token:y");
const DAY = 86_400_000;

const offers: NewOffer[] = [
  // Sums of u64 maxima outgrow 2^64: they must stay exact.
  offerFixture("s-huge-1", { maker: MAKER, tokenMint: TOKEN_X, side: "sell", originalSize: U64_MAX, remainingSize: U64_MAX, nonce: U64_MAX }),
  offerFixture("s-huge-2", { maker: MAKER, tokenMint: TOKEN_X, side: "sell", originalSize: U64_MAX, remainingSize: U64_MAX }),
  offerFixture("s-buy", { maker: MAKER, tokenMint: TOKEN_Y, side: "buy", paymentMint: WSOL, originalSize: 10n, remainingSize: 10n }),
  offerFixture("s-lapsed", { maker: MAKER, expiresAt: new Date(Date.now() - DAY) }),
  offerFixture("s-cancel", { maker: OTHER_MAKER }),
  offerFixture("s-crank", { maker: OTHER_MAKER }),
];

const fills: NewFill[] = [
  fillFixture("s-1", offers[0]!.pda, { fillAmount: U64_MAX - 5n, paymentAmount: U64_MAX, feeAmount: ABOVE_2_53, slot: 300n }),
  fillFixture("s-2", offers[1]!.pda, { fillAmount: U64_MAX, paymentAmount: U64_MAX, feeAmount: U64_MAX, slot: 301n }),
  fillFixture("s-3", offers[2]!.pda, { fillAmount: 4n, paymentAmount: 7n, feeAmount: 1n, slot: 302n }),
  fillFixture("s-4", offers[2]!.pda, { signature: signatureOf("fill:s-3"), ixIndex: 2, fillAmount: 6n, paymentAmount: 9n, feeAmount: 1n, slot: 302n }),
];

beforeAll(async () => {
  database = await createTestDatabase();
  for (const offer of offers) await insertOffer(database.db.$client, offer);
  for (const fill of fills) await recordFill(database.db.$client, fill);
  await endOffer(database.db.$client, offers[4]!.pda, "cancelled", 400n);
  await endOffer(database.db.$client, offers[5]!.pda, "expired", 400n);
  server = await startWebServer({ DATABASE_URL: database.url });
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe("GET /v1/stats", () => {
  it("sends cache-control public, max-age=10", async () => {
    const response = await server.get("/v1/stats");
    expect(response.headers.get("cache-control")).toBe("public, max-age=10");
    await response.arrayBuffer();
  });

  it("counts offers by status (lapsed active offers as expired, filled by their fills) and sums fees and volume per payment mint exactly", async () => {
    const { body } = await server.json("/v1/stats");
    expect(body).toEqual({
      totalOffers: 6,
      openOffers: 1, // s-huge-1 (s-huge-2 and s-buy were filled completely)
      filledOffers: 2,
      expiredOffers: 2, // s-crank (cranked) and s-lapsed (past expiry)
      cancelledOffers: 1,
      totalFills: 4,
      feesByMint: { [USDC]: (ABOVE_2_53 + U64_MAX).toString(), [WSOL]: "2" },
      volumeByMint: { [USDC]: (U64_MAX * 2n).toString(), [WSOL]: "16" },
    });
  });
});

describe("GET /v1/makers/:maker/stats", () => {
  it("counts a maker's offers by status and sums sold and bought token amounts per mint beyond 2^64", async () => {
    const { status, body } = await server.json(`/v1/makers/${MAKER}/stats`);
    expect(status).toBe(200);
    expect(body).toEqual({
      maker: MAKER,
      totalOffers: 4,
      openOffers: 1,
      filledOffers: 2,
      expiredOffers: 1,
      cancelledOffers: 0,
      totalSold: { [TOKEN_X]: (U64_MAX - 5n + U64_MAX).toString() },
      totalBought: { [TOKEN_Y]: "10" },
      // Extensions, their figures pinned in ./makers.test.ts.
      fillRate: expect.any(String),
      medianSecondsToFirstFill: expect.any(String),
      activity: expect.objectContaining({ window: "all" }),
    });
  });

  it("answers zeros and empty totals for a wallet with no offers", async () => {
    const stranger = addressOf("stranger");
    const { body } = await server.json(`/v1/makers/${stranger}/stats`);
    expect(body).toEqual({
      maker: stranger,
      totalOffers: 0,
      openOffers: 0,
      filledOffers: 0,
      expiredOffers: 0,
      cancelledOffers: 0,
      totalSold: {},
      totalBought: {},
      fillRate: null,
      medianSecondsToFirstFill: null,
      activity: { window: "all", fills: 0, offers: 0, volumeByPaymentMint: {}, takerFeesByPaymentMint: {} },
    });
  });
});

describe("amounts above 2^53 and 2^63", () => {
  it("survive the round trip digit for digit", async () => {
    const offer = (await server.json(`/v1/offers/${offers[0]!.pda}`)).body;
    expect(offer.nonce).toBe("18446744073709551615");
    expect(offer.originalSize).toBe("18446744073709551615");
    expect(offer.remainingSize).toBe("5");
    const fill = (await server.json(`/v1/offers/${offers[0]!.pda}/fills`)).body.fills[0];
    expect(fill.paymentAmount).toBe("18446744073709551615");
    expect(fill.feeAmount).toBe("9007199254740993");
  });
});

describe("aggregates", () => {
  it("kept by triggers equal a full recomputation from the rows, also after rows are removed", async () => {
    const snapshot = async () =>
      database.db.execute(sql`select
        (select row_to_json(p) from protocol_stats p) as protocol,
        (select json_agg(m order by payment_mint) from protocol_mint_stats m where fills <> 0) as mints,
        (select json_agg(s order by maker) from maker_stats s) as makers,
        (select json_agg(v order by maker, side, token_mint) from maker_volume v where amount <> 0) as volume`);
    // A rollback of dropped slots removes rows: the aggregates must follow.
    await database.db.delete(fillsTable).where(sql`slot = 302`);
    await database.db.delete(offersTable).where(sql`pda = ${offers[5]!.pda}`);
    const kept = await snapshot();
    await database.db.execute(sql`select rebuild_aggregates()`);
    expect(await snapshot()).toEqual(kept);
    const { body } = await server.json("/v1/stats");
    expect(body).toMatchObject({ totalOffers: 5, totalFills: 2, expiredOffers: 1 });
  });
});

describe("GET /v1/markets (extension)", () => {
  it("summarises each pair with open offers: counts, best ask and bid, 24h volume and fills, last fill", async () => {
    const { status, body } = await server.json("/v1/markets");
    expect(status).toBe(200);
    const usdc = body.markets.find((m: any) => m.tokenMint === TOKEN_X && m.paymentMint === USDC);
    expect(usdc).toMatchObject({ openOffers: 1, openAsks: 1, openBids: 0, bestBid: null, fills24h: 0, volume24h: "0" });
    expect(usdc.bestAsk).toEqual({ pricePerToken: offers[0]!.pricePerToken.toString(), priceScale: offers[0]!.priceScale });
    expect(usdc.lastFillAt).toBe(fills[0]!.blockTime.toISOString());
  });
});
