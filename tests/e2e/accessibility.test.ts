import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTokenStandin, type TokenStandin } from "../../local/tokens";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { USDC } from "../helpers/fixtures";
import { startWebServer, type WebServer } from "../helpers/server";
import { startTestRpc, type TestRpc } from "../integration/tokens/helpers/rpc-server";
import { axeViolations, overflowingElements, sidewaysOverflow } from "./axe";
import { DESKTOP, PHONE, isolate, launchChromium } from "./browser";
import { JUP, MAKER_A, MAKER_B, offerByLabel, seedExplorer, type Seeded } from "./seed";
import { injectStandardWallet, TEST_WALLET_NAME } from "./wallet";

// Every page of the explorer (and /docs) against axe-core's WCAG 2 A/AA rules,
// at desktop and phone widths, in both themes; no page wider than the phone;
// focus moved into a dialog and kept there.

let database: TestDatabase;
let standin: TokenStandin;
let rpc: TestRpc;
let server: WebServer;
let browser: Browser;
let seeded: Seeded;

beforeAll(async () => {
  browser = await launchChromium();
  database = await createTestDatabase();
  seeded = await seedExplorer(database.db.$client);
  standin = await startTokenStandin({ limit: 100_000 });
  rpc = await startTestRpc();
  server = await startWebServer({ DATABASE_URL: database.url, TOKEN_API_URL: standin.url, LOCAL_DEMO_CLUSTER: "true", SOLANA_RPC_URL: rpc.url, RATE_LIMIT_RPM: "0" });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await standin?.stop();
  await rpc?.stop();
  await database?.drop();
});

async function open(viewport: typeof DESKTOP, colorScheme: "dark" | "light", walletAddress?: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, colorScheme });
  await isolate(context, server.baseUrl);
  if (walletAddress) await injectStandardWallet(context, walletAddress);
  return { context, page: await context.newPage() };
}

const pages = () => [
  "/",
  `/book/${JUP}/${USDC}`,
  `/offers/${offerByLabel(seeded, "jup-ask-1").pda}`,
  "/fills",
  `/makers/${MAKER_A}`,
  "/trending",
];

describe("accessibility and layout in Chromium", { timeout: 180_000 }, () => {
  for (const [size, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    for (const scheme of ["dark", "light"] as const) {
      it(`axe finds no WCAG 2 A/AA violation and nothing scrolls sideways (${size}, ${scheme})`, async () => {
        const { context, page } = await open(viewport, scheme);
        const found: Record<string, unknown> = {};
        const overflow: Record<string, { pixels: number; elements: string[] }> = {};
        for (const path of pages()) {
          await page.goto(server.baseUrl + path, { waitUntil: "networkidle" });
          const violations = await axeViolations(page);
          if (violations.length) found[path] = violations;
          const wider = await sidewaysOverflow(page);
          if (wider) overflow[path] = { pixels: wider, elements: await overflowingElements(page) };
        }
        await context.close();
        expect(found, "axe violations").toEqual({});
        expect(overflow, "pixels wider than the viewport").toEqual({});
      });
    }
  }

  it("/docs: linked from the header, and axe finds no violation", async () => {
    const { context, page } = await open(DESKTOP, "light");
    await page.goto(server.baseUrl + "/", { waitUntil: "networkidle" });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API" }).click();
    await page.waitForURL("**/docs");
    await page.getByText("Protocol totals").first().waitFor({ timeout: 30_000 });
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  for (const [size, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    it(`a dialog takes focus, keeps it while tabbing, fits the viewport and gives it back on Escape (${size})`, async () => {
      const { context, page } = await open(viewport, "dark", MAKER_B);
      await page.goto(`${server.baseUrl}/book/${JUP}/${USDC}`, { waitUntil: "networkidle" });
      await page.getByRole("button", { name: "Connect wallet" }).click();
      await page.getByRole("menuitem", { name: TEST_WALLET_NAME }).click();
      await page.getByTestId("my-offers").waitFor({ state: "attached" }); // shown from the sm breakpoint up
      await page.keyboard.press("Escape");
      const opener = page.getByTestId("new-offer-button").first();
      await opener.click();
      const dialog = page.getByTestId("trade-dialog");
      await dialog.waitFor();
      await page.waitForFunction(() => document.activeElement?.closest("[data-testid=trade-dialog]") !== null);
      for (let i = 0; i < 25; i++) {
        await page.keyboard.press("Tab");
        expect(await page.evaluate(() => document.activeElement?.closest("[data-testid=trade-dialog]") !== null), `focus after ${i + 1} tabs`).toBe(true);
      }
      const box = await dialog.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
      expect(await sidewaysOverflow(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      await page.waitForFunction(() => (document.activeElement as HTMLElement | null)?.dataset.testid === "new-offer-button");
      await context.close();
    });
  }
});
