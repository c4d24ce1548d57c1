import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endOffer, insertOffer, type NewOffer } from "../../../lib/db/writes/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, offerFixture, USDC, USDT, WSOL } from "../../helpers/fixtures";
import { startWebServer, type WebServer } from "../../helpers/server";

let database: TestDatabase;
let server: WebServer;

const MAKER_A = addressOf("maker:a");
const MAKER_B = addressOf("maker:b");
const TOKEN_X = addressOf("token:x");
const TOKEN_Y = addressOf("token:y");
const DAY = 86_400_000;

/** 30 offers across two makers, two tokens, three payment mints, both sides and every status. */
const seeded: NewOffer[] = Array.from({ length: 30 }, (_, i) =>
  offerFixture(`list-${i}`, {
    maker: i % 3 === 0 ? MAKER_B : MAKER_A,
    tokenMint: i % 2 === 0 ? TOKEN_X : TOKEN_Y,
    paymentMint: [USDC, USDT, WSOL][i % 3]!,
    side: i % 4 === 0 ? "buy" : "sell",
    nonce: BigInt(i),
    // Distinct times, and two pairs sharing a time to pin the pda tie-break.
    createdAt: new Date(Date.UTC(2026, 0, 1) + (i === 11 ? 10 : i === 21 ? 20 : i) * 60_000),
    // Offers 25..29 are active but lapsed: shown as expired until cranked.
    expiresAt: new Date(Date.now() + (i >= 25 ? -DAY : DAY)),
    pricePerToken: BigInt(1000 + ((i * 37) % 17)),
    priceScale: 3,
  }),
);
const ENDED: Record<number, "cancelled" | "expired"> = { 3: "cancelled", 7: "expired", 14: "expired", 18: "cancelled" };

type ApiOffer = Record<string, any>;

function expectedStatus(i: number): string {
  if (ENDED[i]) return ENDED[i]!;
  return i >= 25 ? "expired" : "open";
}

/** The contract's order, computed here independently: createdAt desc, then pda desc. */
function newestFirst(offers: NewOffer[]): string[] {
  return [...offers]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.pda < b.pda ? 1 : a.pda > b.pda ? -1 : 0))
    .map((o) => o.pda);
}

const withStatus = (status: string) => seeded.filter((_, i) => expectedStatus(i) === status);

