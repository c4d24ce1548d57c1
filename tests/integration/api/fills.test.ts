import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertOffer, recordFill, type NewFill, type NewOffer } from "../../../lib/db/writes/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, fillFixture, offerFixture, signatureOf, USDC, USDT } from "../../helpers/fixtures";
import { startWebServer, type WebServer } from "../../helpers/server";

let database: TestDatabase;
let server: WebServer;

const MAKER_A = addressOf("maker:a");
const MAKER_B = addressOf("maker:b");
const TAKER_1 = addressOf("taker:1");
const TAKER_2 = addressOf("taker:2");
const TOKEN_X = addressOf("token:x");
const TOKEN_Y = addressOf("token:y");
const T0 = Date.UTC(2026, 5, 1) / 1000;

const offers: NewOffer[] = [
  offerFixture("f-0", { maker: MAKER_A, tokenMint: TOKEN_X, paymentMint: USDC, side: "sell", originalSize: 10n ** 9n, remainingSize: 10n ** 9n }),
  offerFixture("f-1", { maker: MAKER_B, tokenMint: TOKEN_Y, paymentMint: USDT, side: "buy", originalSize: 10n ** 9n, remainingSize: 10n ** 9n }),
  offerFixture("f-2", { maker: MAKER_A, tokenMint: TOKEN_Y, paymentMint: USDC, side: "buy", originalSize: 10n ** 9n, remainingSize: 10n ** 9n }),
];
/** An offer nobody has taken yet: no fill below names it. */
const untaken = offerFixture("f-untaken", { maker: addressOf("maker:c"), tokenMint: TOKEN_X, paymentMint: USDC, side: "sell" });

/** 24 fills over 12 transactions: two takes in each, several transactions in one slot. */
const fills: NewFill[] = Array.from({ length: 24 }, (_, i) => {
  const tx = Math.floor(i / 2);
  return fillFixture(`feed-${tx}`, offers[i % 3]!.pda, {
    signature: signatureOf(`feed-tx-${tx}`),
    ixIndex: i % 2 === 0 ? 1 : 4,
    taker: i % 5 === 0 ? TAKER_2 : TAKER_1,
    fillAmount: BigInt(1000 + i),
    paymentAmount: BigInt(2000 + i),
    feeAmount: BigInt(4 + (i % 3)),
    slot: BigInt(500 + Math.floor(tx / 3)),
    blockTime: new Date((T0 + tx * 60) * 1000),
  });
});

const cmp = (a: string | bigint | number, b: string | bigint | number) => (a < b ? -1 : a > b ? 1 : 0);
/** The contract's order, computed here: slot desc, then signature desc, then position desc. */
function newestFirst(rows: NewFill[]): string[] {
  return [...rows]
    .sort((a, b) => cmp(b.slot, a.slot) || cmp(b.signature, a.signature) || b.ixIndex - a.ixIndex)
    .map((f) => `${f.signature}/${f.ixIndex}`);
}
const ids = (body: { fills: { signature: string; ixIndex: number }[] }) => body.fills.map((f) => `${f.signature}/${f.ixIndex}`);
const offerOf = (f: NewFill) => offers.find((o) => o.pda === f.offerPda)!;

