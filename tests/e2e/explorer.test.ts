import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { humanPrice, formatUnits } from "../../lib/program/units";
import { takeAmounts } from "../../lib/program/pricing";
import { appendChanges, recordFill } from "../../lib/db/writes";
import { startTokenStandin, type TokenStandin } from "../../local/tokens";
import { parseCsv } from "../../client/csv";
import { displayDecimal, formatAmount } from "../../client/format";
import { FILL_CSV_HEADER } from "../../client/fills-csv";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { addressOf, signatureOf, USDC } from "../helpers/fixtures";
import { startWebServer, type WebServer } from "../helpers/server";
import { startTestRpc, type TestRpc } from "../integration/tokens/helpers/rpc-server";
import { DESKTOP, PHONE, isolate, launchChromium, openPage, showLiveRow, watchConsole } from "./browser";
import { BONK, DECIMALS, JUP, MAKER_A, MAKER_B, MYSTERY, offerByLabel, seedExplorer, TAKER_X, WIF, type Seeded } from "./seed";
import { injectStandardWallet, TEST_WALLET_NAME } from "./wallet";

// The explorer UI in Debian's Chromium against `next start` on a fresh
// database seeded through lib/db/writes, the token stand-in, and the local-cluster
// flag. Every number checked against the /v1 API the page polls.
// Screenshots of every page (desktop and phone, dark and light) go to test-results/e2e/.

const SHOTS = path.resolve(import.meta.dirname, "../../test-results/e2e");

let database: TestDatabase;
let standin: TokenStandin;
let server: WebServer;
let browser: Browser;
let seeded: Seeded;
let rpc: TestRpc;

beforeAll(async () => {
  browser = await launchChromium(); // fails first, with the apt line, when Chromium is missing
  database = await createTestDatabase();
  seeded = await seedExplorer(database.db.$client);
  standin = await startTokenStandin({ limit: 100_000 });
  rpc = await startTestRpc();
  server = await startWebServer({
    DATABASE_URL: database.url,
    TOKEN_API_URL: standin.url,
    LOCAL_DEMO_CLUSTER: "true",
    // A JSON-RPC peer holding no accounts: the mystery mint is no mint account there, so it stays without decimals.
    SOLANA_RPC_URL: rpc.url,
    RATE_LIMIT_RPM: "0",
  });
  mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await standin?.stop();
  await rpc?.stop();
  await database?.drop();
});

interface Session {
  context: BrowserContext;
  page: Page;
  errors: string[];
  external: string[];
}

async function open(viewport = DESKTOP, colorScheme: "dark" | "light" = "dark", walletAddress?: string): Promise<Session> {
  const context = await browser.newContext({ viewport, colorScheme, acceptDownloads: true });
  const external = await isolate(context, server.baseUrl);
  if (walletAddress) await injectStandardWallet(context, walletAddress);
  const page = await context.newPage();
  const errors = watchConsole(page);
  return { context, page, errors, external };
}

async function close(s: Session, allowedErrors: RegExp[] = []) {
  await s.context.close();
  const unexpected = s.errors.filter((e) => !allowedErrors.some((r) => r.test(e)));
  expect(unexpected, "console errors").toEqual([]);
  expect(s.external, "requests that left localhost").toEqual([]);
}

