import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { priceString } from "../../../lib/program/pricing";
import { insertOffer, recordFills, recordScannedTransaction, undoTransaction, type NewFill, type NewOffer } from "../../../lib/db/writes/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, fillFixture, offerFixture, signatureOf, USDC, USDT } from "../../helpers/fixtures";
import { PRICE_CASES } from "../../helpers/price-cases";
import { startWebServer, type WebServer } from "../../helpers/server";

// GET /v1/candles over real PostgreSQL and HTTP: candles kept by the fills
// trigger equal candles computed here from the fills, at every resolution,
// and a rollback of a fill takes it out of its candles again.

let database: TestDatabase;
let server: WebServer;
const sql = () => database.db.$client;

const TOKEN = addressOf("token:candles");
const OTHER_TOKEN = addressOf("token:candles-other");
const T0 = Date.UTC(2026, 4, 10, 23, 58) / 1000; // two minutes before a UTC midnight

const offers: NewOffer[] = [
  offerFixture("c-a", { tokenMint: TOKEN, pricePerToken: 2_500_000n, priceScale: 6, originalSize: 10n ** 12n, remainingSize: 10n ** 12n }),
  offerFixture("c-b", { tokenMint: TOKEN, pricePerToken: 31n, priceScale: 1, originalSize: 10n ** 12n, remainingSize: 10n ** 12n }),
  offerFixture("c-c", { tokenMint: TOKEN, pricePerToken: 1_999_999_999n, priceScale: 9, side: "buy", originalSize: 10n ** 12n, remainingSize: 10n ** 12n }),
  offerFixture("c-other", { tokenMint: OTHER_TOKEN, paymentMint: USDT, originalSize: 10n ** 12n, remainingSize: 10n ** 12n }),
];
const priceOf = new Map(offers.map((o) => [o.pda, priceString(o.pricePerToken, o.priceScale)]));

/** Fills over two days: several in a minute, two in one slot by position, some written out of chain order. */
const fills: NewFill[] = Array.from({ length: 30 }, (_, i) =>
  fillFixture(`candle-${i}`, offers[i % 3]!.pda, {
    signature: signatureOf(`candle-tx-${Math.floor(i / 2)}`),
    ixIndex: i % 2 === 0 ? 3 : 1, // the second take of each transaction comes first in it
    fillAmount: BigInt(1000 + i),
    paymentAmount: BigInt(5000 + 7 * i),
    slot: BigInt(1000 + Math.floor(i / 2)),
    blockTime: new Date((T0 + Math.floor(i / 2) * 47 + (i > 20 ? 86_400 : 0)) * 1000),
  }),
);

const RESOLUTIONS = { "1m": 60, "5m": 300, "15m": 900, "1h": 3600, "4h": 14_400, "1d": 86_400 } as const;

const cmp = (a: bigint | number | string, b: bigint | number | string) => (a < b ? -1 : a > b ? 1 : 0);
const chainOrder = (a: NewFill, b: NewFill) => cmp(a.slot, b.slot) || cmp(a.signature, b.signature) || a.ixIndex - b.ixIndex;
const decimalCompare = (a: string, b: string) => cmp(Number(a), Number(b)); // distinct test prices are far apart in float