beforeAll(async () => {
  database = await createTestDatabase();
  for (const offer of seeded) await insertOffer(database.db.$client, offer);
  for (const [i, state] of Object.entries(ENDED)) await endOffer(database.db.$client, seeded[Number(i)]!.pda, state, 150n);
  server = await startWebServer({ DATABASE_URL: database.url });
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe("GET /v1/offers", () => {
  it("lists open offers by default, newest first by createdAt then pda, with limit 50 and offset 0", async () => {
    const { status, body } = await server.json("/v1/offers");
    expect(status).toBe(200);
    expect(body.limit).toBe(50);
    expect(body.offset).toBe(0);
    expect(body.offers.map((o: ApiOffer) => o.pda)).toEqual(newestFirst(withStatus("open")));
  });

  it("serializes every field of an offer with the contract's names and types", async () => {
    const source = seeded[0]!;
    const { body } = await server.json(`/v1/offers/${source.pda}`);
    expect(body).toEqual({
      pda: source.pda,
      maker: source.maker,
      tokenMint: source.tokenMint,
      paymentMint: source.paymentMint,
      side: source.side,
      nonce: source.nonce.toString(),
      originalSize: source.originalSize.toString(),
      remainingSize: source.remainingSize.toString(),
      pricePerToken: source.pricePerToken.toString(),
      priceScale: source.priceScale,
      minFill: source.minFill.toString(),
      createdAt: source.createdAt.toISOString(),
      expiresAt: source.expiresAt.toISOString(),
      status: "open",
      lastSlot: source.lastSlot.toString(),
      indexedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it.each(["open", "filled", "expired", "cancelled"])("filters by status=%s, an active offer past expiry counting as expired", async (status) => {
    const { body } = await server.json(`/v1/offers?status=${status}&limit=200`);
    expect(body.offers.map((o: ApiOffer) => o.pda)).toEqual(newestFirst(withStatus(status)));
    for (const offer of body.offers) expect(offer.status).toBe(status);
  });

  it.each([
    ["maker", MAKER_B, (o: NewOffer) => o.maker === MAKER_B],
    ["tokenMint", TOKEN_Y, (o: NewOffer) => o.tokenMint === TOKEN_Y],
    ["paymentMint", WSOL, (o: NewOffer) => o.paymentMint === WSOL],
    ["side", "buy", (o: NewOffer) => o.side === "buy"],
  ] as const)("filters by %s", async (param, value, keep) => {
    for (const status of ["open", "expired"]) {
      const { body } = await server.json(`/v1/offers?${param}=${value}&status=${status}&limit=200`);
      expect(body.offers.map((o: ApiOffer) => o.pda)).toEqual(newestFirst(withStatus(status).filter(keep)));
    }
  });

  it("combines every filter with AND", async () => {
    const query = `maker=${MAKER_A}&tokenMint=${TOKEN_X}&paymentMint=${USDT}&side=sell&status=open`;
    const { body } = await server.json(`/v1/offers?${query}`);
    const expected = withStatus("open").filter(
      (o) => o.maker === MAKER_A && o.tokenMint === TOKEN_X && o.paymentMint === USDT && o.side === "sell",
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(body.offers.map((o: ApiOffer) => o.pda)).toEqual(newestFirst(expected));
  });

  it("pages with limit and offset: limit 1, limit 200, limit 201 clamped to 200, offset past the end", async () => {
    const all = newestFirst(withStatus("open"));
    const one = await server.json("/v1/offers?limit=1");
    expect(one.body.offers.map((o: ApiOffer) => o.pda)).toEqual(all.slice(0, 1));
    const second = await server.json("/v1/offers?limit=1&offset=1");
    expect(second.body.offers.map((o: ApiOffer) => o.pda)).toEqual(all.slice(1, 2));
    const max = await server.json("/v1/offers?limit=200");
    expect(max.body.limit).toBe(200);
    expect(max.body.offers).toHaveLength(all.length);
    const clamped = await server.json("/v1/offers?limit=201");
    expect(clamped.status).toBe(200);
    expect(clamped.body.limit).toBe(200);
    const past = await server.json(`/v1/offers?offset=${all.length}`);
    expect(past.body).toMatchObject({ offers: [], offset: all.length, nextCursor: null });
  });

  it("walks every page with nextCursor, seeing each offer once and in order", async () => {
    const all = newestFirst(withStatus("open"));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: any } = await server.json(`/v1/offers?limit=4${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...page.body.offers.map((o: ApiOffer) => o.pda));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);
  });

  it("orders one book by price with sort=price: asks ascending, bids descending, older first at one price", async () => {
    const { body } = await server.json(`/v1/offers?sort=price&tokenMint=${TOKEN_X}&paymentMint=${USDC}&limit=200`);
    const book = withStatus("open").filter((o) => o.tokenMint === TOKEN_X && o.paymentMint === USDC);
    const price = (o: NewOffer) => Number(o.pricePerToken) / 10 ** o.priceScale;
    const asks = book.filter((o) => o.side === "sell").sort((a, b) => price(a) - price(b) || a.createdAt.getTime() - b.createdAt.getTime());
    const bids = book.filter((o) => o.side === "buy").sort((a, b) => price(b) - price(a) || a.createdAt.getTime() - b.createdAt.getTime());
    expect(body.offers.map((o: ApiOffer) => o.pda)).toEqual([...asks, ...bids].map((o) => o.pda));
  });
});

describe("GET /v1/offers/:pda", () => {
  it("answers 404 in the error shape for an offer the indexer has not seen", async () => {
    const { status, body } = await server.json(`/v1/offers/${addressOf("nobody")}`);
    expect(status).toBe(404);
    expect(body).toEqual({ error: expect.any(String), code: "not_found" });
  });

  it("shows a cranked expiry as expired and a lapsed active offer as expired", async () => {
    expect((await server.json(`/v1/offers/${seeded[7]!.pda}`)).body.status).toBe("expired");
    expect((await server.json(`/v1/offers/${seeded[26]!.pda}`)).body.status).toBe("expired");
    expect((await server.json(`/v1/offers/${seeded[3]!.pda}`)).body.status).toBe("cancelled");
  });
});

describe("GET /v1/makers/:maker/offers", () => {
  it("equals /v1/offers with maker set, for each status and page", async () => {
    for (const query of ["", "?status=expired", "?status=cancelled&limit=1", "?limit=2&offset=1"]) {
      const viaMaker = await server.json(`/v1/makers/${MAKER_A}/offers${query}`);
      const viaFilter = await server.json(`/v1/offers${query ? `${query}&` : "?"}maker=${MAKER_A}`);
      expect(viaMaker.status).toBe(200);
      expect(viaMaker.body).toEqual(viaFilter.body);
    }
  });
});