async function go(page: Page, pathAndQuery: string) {
  const response = await page.goto(server.baseUrl + pathAndQuery, { waitUntil: "networkidle" });
  return response;
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** Every page in the four looks (desktop and phone, dark and light), one browser context per look. */
async function shootAllLooks(pages: [string, string][]) {
  for (const [size, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    for (const scheme of ["dark", "light"] as const) {
      const s = await open(viewport, scheme);
      for (const [pathAndQuery, name] of pages) {
        await go(s.page, pathAndQuery);
        await shoot(s.page, `${name}-${size}-${scheme}`);
      }
      // The not-found page's own document is a 404, which Chromium reports on the console.
      await close(s, [/status of 404/]);
    }
  }
}

/**
 * The page's fill rows (`rows`, a selector) become the API's rows, in its
 * order. Waited for (a loaded machine may still be drawing); when they never
 * do, the failure names the rows shown, the API's, and any "N new" pill
 * holding rows back.
 */
async function expectFillRows(page: Page, fills: { signature: string; ixIndex: number }[], rows = "[data-fill]") {
  const want = fills.map((f) => `${f.signature}/${f.ixIndex}`);
  const reached = await page
    .waitForFunction(([selector, keys]) => [...document.querySelectorAll(selector)].map((r) => r.getAttribute("data-fill")).join() === keys.join(), [rows, want] as const, { timeout: 15_000 })
    .then(() => true, () => false);
  if (reached) return;
  const shown = await page.locator(rows).evaluateAll((found) => found.map((r) => r.getAttribute("data-fill")));
  const pill = await page.getByTestId("new-rows-pill").getAttribute("data-count", { timeout: 1_000 }).catch(() => "none");
  expect(shown, `fill rows shown (the API has ${want.length}; new-rows pill: ${pill}; ${page.url()})`).toEqual(want);
}

const text = async (page: Page, selector: string) => (await page.locator(selector).first().innerText()).trim();
const price = (ppt: string, scale: number, token: string, payment: string) => humanPrice(BigInt(ppt), scale, DECIMALS[token]!, DECIMALS[payment]!);

describe("the explorer in Chromium", { timeout: 90_000 }, () => {
  it("markets: every pair with prices, volumes and the protocol stats of the API, and the local-cluster banner", async () => {
    const s = await open();
    await go(s.page, "/");
    const { body } = await server.json("/v1/markets");
    const stats = (await server.json("/v1/stats")).body;
    const rows = s.page.locator("[data-market]");
    expect(await rows.count()).toBe(body.markets.length);
    const jup = body.markets.find((m: any) => m.tokenMint === JUP && m.paymentMint === USDC);
    const row = s.page.locator(`[data-market="${JUP}/${USDC}"]`);
    expect(await row.locator("[data-col=best-ask] [data-price]").getAttribute("data-price")).toBe(price(jup.bestAsk.pricePerToken, jup.bestAsk.priceScale, JUP, USDC));
    expect(await row.locator("[data-col=best-bid] [data-price]").getAttribute("data-price")).toBe(price(jup.bestBid.pricePerToken, jup.bestBid.priceScale, JUP, USDC));
    expect(await row.locator("[data-col=best-ask]").innerText()).toBe(displayDecimal(price(jup.bestAsk.pricePerToken, jup.bestAsk.priceScale, JUP, USDC), { compact: false }));
    expect(await row.locator("[data-col=volume] [data-raw]").getAttribute("data-raw")).toBe(jup.volume24h);
    expect(await row.locator("[data-col=volume]").innerText()).toContain(formatAmount(jup.volume24h, 6).text);
    expect(await row.locator("[data-col=fills]").innerText()).toBe(String(jup.fills24h));
    expect(await text(s.page, "[data-testid=stat-open] dd")).toBe(String(stats.openOffers));
    expect(await text(s.page, "[data-testid=stat-fills] dd")).toBe(String(stats.totalFills));
    expect(await s.page.locator("[data-testid=stat-volume] [data-raw]").first().getAttribute("data-raw")).toBe(Object.values(stats.volumeByMint)[0]);
    // The unknown token's price is raw and marked so.
    expect(await s.page.locator(`[data-market^="${MYSTERY}/"] [data-col=best-ask]`).innerText()).toMatch(/raw/i);
    expect(await s.page.getByTestId("local-cluster-banner").isVisible()).toBe(true);
    // A row opens its book.
    await row.locator("[data-col=spread]").click();
    await s.page.waitForURL(`**/book/${JUP}/${USDC}`);
    await close(s);
  });

  it("book: asks ascending and bids descending as the API orders them, depth, spread, chart, fills; a row opens its offer", async () => {
    const s = await open();
    await go(s.page, `/book/${JUP}/${USDC}`);
    const asks = (await server.json(`/v1/offers?tokenMint=${JUP}&paymentMint=${USDC}&side=sell&sort=price&limit=200`)).body.offers;
    const bids = (await server.json(`/v1/offers?tokenMint=${JUP}&paymentMint=${USDC}&side=buy&sort=price&limit=200`)).body.offers;
    const order = (table: string) => s.page.locator(`[data-testid=${table}] [data-offer]`).evaluateAll((rows) => rows.map((r) => r.getAttribute("data-offer")));
    expect(await order("asks-table")).toEqual(asks.map((o: any) => o.pda));
    expect(await order("bids-table")).toEqual(bids.map((o: any) => o.pda));
    const askPrices = await s.page.locator("[data-testid=asks-table] [data-price]").evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-price"))));
    expect(askPrices).toEqual([...askPrices].sort((a, b) => a - b));
    const remaining = await s.page.locator("[data-testid=asks-table] [data-col=remaining] [data-raw]").evaluateAll((els) => els.map((e) => e.getAttribute("data-raw")));
    expect(remaining).toEqual(asks.map((o: any) => o.remainingSize));
    const total = asks.reduce((sum: bigint, o: any) => sum + BigInt(o.remainingSize), 0n);
    expect(await s.page.locator("[data-testid=asks-table] [data-col=depth] [data-raw]").last().getAttribute("data-raw")).toBe(total.toString());
    expect(await s.page.locator("[data-testid=asks-table] [data-col=depth]").last().getAttribute("data-depth")).toBe("100");
    expect(await s.page.locator("[data-testid=best-ask] [data-price]").getAttribute("data-price")).toBe(price(asks[0].pricePerToken, asks[0].priceScale, JUP, USDC));
    expect(await text(s.page, "[data-testid=spread]")).toMatch(/^0\.95%/);
    await s.page.locator("[data-testid=candle-chart] canvas").first().waitFor();
    const fills = (await server.json(`/v1/fills?tokenMint=${JUP}&paymentMint=${USDC}&limit=25`)).body.fills;
    await expectFillRows(s.page, fills, "[data-testid=fills-table] [data-fill]");
    await s.page.locator(`[data-testid=bids-table] [data-offer="${bids[0].pda}"] [data-col=remaining]`).click();
    await s.page.waitForURL(`**/offers/${bids[0].pda}`);
    await s.page.getByTestId("offer-price").waitFor();
    await close(s);
  });

  it("offer: every field in human units, the filled share and the fill history of the API", async () => {
    const offer = offerByLabel(seeded, "jup-ask-1");
    const s = await open();
    await go(s.page, `/offers/${offer.pda}`);
    const api = (await server.json(`/v1/offers/${offer.pda}`)).body;
    const fills = (await server.json(`/v1/offers/${offer.pda}/fills`)).body.fills;
    expect(await s.page.locator("[data-testid=offer-price] [data-price]").getAttribute("data-price")).toBe(price(api.pricePerToken, api.priceScale, JUP, USDC));
    expect(await text(s.page, "[data-testid=offer-size] dd")).toBe(`${formatAmount(api.originalSize, 6).text} JUP`);
    expect(await text(s.page, "[data-testid=offer-remaining] dd")).toBe(`${formatAmount(api.remainingSize, 6).text} JUP`);
    const filled = ((BigInt(api.originalSize) - BigInt(api.remainingSize)) * 10_000n) / BigInt(api.originalSize);
    expect(await text(s.page, "[data-testid=filled-percent]")).toBe(`${filled / 100n}.${String(filled % 100n).padStart(2, "0")}%`);
    expect(await s.page.locator("[data-status]").first().getAttribute("data-status")).toBe(api.status);
    expect(await text(s.page, "[data-testid=offer-expiry] dd")).toMatch(/^in \d+d \d+h \d+m$/);
    expect(await s.page.locator("[data-testid=fills-table] [data-fill]").count()).toBe(fills.length);
    expect(await s.page.locator("[data-testid=fills-table] [data-col=amount] [data-raw]").first().getAttribute("data-raw")).toBe(fills[0].fillAmount);
    await close(s);
  });

  it("offer: an unknown offer gets the not-found page (HTTP 404)", async () => {
    const s = await open();
    const response = await go(s.page, `/offers/${addressOf("never-an-offer")}`);
    expect(response?.status()).toBe(404);
    await s.page.getByTestId("offer-not-found").waitFor();
    expect(await s.page.locator("h1").innerText()).toBe("Offer not found");
    const bad = await go(s.page, "/offers/not-an-address");
    expect(bad?.status()).toBe(404);
    // Chromium reports the 404 documents themselves on the console; nothing else may appear.
    await close(s, [/status of 404/]);
  });

  it("fills: filters go into the URL and change the rows; pages; CSV holds the rows shown", async () => {
    const s = await open();
    await go(s.page, "/fills");
    const all = (await server.json("/v1/fills?limit=50")).body.fills;
    await expectFillRows(s.page, all);

    await s.page.getByLabel("Token mint").fill(JUP);
    await s.page.getByLabel("Taker").fill(TAKER_X);
    await s.page.getByRole("button", { name: "Apply filters" }).click();
    await s.page.waitForURL((url) => url.searchParams.get("tokenMint") === JUP && url.searchParams.get("taker") === TAKER_X);
    const filtered = (await server.json(`/v1/fills?tokenMint=${JUP}&taker=${TAKER_X}&limit=50`)).body.fills;
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.length).toBeLessThan(all.length);
    await expectFillRows(s.page, filtered);

    // A time range, in UTC, from the form.
    const from = new Date(Date.parse(filtered[0].blockTime) - 60_000).toISOString().slice(0, 16);
    await s.page.getByLabel("From (UTC)").fill(from);
    await s.page.getByRole("button", { name: "Apply filters" }).click();
    await s.page.waitForURL((url) => url.searchParams.get("fromTime") === String(Date.parse(`${from}:00Z`) / 1000));
    const ranged = (await server.json(`/v1/fills?tokenMint=${JUP}&taker=${TAKER_X}&fromTime=${Date.parse(`${from}:00Z`) / 1000}&limit=50`)).body.fills;
    await expectFillRows(s.page, ranged);
    await shoot(s.page, "fills-filtered-desktop-dark");

    // CSV of the rows shown.
    const [download] = await Promise.all([s.page.waitForEvent("download"), s.page.getByTestId("export-csv").click()]);
    const csv = parseCsv(readFileSync((await download.path())!, "utf8"));
    expect(csv[0]).toEqual([...FILL_CSV_HEADER]);
    const shownKeys = await s.page.locator("[data-fill]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-fill")));
    expect(csv.slice(1).map((r) => `${r[1]}/${r[2]}`)).toEqual(shownKeys);
    for (const [i, f] of ranged.entries()) {
      const row = csv[i + 1]!;
      expect(row[12]).toBe(formatUnits(BigInt(f.fillAmount), 6));
      expect(row[13]).toBe(formatUnits(BigInt(f.paymentAmount), 6));
      expect(row[16]).toBe(f.fillAmount);
      expect(row[9]).toBe("JUP");
    }

    // Pagination by cursor.
    await go(s.page, "/fills?limit=5");
    const page1 = (await server.json("/v1/fills?limit=50")).body;
    if (page1.nextCursor) {
      await s.page.getByTestId("older-page").click();
      await s.page.waitForURL((url) => url.searchParams.has("cursor"));
    }
    await close(s);
  });

  it("fills: a fill indexed while the page is open appears without a reload (after the reader's click on the new-fills pill)", async () => {
    const s = await open();
    await openPage(s.page, server.baseUrl + "/fills");
    await s.page.locator('[data-testid=live-indicator][data-state="live"]').waitFor();
    const offer = offerByLabel(seeded, "jup-ask-2");
    const amounts = takeAmounts(10n ** 8n, offer.pricePerToken, offer.priceScale);
    const signature = signatureOf("e2e:live-fill");
    await recordFill(database.db.$client, {
      signature,
      ixIndex: 0,
      offerPda: offer.pda,
      taker: TAKER_X,
      fillAmount: amounts.fillAmount,
      paymentAmount: amounts.paymentAmount,
      feeAmount: amounts.feeAmount,
      blockTime: new Date(),
      slot: 99_999n,
    });
    // As the worker does in the batch's transaction: the fill and the offer's new row go to the live feed.
    await database.db.$client.begin((tx) => appendChanges(tx, [{ kind: "fill", signature, ixIndex: 0 }, { kind: "offer", pda: offer.pda, signature }]));
    const row = await showLiveRow(s.page, `[data-fill="${signature}/0"]`);
    expect(await row.getAttribute("class")).toContain("row-arrive");
    expect(await row.locator("[data-col=amount]").innerText()).toBe("100");
    await close(s);
  });

  it("maker: stats, offers by status tab and fills as the API has them", async () => {
    const s = await open();
    await go(s.page, `/makers/${MAKER_A}`);
    const stats = (await server.json(`/v1/makers/${MAKER_A}/stats`)).body;
    expect(await text(s.page, "[data-testid=maker-total] dd")).toBe(String(stats.totalOffers));
    expect(await text(s.page, "[data-testid=maker-open] dd")).toBe(String(stats.openOffers));
    expect(await text(s.page, "[data-testid=maker-filled] dd")).toBe(String(stats.filledOffers));
    expect(await text(s.page, "[data-testid=maker-expired] dd")).toBe(String(stats.expiredOffers));
    expect(await text(s.page, "[data-testid=maker-cancelled] dd")).toBe(String(stats.cancelledOffers));
    const sold = await s.page.locator(`[data-testid=maker-sold] [data-mint="${JUP}"] [data-raw]`).getAttribute("data-raw");
    expect(sold).toBe(stats.totalSold[JUP]);
    const open_ = (await server.json(`/v1/makers/${MAKER_A}/offers?status=open`)).body.offers;
    expect(await s.page.locator("[data-testid=maker-offers] [data-offer]").count()).toBe(open_.length);
    await s.page.getByRole("tab", { name: /filled/i }).click();
    await s.page.waitForURL((url) => url.searchParams.get("status") === "filled");
    const filled = (await server.json(`/v1/makers/${MAKER_A}/offers?status=filled`)).body.offers;
    await s.page.waitForFunction((n) => document.querySelectorAll("[data-testid=maker-offers] [data-offer]").length === n, filled.length);
    expect(await s.page.locator("[data-testid=maker-offers] [data-status]").first().getAttribute("data-status")).toBe("filled");
    const fills = (await server.json(`/v1/fills?maker=${MAKER_A}&limit=50`)).body.fills;
    expect(await s.page.locator("[data-testid=fills-table] [data-fill]").count()).toBe(fills.length);
    await close(s);
  });

  it("trending: the provider's items with their figures, sortable, with book links where a token has offers", async () => {
    const s = await open();
    await go(s.page, "/trending");
    const trending = (await server.json("/v1/trending")).body;
    expect(await s.page.locator("[data-testid=trending-table] tbody tr").count()).toBe(trending.count);
    expect(await s.page.locator(`[data-mint="${JUP}"] [data-testid=book-link]`).getAttribute("href")).toBe(`/book/${JUP}/${USDC}`);
    expect(await s.page.locator(`[data-mint="${JUP}"] [data-testid=dexscreener-link]`).getAttribute("href")).toBe(trending.items.find((t: any) => t.mint === JUP).dexscreenerUrl);
    await s.page.locator("[data-sort=priceUsd]").click();
    const top = [...trending.items].sort((a: any, b: any) => (b.priceUsd ?? -1) - (a.priceUsd ?? -1))[0];
    expect(await s.page.locator("[data-testid=trending-table] tbody tr").first().getAttribute("data-mint")).toBe(top.mint);
    await s.page.locator("[data-sort=priceUsd]").click();
    const bottom = [...trending.items].filter((t: any) => t.priceUsd !== null).sort((a: any, b: any) => a.priceUsd - b.priceUsd)[0];
    expect(await s.page.locator("[data-testid=trending-table] tbody tr").first().getAttribute("data-mint")).toBe(bottom.mint);
    await close(s);
  });

  it("search: a mint, a symbol, a wallet and an offer address each lead to their page", async () => {
    const s = await open();
    await go(s.page, "/trending");
    const search = async (value: string) => {
      await s.page.getByRole("searchbox").or(s.page.locator("#site-search")).first().fill(value);
      await s.page.locator("#site-search").press("Enter");
    };
    await search(WIF);
    await s.page.waitForURL(`**/book/${WIF}/**`);
    await search("bonk");
    await s.page.waitForURL(`**/book/${BONK}/${USDC}`);
    await search(MAKER_A);
    await s.page.waitForURL(`**/makers/${MAKER_A}`);
    const offer = offerByLabel(seeded, "jup-filled");
    await search(offer.pda);
    await s.page.waitForURL(`**/offers/${offer.pda}`);
    await search("NOSUCHTOKEN");
    await s.page.getByRole("alert").filter({ hasText: "No market matches" }).waitFor();
    await close(s);
  });

  it("wallet: a Wallet Standard wallet connects and reaches its maker page; the adapter loads only then", async () => {
    const s = await open(DESKTOP, "dark", MAKER_B);
    const scripts: string[] = [];
    s.page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    await go(s.page, "/");
    const before = scripts.length;
    await s.page.getByRole("button", { name: "Connect wallet" }).click();
    await s.page.getByRole("menuitem", { name: TEST_WALLET_NAME }).click();
    await s.page.getByTestId("my-offers").waitFor();
    expect(scripts.length, "the wallet adapter arrives as chunks loaded on demand").toBeGreaterThan(before);
    await shoot(s.page, "wallet-connected-desktop-dark");
    await s.page.getByTestId("my-offers").click();
    await s.page.waitForURL(`**/makers/${MAKER_B}`);
    const stats = (await server.json(`/v1/makers/${MAKER_B}/stats`)).body;
    expect(await text(s.page, "[data-testid=maker-total] dd")).toBe(String(stats.totalOffers));
    await close(s);
  });

  it("screenshots of every page, desktop and phone, dark and light, without console errors", async () => {
    const pages: [string, string][] = [
      ["/", "markets"],
      [`/book/${JUP}/${USDC}`, "book"],
      [`/book/${BONK}/${USDC}`, "book-bonk"],
      [`/offers/${offerByLabel(seeded, "jup-ask-1").pda}`, "offer"],
      [`/offers/${offerByLabel(seeded, "mystery-ask").pda}`, "offer-unknown-decimals"],
      [`/offers/${addressOf("never-an-offer")}`, "offer-not-found"],
      ["/fills", "fills"],
      [`/makers/${MAKER_A}`, "maker"],
      ["/trending", "trending"],
    ];
    await shootAllLooks(pages);
  }, 400_000); // a bound for a hung run: 36 cold page loads, each waiting for the network to go idle, took over 150 s on a loaded machine
});
