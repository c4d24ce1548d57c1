import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendChanges, insertOffer, recordFills, type NewFill, type NewOffer } from "../../../lib/db/writes/index";
import { startTokenStandin, type TokenStandin } from "../../../local/tokens/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, fillFixture, offerFixture, USDC, WSOL } from "../../helpers/fixtures";
import { startWebServer, type WebServer } from "../../helpers/server";
import { openStream } from "../../helpers/sse";

// The chart options of GET /v1/candles over real PostgreSQL and HTTP —
// units=human (the mints' decimals from the token service: SOL 9, USDC 6),
// invert=true (reciprocals to 18 significant digits), includeEmpty=true (gaps
// carry the last close) — and the stream's candle event, written with the fills.

let database: TestDatabase;
let server: WebServer;
let provider: TokenStandin;
const sql = () => database.db.$client;

const T0 = Date.UTC(2026, 4, 10, 12, 0) / 1000;
const UNKNOWN = addressOf("token:chart-unknown");

const big = { originalSize: 10n ** 15n, remainingSize: 10n ** 15n };
const offers: NewOffer[] = [
  offerFixture("chart-a", { tokenMint: WSOL, pricePerToken: 185_000_000n, priceScale: 9, ...big }), // 0.185 raw = 185 USDC per SOL
  offerFixture("chart-b", { tokenMint: WSOL, pricePerToken: 19n, priceScale: 2, ...big }), // 0.19
  offerFixture("chart-c", { tokenMint: WSOL, pricePerToken: 3n, priceScale: 1, ...big }), // 0.3
  offerFixture("chart-unknown", { tokenMint: UNKNOWN, ...big }),
];

const fills: NewFill[] = [
  fillFixture("chart-0", offers[0]!.pda, { slot: 10n, blockTime: new Date(T0 * 1000), fillAmount: 2_000_000_000n, paymentAmount: 370_000_000n }),
  fillFixture("chart-1", offers[1]!.pda, { slot: 11n, blockTime: new Date((T0 + 30) * 1000), fillAmount: 500_000_000n, paymentAmount: 95_000_000n }),
  fillFixture("chart-2", offers[2]!.pda, { slot: 12n, blockTime: new Date((T0 + 185) * 1000), fillAmount: 1_000_000_001n, paymentAmount: 300_000_000n }),
  fillFixture("chart-3", offers[3]!.pda, { slot: 13n, blockTime: new Date(T0 * 1000) }),
];

const RAW = [
  { time: T0, open: "0.185", high: "0.19", low: "0.185", close: "0.19", volume: "2500000000", quoteVolume: "465000000", fills: 2 },
  { time: T0 + 180, open: "0.3", high: "0.3", low: "0.3", close: "0.3", volume: "1000000001", quoteVolume: "300000000", fills: 1 },
];
const empty = (time: number, close: string) => ({ time, open: close, high: close, low: close, close, volume: "0", quoteVolume: "0", fills: 0 });

const path = (extra: string, token = WSOL) => `/v1/candles?tokenMint=${token}&paymentMint=${USDC}&resolution=1m${extra}`;

beforeAll(async () => {
  database = await createTestDatabase();
  provider = await startTokenStandin();
  for (const offer of offers) await insertOffer(sql(), offer);
  await recordFills(sql(), fills);
  server = await startWebServer({ DATABASE_URL: database.url, TOKEN_API_URL: provider.url, TOKEN_API_RPM: "600" });
});

afterAll(async () => {
  await server?.stop();
  await provider?.stop();
  await database?.drop();
});

