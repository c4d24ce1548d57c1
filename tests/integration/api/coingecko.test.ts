import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertOffer, recordFills, type NewFill, type NewOffer } from "../../../lib/db/writes/index";
import { shiftDecimal } from "../../../lib/program/decimal";
import { startTokenStandin, type TokenStandin } from "../../../local/tokens/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, fillFixture, offerFixture, USDC, WSOL } from "../../helpers/fixtures";
import { startWebServer, type WebServer } from "../../helpers/server";

// The CoinGecko exchange API standard (spot, order-book venues) over real
// PostgreSQL and HTTP: pairs, tickers, orderbook and historical_trades of
// SOL/USDC in whole tokens (SOL 9 decimals, USDC 6, from the token stand-in),
// exact decimal strings; a pair whose decimals are unknown left out; the
// standard's documented fields present. Every answer is also checked against
// our OpenAPI document (WebServer.json).

let database: TestDatabase;
let server: WebServer;
let provider: TokenStandin;
const sql = () => database.db.$client;

const UNKNOWN = addressOf("token:coingecko-unknown");
const HOUR = 3600_000;
const big = (size: bigint) => ({ originalSize: size, remainingSize: size });

const offers: NewOffer[] = [
  offerFixture("cg-ask-1", { tokenMint: WSOL, side: "sell", pricePerToken: 185n, priceScale: 3, ...big(2_000_000_000n) }), // 185 USDC per SOL, 2 SOL
  offerFixture("cg-ask-2", { tokenMint: WSOL, side: "sell", pricePerToken: 19n, priceScale: 2, ...big(1_500_000_000n) }), // 190, 1.5 SOL
  offerFixture("cg-bid-1", { tokenMint: WSOL, side: "buy", pricePerToken: 18n, priceScale: 2, ...big(1_000_000_000n) }), // 180, 1 SOL
  offerFixture("cg-filled-ask", { tokenMint: WSOL, side: "sell", pricePerToken: 2n, priceScale: 1, ...big(10_000_000_000n) }), // 200
  offerFixture("cg-filled-bid", { tokenMint: WSOL, side: "buy", pricePerToken: 17n, priceScale: 2, ...big(10_000_000_000n) }), // 170
  offerFixture("cg-unknown", { tokenMint: UNKNOWN, side: "sell" }),
];
const [, , , filledAsk, filledBid] = offers;

const tBuy = new Date(Date.now() - 2 * HOUR);
const tSell = new Date(Date.now() - HOUR);
const fills: NewFill[] = [
  fillFixture("cg-buy", filledAsk!.pda, { slot: 500n, blockTime: tBuy, fillAmount: 500_000_000n, paymentAmount: 100_000_000n, feeAmount: 200_000n }),
  fillFixture("cg-sell", filledBid!.pda, { slot: 501n, blockTime: tSell, fillAmount: 1_000_000_000n, paymentAmount: 170_000_000n, feeAmount: 340_000n }),
];

const TICKER = `${WSOL}_${USDC}`;

beforeAll(async () => {
  database = await createTestDatabase();
  provider = await startTokenStandin();
  for (const offer of offers) await insertOffer(sql(), offer);
  await recordFills(sql(), fills);
  await sql()`update offers set state = 'filled' where pda in ${sql()([filledAsk!.pda, filledBid!.pda])}`;
  server = await startWebServer({ DATABASE_URL: database.url, TOKEN_API_URL: provider.url, TOKEN_API_RPM: "600" });
});

afterAll(async () => {
  await server?.stop();
  await provider?.stop();
  await database?.drop();
});

describe("GET /v1/coingecko/tickers and /pairs", () => {
  it("states each active pair's day in whole tokens, exactly, and leaves out a pair whose decimals are unknown", async () => {
    const { status, body } = await server.json("/v1/coingecko/tickers");
    expect(status).toBe(200);
    expect(body).toEqual([
      {
        ticker_id: TICKER,
        base_currency: WSOL,
        target_currency: USDC,
        pool_id: TICKER,
        last_price: "170",
        base_volume: "1.5",
        target_volume: "270",
        bid: "180",
        ask: "185",
        high: "200",
        low: "170",
        // 2 × 185 + 1.5 × 190 + 1 × 180: the open book's value in USDC
        liquidity_in_usd: "835",
      },
    ]);
  });

  it("carries every field the standard documents for a ticker", async () => {
    const { body } = await server.json("/v1/coingecko/tickers");
    for (const key of ["ticker_id", "base_currency", "target_currency", "pool_id", "last_price", "base_volume", "target_volume", "bid", "ask", "high", "low"]) {
      expect(body[0]).toHaveProperty(key);
    }
  });

  it("lists the tickers' pairs", async () => {
    const { status, body } = await server.json("/v1/coingecko/pairs");
    expect(status).toBe(200);
    expect(body).toEqual([{ ticker_id: TICKER, base: WSOL, target: USDC, pool_id: TICKER }]);
  });
});