beforeAll(async () => {
  database = await createTestDatabase();
  for (const offer of [...offers, untaken]) await insertOffer(database.db.$client, offer);
  for (const fill of fills) await recordFill(database.db.$client, fill);
  server = await startWebServer({ DATABASE_URL: database.url });
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe("GET /v1/fills", () => {
  it("lists every fill newest first, by slot then position in the transaction", async () => {
    const { status, headers, body } = await server.json("/v1/fills?limit=200");
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toMatch(/^public, max-age=\d, s-maxage=\d+, stale-while-revalidate=\d+$/);
    expect(ids(body)).toEqual(newestFirst(fills));
  });

  it("copies tokenMint, paymentMint and side from the fill's offer and writes every field as the contract types it", async () => {
    const { body } = await server.json("/v1/fills?limit=200");
    const row = body.fills.find((f: any) => f.signature === fills[5]!.signature && f.ixIndex === fills[5]!.ixIndex);
    const source = fills[5]!;
    expect(row).toEqual({
      signature: source.signature,
      ixIndex: source.ixIndex,
      offerPda: source.offerPda,
      maker: offerOf(source).maker,
      taker: source.taker,
      fillAmount: source.fillAmount.toString(),
      paymentAmount: source.paymentAmount.toString(),
      feeAmount: source.feeAmount.toString(),
      blockTime: source.blockTime.toISOString(),
      slot: source.slot.toString(),
      tokenMint: offerOf(source).tokenMint,
      paymentMint: offerOf(source).paymentMint,
      side: offerOf(source).side,
    });
  });

  it.each([
    ["taker", TAKER_2, (f: NewFill) => f.taker === TAKER_2],
    ["maker", MAKER_A, (f: NewFill) => offerOf(f).maker === MAKER_A],
    ["offerPda", offers[1]!.pda, (f: NewFill) => f.offerPda === offers[1]!.pda],
    ["tokenMint", TOKEN_Y, (f: NewFill) => offerOf(f).tokenMint === TOKEN_Y],
    ["paymentMint", USDT, (f: NewFill) => offerOf(f).paymentMint === USDT],
    ["fromTime", String(T0 + 300), (f: NewFill) => f.blockTime.getTime() / 1000 >= T0 + 300],
    ["toTime", String(T0 + 300), (f: NewFill) => f.blockTime.getTime() / 1000 <= T0 + 300],
  ] as const)("filters by %s (time bounds inclusive)", async (param, value, keep) => {
    const { body } = await server.json(`/v1/fills?${param}=${value}&limit=200`);
    const expected = newestFirst(fills.filter(keep));
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(body)).toEqual(expected);
  });

  it("combines filters with AND", async () => {
    const query = `maker=${MAKER_A}&tokenMint=${TOKEN_Y}&taker=${TAKER_1}&fromTime=${T0 + 120}&toTime=${T0 + 600}`;
    const { body } = await server.json(`/v1/fills?${query}&limit=200`);
    const keep = (f: NewFill) => {
      const t = f.blockTime.getTime() / 1000;
      return offerOf(f).maker === MAKER_A && offerOf(f).tokenMint === TOKEN_Y && f.taker === TAKER_1 && t >= T0 + 120 && t <= T0 + 600;
    };
    expect(fills.filter(keep).length).toBeGreaterThan(0);
    expect(ids(body)).toEqual(newestFirst(fills.filter(keep)));
  });

  it("pages by offset and by cursor to the same rows", async () => {
    const all = newestFirst(fills);
    const byOffset: string[] = [];
    for (let offset = 0; offset < all.length; offset += 5) {
      byOffset.push(...ids((await server.json(`/v1/fills?limit=5&offset=${offset}`)).body));
    }
    const byCursor: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: any } = await server.json(`/v1/fills?limit=5${cursor ? `&cursor=${cursor}` : ""}`);
      byCursor.push(...ids(page.body));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(byOffset).toEqual(all);
    expect(byCursor).toEqual(all);
    expect((await server.json(`/v1/fills?offset=${all.length}`)).body.fills).toEqual([]);
  });
});

describe("GET /v1/offers/:pda/fills", () => {
  it("returns one offer's history newest first with only the per-offer fields", async () => {
    const offer = offers[0]!;
    const { status, body } = await server.json(`/v1/offers/${offer.pda}/fills`);
    expect(status).toBe(200);
    expect(ids(body)).toEqual(newestFirst(fills.filter((f) => f.offerPda === offer.pda)));
    expect(Object.keys(body.fills[0]).sort()).toEqual(
      ["signature", "ixIndex", "taker", "fillAmount", "paymentAmount", "feeAmount", "blockTime", "slot"].sort(),
    );
  });

  it("answers an empty page, not a 404, for a known offer nobody has taken", async () => {
    const { status, body } = await server.json(`/v1/offers/${untaken.pda}/fills`);
    expect(status).toBe(200);
    expect(body).toEqual({ fills: [], limit: 200, offset: 0, nextCursor: null });
  });

  it("answers 404 for an offer the indexer has not seen", async () => {
    const { status, body } = await server.json(`/v1/offers/${addressOf("ghost")}/fills`);
    expect(status).toBe(404);
    expect(body.code).toBe("not_found");
  });

  it("lowers the offer's remainingSize by every recorded fill", async () => {
    const offer = offers[2]!;
    const filled = fills.filter((f) => f.offerPda === offer.pda).reduce((sum, f) => sum + f.fillAmount, 0n);
    const { body } = await server.json(`/v1/offers/${offer.pda}`);
    expect(body.remainingSize).toBe((offer.originalSize - filled).toString());
  });
});
