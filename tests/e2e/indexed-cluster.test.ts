import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { humanPrice } from "../../lib/program/units";
import { LOCAL_TOKEN_MINTS, startLocalCluster, type LocalCluster } from "../../local/cluster";
import { startTokenStandin, type TokenStandin } from "../../local/tokens";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { startWebServer, type WebServer } from "../helpers/server";
import { scannedCount, startWorker, waitFor, type WorkerProcess } from "../helpers/worker";
import { isolate, launchChromium, watchConsole } from "./browser";

// The explorer on what `npm start` runs: the local cluster's ledger indexed by
// the worker, the token stand-in knowing the cluster's mints, `next start`.
// Pages are checked against the /v1 API they render from.

let browser: Browser;
let cluster: LocalCluster;
let database: TestDatabase;
let standin: TokenStandin;
let worker: WorkerProcess;
let server: WebServer;

beforeAll(async () => {
  browser = await launchChromium();
  cluster = await startLocalCluster({ seed: "e2e-indexed", history: 800, live: false });
  database = await createTestDatabase();
  standin = await startTokenStandin({
    limit: 100_000,
    extraTokens: LOCAL_TOKEN_MINTS.map((m) => ({ mint: m.address, symbol: m.symbol, name: m.name, decimals: m.decimals })),
  });
  worker = startWorker({ DATABASE_URL: database.url, ...cluster.env });
  server = await startWebServer({ DATABASE_URL: database.url, ...cluster.env, TOKEN_API_URL: standin.url, LOCAL_DEMO_CLUSTER: "true", RATE_LIMIT_RPM: "0" });
  await waitFor(
    async () => (await scannedCount(database.url)) === cluster.ledger.transactions.length,
    120_000,
    () => `the worker did not index the ledger:\n${worker.output().slice(-2000)}`,
  );
}, 240_000);

afterAll(async () => {
  await browser?.close();
  worker?.kill("SIGKILL");
  await server?.stop();
  await standin?.stop();
  await database?.drop();
  await cluster?.stop();
});

async function decimalsOf(...mints: string[]): Promise<Map<string, number>> {
  const { body } = await server.json(`/v1/tokens?mints=${mints.join(",")}`);
  return new Map(body.tokens.map((t: { mint: string; decimals: number }) => [t.mint, t.decimals]));
}

describe("the explorer on indexed local-cluster data", { timeout: 90_000 }, () => {
  it("markets, book, offer and fills pages show what the API holds for the indexed ledger", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const external = await isolate(context, server.baseUrl);
    const page = await context.newPage();
    const errors = watchConsole(page);

    // Markets: one row per pair the API lists, the busiest pair's best ask priced in human units.
    const markets = (await server.json("/v1/markets")).body.markets;
    expect(markets.length).toBeGreaterThan(3);
    await page.goto(`${server.baseUrl}/`, { waitUntil: "networkidle" });
    expect(await page.locator("[data-market]").count()).toBe(markets.length);
    const top = markets.find((m: { bestAsk: unknown }) => m.bestAsk)!;
    const decimals = await decimalsOf(top.tokenMint, top.paymentMint);
    const row = page.locator(`[data-market="${top.tokenMint}/${top.paymentMint}"]`);
    expect(await row.locator("[data-col=best-ask] [data-price]").getAttribute("data-price")).toBe(
      humanPrice(BigInt(top.bestAsk.pricePerToken), top.bestAsk.priceScale, decimals.get(top.tokenMint)!, decimals.get(top.paymentMint)!),
    );

    // Book: asks in the API's book order, and the pair's recent fills.
    await page.goto(`${server.baseUrl}/book/${top.tokenMint}/${top.paymentMint}`, { waitUntil: "networkidle" });
    const asks = (await server.json(`/v1/offers?sort=price&side=sell&tokenMint=${top.tokenMint}&paymentMint=${top.paymentMint}&limit=200`)).body.offers;
    const shownAsks = await page.locator("[data-testid=asks-table] [data-offer]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-offer")));
    expect(shownAsks).toEqual(asks.map((o: { pda: string }) => o.pda));

    // Offer: the first ask's remaining size, raw, as the API has it.
    const offer = (await server.json(`/v1/offers/${asks[0].pda}`)).body;
    await page.goto(`${server.baseUrl}/offers/${offer.pda}`, { waitUntil: "networkidle" });
    await page.getByTestId("offer-price").waitFor();
    expect(await page.locator("[data-status]").first().getAttribute("data-status")).toBe(offer.status);
    expect(await page.locator("[data-testid=offer-remaining] [data-raw]").first().getAttribute("data-raw")).toBe(offer.remainingSize);

    // Fills: the newest page of the feed, row for row.
    await page.goto(`${server.baseUrl}/fills`, { waitUntil: "networkidle" });
    const fills = (await server.json("/v1/fills?limit=50")).body.fills;
    const shownFills = await page.locator("[data-fill]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-fill")));
    expect(shownFills).toEqual(fills.map((f: { signature: string; ixIndex: number }) => `${f.signature}/${f.ixIndex}`));

    await context.close();
    expect(errors, "console errors").toEqual([]);
    expect(external, "requests that left localhost").toEqual([]);
  });
});