describe("GET /v1/coingecko/orderbook", () => {
  it("gives /v1/book's levels as [price, quantity] in whole tokens, depth split between the sides", async () => {
    const before = Date.now();
    const { status, body } = await server.json(`/v1/coingecko/orderbook?ticker_id=${TICKER}&depth=2`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ticker_id: TICKER, bids: [["180", "1"]], asks: [["185", "2"]] });
    expect(body.timestamp).toBeGreaterThanOrEqual(before);
    const full = await server.json(`/v1/coingecko/orderbook?ticker_id=${TICKER}`);
    expect(full.body.asks).toEqual([["185", "2"], ["190", "1.5"]]);
  });

  it("writes each level as JavaScript's exact shift of /v1/book's raw price and size", async () => {
    const book = (await server.json(`/v1/book?tokenMint=${WSOL}&paymentMint=${USDC}`)).body as { asks: { price: string; size: string }[]; bids: { price: string; size: string }[] };
    const whole = (l: { price: string; size: string }) => [shiftDecimal(l.price, 9 - 6), shiftDecimal(l.size, -9)];
    const { body } = await server.json(`/v1/coingecko/orderbook?ticker_id=${TICKER}`);
    expect({ asks: body.asks, bids: body.bids }).toEqual({ asks: book.asks.map(whole), bids: book.bids.map(whole) });
  });

  it("refuses a malformed ticker_id, and one whose mints' decimals are unknown, with a 400 naming it", async () => {
    for (const id of ["SOL_USDC", `${WSOL}-${USDC}`, `${WSOL}_${USDC}_${USDC}`, `${UNKNOWN}_${USDC}`]) {
      const { status, body } = await server.json(`/v1/coingecko/orderbook?ticker_id=${encodeURIComponent(id)}`);
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: "invalid_parameter", param: "ticker_id" });
    }
    const missing = await server.json("/v1/coingecko/orderbook");
    expect(missing.body).toMatchObject({ code: "missing_parameter", param: "ticker_id" });
    const depth = await server.json(`/v1/coingecko/orderbook?ticker_id=${TICKER}&depth=-1`);
    expect(depth.body).toMatchObject({ code: "invalid_parameter", param: "depth" });
  });
});

describe("GET /v1/coingecko/historical_trades", () => {
  const trade = (fill: NewFill, type: "buy" | "sell", price: string, base: string, target: string) => ({
    trade_id: `${fill.signature}:0`,
    price,
    base_volume: base,
    target_volume: target,
    trade_timestamp: fill.blockTime.getTime(),
    type,
  });
  const BUY = trade(fills[0]!, "buy", "200", "0.5", "100");
  const SELL = trade(fills[1]!, "sell", "170", "1", "170");

  it("splits the pair's fills by the taker's side, in whole tokens", async () => {
    const { status, body } = await server.json(`/v1/coingecko/historical_trades?ticker_id=${TICKER}`);
    expect(status).toBe(200);
    expect(body).toEqual({ buy: [BUY], sell: [SELL] });
  });

  it("filters by type, time window and limit (the newest first)", async () => {
    expect((await server.json(`/v1/coingecko/historical_trades?ticker_id=${TICKER}&type=buy`)).body).toEqual({ buy: [BUY], sell: [] });
    expect((await server.json(`/v1/coingecko/historical_trades?ticker_id=${TICKER}&limit=1`)).body).toEqual({ buy: [], sell: [SELL] });
    const end = Math.floor(tBuy.getTime() / 1000) + 1;
    expect((await server.json(`/v1/coingecko/historical_trades?ticker_id=${TICKER}&end_time=${end}`)).body).toEqual({ buy: [BUY], sell: [] });
    const start = Math.floor(tSell.getTime() / 1000);
    expect((await server.json(`/v1/coingecko/historical_trades?ticker_id=${TICKER}&start_time=${start}`)).body).toEqual({ buy: [], sell: [SELL] });
  });

  it("refuses a bad type or a window that ends before it starts", async () => {
    expect((await server.json(`/v1/coingecko/historical_trades?ticker_id=${TICKER}&type=long`)).body).toMatchObject({ param: "type" });
    const window = await server.json(`/v1/coingecko/historical_trades?ticker_id=${TICKER}&start_time=20&end_time=10`);
    expect(window.status).toBe(400);
    expect(window.body).toMatchObject({ code: "invalid_parameter", param: "start_time" });
  });
});
