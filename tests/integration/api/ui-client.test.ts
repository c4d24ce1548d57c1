import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertOffer, recordFills } from "../../../lib/db/writes/index";
import { ApiRequestError, createApi } from "../../../client/api";
import { startTokenStandin, type TokenStandin } from "../../../local/tokens/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, fillFixture, offerFixture, USDC } from "../../helpers/fixtures";
import { startWebServer, type WebServer } from "../../helpers/server";

// The UI's /v1 client (client/api.ts: openapi-fetch typed from the OpenAPI
// document) against the production server over real HTTP and PostgreSQL:
// each call gets the body the endpoint sends, its queries arrive as the API
// reads them, and error answers become ApiRequestError with the API's code.

let database: TestDatabase;
let standin: TokenStandin;
let server: WebServer;
let client: ReturnType<typeof createApi>;

const TOKEN = addressOf("token:ui-client");
const MAKER = addressOf("maker:ui-client");
const TAKER = addressOf("taker:ui-client");
const ask = offerFixture("ui-ask", { tokenMint: TOKEN, maker: MAKER });
const bid = offerFixture("ui-bid", { tokenMint: TOKEN, maker: MAKER, side: "buy", pricePerToken: 2_400_000n });
const fills = [
  fillFixture("ui-1", ask.pda, { taker: TAKER, blockTime: new Date("2026-06-02T00:00:00Z"), slot: 200n }),
  fillFixture("ui-2", ask.pda, { taker: TAKER, blockTime: new Date("2026-06-02T00:05:00Z"), slot: 210n }),
  fillFixture("ui-3", bid.pda, { blockTime: new Date("2026-06-02T00:10:00Z"), slot: 220n }),
];

beforeAll(async () => {
  database = await createTestDatabase();
  for (const offer of [ask, bid]) await insertOffer(database.db.$client, offer);
  await recordFills(database.db.$client, fills);
  standin = await startTokenStandin({ limit: 1_000 });
  server = await startWebServer({ DATABASE_URL: database.url, TOKEN_API_URL: standin.url, RATE_LIMIT_RPM: "0" });
  client = createApi(server.baseUrl);
});

afterAll(async () => {
  await server?.stop();
  await standin?.stop();
  await database?.drop();
});

/** The body the API sends for a path, as a plain HTTP client reads it. */
const direct = async (path: string) => (await server.json(path)).body;

describe("the UI's typed /v1 client", () => {
  it("gets from every endpoint the body the endpoint sends", async () => {
    expect(await client.offers({ tokenMint: TOKEN, status: "open" })).toEqual(await direct(`/v1/offers?tokenMint=${TOKEN}&status=open`));
    expect(await client.offer(ask.pda)).toEqual(await direct(`/v1/offers/${ask.pda}`));
    expect(await client.offerFills(ask.pda)).toEqual(await direct(`/v1/offers/${ask.pda}/fills`));
    expect(await client.fills({ tokenMint: TOKEN })).toEqual(await direct(`/v1/fills?tokenMint=${TOKEN}`));
    expect(await client.makerStats(MAKER)).toEqual(await direct(`/v1/makers/${MAKER}/stats`));
    expect(await client.makerOffers(MAKER, { status: "open" })).toEqual(await direct(`/v1/makers/${MAKER}/offers?status=open`));
    expect(await client.stats()).toEqual(await direct("/v1/stats"));
    expect(await client.markets()).toEqual(await direct("/v1/markets"));
    const candles = await client.candles({ tokenMint: TOKEN, paymentMint: USDC, resolution: "1h" });
    expect(candles).toEqual(await direct(`/v1/candles?tokenMint=${TOKEN}&paymentMint=${USDC}&resolution=1h`));
    expect(candles.candles[0]!.fills).toBe(3);
    const tokens = await client.tokens([USDC, TOKEN]);
    expect(tokens.tokens.map((t) => t.mint).sort()).toEqual([USDC, TOKEN].sort());
    expect((await client.trending()).items.length).toBeGreaterThan(0);
  });

  it("sends numbers as digits and leaves empty filters out", async () => {
    const page = await client.fills({ taker: TAKER, maker: "", limit: 1 });
    expect(page.fills.map((f) => f.signature)).toEqual([fills[1]!.signature]);
    expect(page.limit).toBe(1);
    const next = await client.fills({ taker: TAKER, limit: 1, cursor: page.nextCursor! });
    expect(next.fills.map((f) => f.signature)).toEqual([fills[0]!.signature]);
    const window = await client.fills({ fromTime: Date.parse("2026-06-02T00:04:00Z") / 1000, toTime: Date.parse("2026-06-02T00:06:00Z") / 1000 });
    expect(window.fills.map((f) => f.signature)).toEqual([fills[1]!.signature]);
  });

  it("turns an error answer into ApiRequestError with the status and the API's code", async () => {
    const invalid = await client.offer("not-an-address").catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ApiRequestError);
    expect(invalid).toMatchObject({ status: 400, code: "invalid_parameter" });
    const missing = await client.offer(addressOf("offer:nowhere")).catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, code: "not_found" });
    const badLimit = await client.fills({ limit: 0 }).catch((e: unknown) => e);
    expect(badLimit).toMatchObject({ status: 400, code: "invalid_parameter" });
  });
});
