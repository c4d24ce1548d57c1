import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTokenStandin, type TokenStandin } from "../../local/tokens";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { USDC } from "../helpers/fixtures";
import { startWebServer, type WebServer } from "../helpers/server";
import { DESKTOP, PHONE, isolate, launchChromium } from "./browser";
import { JUP, MAKER_A, offerByLabel, seedExplorer, type Seeded } from "./seed";

// The layout at both widths: no page wider than the viewport, the book's
// candles with a timeframe switch, the phone's sticky Buy/Sell, and the
// header search's suggestions (a combobox).

let database: TestDatabase;
let standin: TokenStandin;
let server: WebServer;
let browser: Browser;
let seeded: Seeded;

beforeAll(async () => {
  browser = await launchChromium();
  database = await createTestDatabase();
  seeded = await seedExplorer(database.db.$client);
  standin = await startTokenStandin({ limit: 100_000 });
  server = await startWebServer({ DATABASE_URL: database.url, TOKEN_API_URL: standin.url, LOCAL_DEMO_CLUSTER: "true", RATE_LIMIT_RPM: "0" });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await standin?.stop();
  await database?.drop();
});

async function open(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  await isolate(context, server.baseUrl);
  return { context, page: await context.newPage() };
}

const pages = () => [
  ["markets", "/"],
  ["book", `/book/${JUP}/${USDC}`],
  ["offer", `/offers/${offerByLabel(seeded, "jup-ask-1").pda}`],
  ["fills", "/fills"],
  ["maker", `/makers/${MAKER_A}`],
  ["trending", "/trending"],
];

describe.each([
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const)("at %s width", (_name, viewport) => {
  it("no page scrolls sideways", async () => {
    const { context, page } = await open(viewport);
    try {
      for (const [name, path] of pages()) {
        await page.goto(`${server.baseUrl}${path}`);
        await page.locator("main h1, main h2").first().waitFor();
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect({ page: name, width }).toEqual({ page: name, width: viewport.width });
      }
    } finally {
      await context.close();
    }
  });

  it("the book draws candles and switches timeframe", async () => {
    const { context, page } = await open(viewport);
    try {
      await page.goto(`${server.baseUrl}/book/${JUP}/${USDC}`);
      await page.locator("[data-testid=candle-chart] canvas").first().waitFor();
      const drawn = Number(await page.getByTestId("candle-chart").getAttribute("data-candles"));
      expect(drawn).toBeGreaterThan(0);
      await page.locator('button[data-timeframe="1d"]').click();
      await page.waitForSelector("[data-testid=price-panel][data-timeframe='1d'] [data-testid=candle-chart]");
      expect(await page.locator('button[data-timeframe="1d"]').getAttribute("aria-pressed")).toBe("true");
      // A day's bucket holds every seeded fill of the pair that a shorter one splits.
      expect(Number(await page.getByTestId("candle-chart").getAttribute("data-candles"))).toBeLessThanOrEqual(drawn);
      await page.getByTestId("side-rule").waitFor();
    } finally {
      await context.close();
    }
  });

  it("the header search suggests pairs as one types", async () => {
    const { context, page } = await open(viewport);
    try {
      await page.goto(`${server.baseUrl}/fills`);
      const box = page.getByRole("combobox", { name: /search/i });
      await box.fill("jup");
      const option = page.getByRole("option").first();
      await option.waitFor();
      expect(await option.textContent()).toContain("JUP /");
      expect(await box.getAttribute("aria-expanded")).toBe("true");
      await box.press("ArrowDown");
      expect(await box.getAttribute("aria-activedescendant")).toBeTruthy();
      await box.press("Enter");
      await page.waitForURL(`**/book/${JUP}/**`);
    } finally {
      await context.close();
    }
  });
});

describe("on a phone", () => {
  it("keeps Buy/Sell on screen on the book and offer pages, and shows markets and fills as cards", async () => {
    const { context, page } = await open(PHONE);
    try {
      for (const path of [`/book/${JUP}/${USDC}`, `/offers/${offerByLabel(seeded, "jup-ask-1").pda}`]) {
        await page.goto(`${server.baseUrl}${path}`);
        const bar = page.getByTestId("sticky-trade-bar");
        await bar.locator("button").first().waitFor();
        await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
        const box = await bar.boundingBox();
        expect(box && box.y + box.height).toBeLessThanOrEqual(PHONE.height + 1);
        expect(await bar.locator("button", { hasText: /Buy|Sell/ }).count()).toBeGreaterThan(0);
      }
      await page.goto(`${server.baseUrl}/`);
      await page.getByTestId("market-cards").waitFor();
      expect(await page.getByTestId("markets-table").isVisible()).toBe(false);
      await page.goto(`${server.baseUrl}/fills`);
      await page.getByTestId("fill-cards").waitFor();
      expect(await page.locator("#fill-filters").isVisible()).toBe(false);
      await page.getByTestId("filters-toggle").click();
      expect(await page.locator("#fill-filters").isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