describe("GET /v1/candles: units=human", () => {
  it("shifts prices by the decimals' difference and volumes by each mint's decimals, exactly", async () => {
    const { status, body } = await server.json(path("&units=human"));
    expect(status).toBe(200);
    expect(body.candles).toEqual([
      { time: T0, open: "185", high: "190", low: "185", close: "190", volume: "2.5", quoteVolume: "465", fills: 2 },
      { time: T0 + 180, open: "300", high: "300", low: "300", close: "300", volume: "1.000000001", quoteVolume: "300", fills: 1 },
    ]);
    expect((await server.json(path("&units=raw"))).body.candles).toEqual(RAW);
  });

  it("answers 400 on `units` when a mint's decimals are unknown, and validates the value", async () => {
    const unknown = await server.json(path("&units=human", UNKNOWN));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: expect.stringMatching(/decimals of tokenMint/), code: "invalid_parameter", param: "units" });
    expect((await server.json(path("&units=whole"))).body).toMatchObject({ code: "invalid_parameter", param: "units" });
    expect((await server.json(path("&invert=yes"))).body).toMatchObject({ code: "invalid_parameter", param: "invert" });
    expect((await server.json(path("&includeEmpty=1"))).body).toMatchObject({ code: "invalid_parameter", param: "includeEmpty" });
  });
});

describe("GET /v1/candles: invert=true", () => {
  it("answers token per payment: reciprocals to 18 significant digits, high and low and the volumes trading places", async () => {
    expect((await server.json(path("&invert=true"))).body.candles).toEqual([
      { time: T0, open: "5.40540540540540541", high: "5.40540540540540541", low: "5.26315789473684211", close: "5.26315789473684211", volume: "465000000", quoteVolume: "2500000000", fills: 2 },
      { time: T0 + 180, open: "3.33333333333333333", high: "3.33333333333333333", low: "3.33333333333333333", close: "3.33333333333333333", volume: "300000000", quoteVolume: "1000000001", fills: 1 },
    ]);
  });

  it("inverts after the shift to whole units (one rounding)", async () => {
    expect((await server.json(path("&invert=true&units=human"))).body.candles[0]).toEqual({
      time: T0, open: "0.00540540540540540541", high: "0.00540540540540540541", low: "0.00526315789473684211", close: "0.00526315789473684211", volume: "465", quoteVolume: "2.5", fills: 2,
    });
  });
});

describe("GET /v1/candles: includeEmpty=true", () => {
  it("answers every bucket up to toTime's from the pair's first candle, an empty one carrying the last close", async () => {
    const { body } = await server.json(path(`&includeEmpty=true&toTime=${T0 + 300}`));
    expect(body.candles).toEqual([RAW[0], empty(T0 + 60, "0.19"), empty(T0 + 120, "0.19"), RAW[1], empty(T0 + 240, "0.3"), empty(T0 + 300, "0.3")]);
  });

  it("starts at fromTime's bucket carrying the close before it, keeps the newest `limit` buckets, and pages back contiguously", async () => {
    expect((await server.json(path(`&includeEmpty=true&fromTime=${T0 + 1}&toTime=${T0 + 200}`))).body.candles).toEqual([
      empty(T0 + 60, "0.19"), empty(T0 + 120, "0.19"), RAW[1],
    ]);
    const newest = (await server.json(path(`&includeEmpty=true&toTime=${T0 + 300}&limit=2`))).body.candles;
    expect(newest).toEqual([empty(T0 + 240, "0.3"), empty(T0 + 300, "0.3")]);
    const before = (await server.json(path(`&includeEmpty=true&toTime=${T0 + 240 - 1}&limit=2`))).body.candles;
    expect(before).toEqual([empty(T0 + 120, "0.19"), RAW[1]]);
    expect((await server.json(path(`&includeEmpty=true&toTime=${T0 - 1}`))).body.candles).toEqual([]);
  });

  it("combines with units=human and invert=true", async () => {
    const { body } = await server.json(path(`&includeEmpty=true&units=human&invert=true&toTime=${T0 + 60}`));
    expect(body.candles[1]).toEqual({ ...empty(T0 + 60, "0.00526315789473684211") });
  });

  it("writes in PostgreSQL the very bytes the rows rendered in JavaScript make, and inverts those rows' whole units", async () => {
    const { chartCandlesInJs, listChartCandles } = await import("../../../lib/db/reads/chart-candles");
    const { reciprocal } = await import("../../../lib/program/decimal");
    type Candle = { time: number; open: string; high: string; low: string; close: string; volume: string; quoteVolume: string; fills: number };
    const invert = (c: Candle): Candle => ({
      time: c.time, open: reciprocal(c.open), high: reciprocal(c.low), low: reciprocal(c.high), close: reciprocal(c.close),
      volume: c.quoteVolume, quoteVolume: c.volume, fills: c.fills,
    });
    const decimalsCases = [undefined, { token: 9, payment: 6 }, { token: 0, payment: 18 }, { token: 6, payment: 6 }];
    for (const includeEmpty of [true, false]) {
      for (const decimals of decimalsCases) {
        for (const window of [{ toTime: T0 + 300 }, { fromTime: T0 + 1, toTime: T0 + 200 }, { toTime: T0 - 1 }]) {
          const q = { tokenMint: WSOL, paymentMint: USDC, resolution: 60, limit: 500, ...window };
          const label = JSON.stringify({ includeEmpty, decimals, window });
          const inJs = await chartCandlesInJs(database.db, q, { includeEmpty, decimals });
          expect(await listChartCandles(database.db, q, { includeEmpty, invert: false, decimals }), label).toBe(inJs);
          const inverted = JSON.stringify({ candles: (JSON.parse(inJs) as { candles: Candle[] }).candles.map(invert) });
          expect(await listChartCandles(database.db, q, { includeEmpty, invert: true, decimals }), `${label} inverted`).toBe(inverted);
        }
      }
    }
  });

  it("reads the candles key only: probes and ranges of candles, never fills", async () => {
    const { GAP_FILLED_STATEMENT } = await import("../../../lib/db/reads/chart-candles");
    const rows = await sql().unsafe(`explain ${GAP_FILLED_STATEMENT}`, [WSOL, USDC, 60, null, T0 + 300, 500]);
    const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
    expect(plan).toMatch(/candles_.*_pk/);
    expect(plan).not.toMatch(/fills|Seq Scan on candles/);
  });
});