/** The candles the contract defines, computed from the fills. */
function expectedCandles(of: NewFill[], seconds: number) {
  const buckets = new Map<number, NewFill[]>();
  for (const fill of [...of].sort(chainOrder)) {
    const time = Math.floor(fill.blockTime.getTime() / 1000 / seconds) * seconds;
    buckets.set(time, [...(buckets.get(time) ?? []), fill]);
  }
  return [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .map(([time, inBucket]) => {
      const prices = inBucket.map((f) => priceOf.get(f.offerPda)!);
      const sorted = [...prices].sort(decimalCompare);
      return {
        time,
        open: prices[0],
        high: sorted.at(-1),
        low: sorted[0],
        close: prices.at(-1),
        volume: inBucket.reduce((s, f) => s + f.fillAmount, 0n).toString(),
        quoteVolume: inBucket.reduce((s, f) => s + f.paymentAmount, 0n).toString(),
        fills: inBucket.length,
      };
    });
}

const candlesPath = (resolution: string, extra = "") => `/v1/candles?tokenMint=${TOKEN}&paymentMint=${USDC}&resolution=${resolution}${extra}`;

beforeAll(async () => {
  database = await createTestDatabase();
  for (const offer of offers) await insertOffer(sql(), offer);
  // Written in three batches, the later chain fills first: open and close must follow the chain, not the writes.
  await recordFills(sql(), fills.slice(20));
  await recordFills(sql(), fills.slice(0, 10).reverse());
  await recordFills(sql(), fills.slice(10, 20));
  await recordFills(sql(), [fillFixture("candle-other", offers[3]!.pda, { blockTime: new Date(T0 * 1000) })]);
  server = await startWebServer({ DATABASE_URL: database.url });
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe("GET /v1/candles", () => {
  it.each(Object.entries(RESOLUTIONS))("at %s: the candles of the pair's fills, oldest first, exact strings", async (resolution, seconds) => {
    const { status, body } = await server.json(candlesPath(resolution));
    expect(status).toBe(200);
    expect(body).toEqual({ candles: expectedCandles(fills, seconds) });
  });

  it("windows by fromTime and toTime on the bucket's start and keeps the newest `limit` buckets", async () => {
    const all = expectedCandles(fills, 60);
    const from = all[2]!.time;
    const to = all[6]!.time;
    expect((await server.json(candlesPath("1m", `&fromTime=${from}&toTime=${to}`))).body.candles).toEqual(all.slice(2, 7));
    expect((await server.json(candlesPath("1m", `&toTime=${to}&limit=3`))).body.candles).toEqual(all.slice(4, 7));
    expect((await server.json(candlesPath("1m", `&fromTime=${all.at(-1)!.time + 1}`))).body.candles).toEqual([]);
  });

  it("answers an empty list for a pair without fills", async () => {
    const { body } = await server.json(`/v1/candles?tokenMint=${TOKEN}&paymentMint=${USDT}&resolution=1h`);
    expect(body).toEqual({ candles: [] });
  });

  it("validates like the other endpoints: both mints and the resolution required, the rest checked", async () => {
    const expectError = async (query: string, code: string, param: string) => {
      const { status, body } = await server.json(`/v1/candles?${query}`);
      expect(status, query).toBe(400);
      expect(body, query).toEqual({ error: expect.any(String), code, param });
    };
    await expectError(`paymentMint=${USDC}&resolution=1h`, "missing_parameter", "tokenMint");
    await expectError(`tokenMint=${TOKEN}&resolution=1h`, "missing_parameter", "paymentMint");
    await expectError(`tokenMint=${TOKEN}&paymentMint=${USDC}`, "missing_parameter", "resolution");
    await expectError(`tokenMint=${TOKEN}&paymentMint=${USDC}&resolution=2m`, "invalid_parameter", "resolution");
    await expectError(`tokenMint=nope&paymentMint=${USDC}&resolution=1h`, "invalid_parameter", "tokenMint");
    await expectError(`tokenMint=${TOKEN}&paymentMint=${USDC}&resolution=1h&limit=0`, "invalid_parameter", "limit");
    await expectError(`tokenMint=${TOKEN}&paymentMint=${USDC}&resolution=1h&fromTime=10&toTime=5`, "invalid_parameter", "fromTime");
  });

  it("writes PostgreSQL's prices as the same exact strings as priceString", async () => {
    for (const [pricePerToken, priceScale, expected] of PRICE_CASES) {
      const [row] = await sql()`select fill_price(${pricePerToken.toString()}::numeric, ${priceScale}::smallint)::text as price`;
      expect(row!.price, `${pricePerToken} / 10^${priceScale}`).toBe(expected);
    }
  });

  it("reads one range of the candles key, never the fills table", async () => {
    const plan = (await sql().unsafe(`explain select * from candles where token_mint = $1 and payment_mint = $2 and resolution = 86400
      and bucket >= now() - interval '1 year' order by bucket desc limit 500`, [TOKEN, USDC])).map((r) => r["QUERY PLAN"]).join("\n");
    expect(plan).toMatch(/Index Scan Backward using candles_.*_pk on candles/);
    expect(plan).not.toMatch(/fills/);
  });
});

describe("candles under a rollback", () => {
  it("takes a dropped transaction's fill out of its candles: high, close, volume and count as before, an emptied bucket gone", async () => {
    const before1m = (await server.json(candlesPath("1m"))).body.candles;
    const before1d = (await server.json(candlesPath("1d"))).body.candles;
    const last = [...fills].sort(chainOrder).at(-1)!;

    // A higher price, last in the chain, in the last fill's minute; and a fill alone in a later minute.
    const dropped = signatureOf("candle-dropped");
    const pricey = offerFixture("c-pricey", { tokenMint: TOKEN, pricePerToken: 9_000_000n, priceScale: 6, createdSignature: signatureOf("c-pricey-create") });
    await insertOffer(sql(), pricey);
    priceOf.set(pricey.pda, "9");
    await recordFills(sql(), [
      fillFixture("dropped-1", pricey.pda, { signature: dropped, ixIndex: 0, slot: last.slot + 1n, blockTime: last.blockTime, fillAmount: 5n, paymentAmount: 45n }),
      fillFixture("dropped-2", pricey.pda, { signature: dropped, ixIndex: 1, slot: last.slot + 1n, blockTime: new Date(last.blockTime.getTime() + 600_000) }),
    ]);
    await recordScannedTransaction(sql(), { signature: dropped, slot: last.slot + 1n, blockTime: last.blockTime, failed: false, offerPdas: [pricey.pda] });

    const during = (await server.json(candlesPath("1m"))).body.candles;
    expect(during).toHaveLength(before1m.length + 1);
    expect(during.at(-2)).toMatchObject({ high: "9", close: "9", fills: before1m.at(-1).fills + 1 });
    expect((await server.json(candlesPath("1d"))).body.candles.at(-1)).toMatchObject({ high: "9", close: "9" });

    await sql().begin((tx) => undoTransaction(tx, dropped));

    expect((await server.json(candlesPath("1m"))).body.candles).toEqual(before1m);
    expect((await server.json(candlesPath("1d"))).body.candles).toEqual(before1d);
  });
});