describe("the stream's candle event", () => {
  it("sends, with a batch's fills, the pair's candles at each resolution as /v1/candles serves them; only when asked for", async () => {
    const reader = await openStream(server.baseUrl, `/v1/stream?tokenMint=${WSOL}&types=candle,fill`);
    const plain = await openStream(server.baseUrl, `/v1/stream?tokenMint=${WSOL}`);
    const fill = fillFixture("chart-live", offers[1]!.pda, { slot: 20n, blockTime: new Date((T0 + 190) * 1000), fillAmount: 7n, paymentAmount: 1n });
    await sql().begin(async (tx: postgres.TransactionSql) => {
      await recordFills(tx, [fill]);
      await appendChanges(tx, [{ kind: "fill", signature: fill.signature, ixIndex: fill.ixIndex }]);
    });
    const [fillEvent, candleEvent] = await reader.waitForCount(2);
    expect([fillEvent!.event, candleEvent!.event]).toEqual(["fill", "candle"]);
    expect(candleEvent!.data).not.toMatch(/\s/); // compact, as every payload
    const payload = JSON.parse(candleEvent!.data);
    expect(Object.keys(payload.candles)).toEqual(["1m", "5m", "15m", "1h", "4h", "1d"]);
    expect(payload).toMatchObject({ tokenMint: WSOL, paymentMint: USDC });
    for (const [resolution, seconds] of [["1m", 60], ["1h", 3600]] as const) {
      const served = (await server.json(`/v1/candles?tokenMint=${WSOL}&paymentMint=${USDC}&resolution=${resolution}`)).body.candles;
      const bucket = Math.floor((T0 + 190) / seconds) * seconds;
      expect(payload.candles[resolution]).toEqual(served.find((c: { time: number }) => c.time === bucket));
    }
    expect(payload.candles["1m"]).toMatchObject({ time: T0 + 180, close: "0.19", low: "0.19", fills: 2 });
    await plain.waitFor((e) => e.event === "fill");
    expect(plain.events.map((e) => e.event)).toEqual(["fill"]);
    reader.close();
    plain.close();
  });
});
