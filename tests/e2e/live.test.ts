import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LedgerTransaction, LocalCluster } from "../../local/cluster";
import type { TestDatabase } from "../helpers/database";
import type { WebServer } from "../helpers/server";
import { scannedCount, waitFor, type WorkerProcess } from "../helpers/worker";
import { axeViolations } from "./axe";
import { isolate, openPage, showLiveRow, watchConsole } from "./browser";
import { startIndexedStack, type IndexedStack } from "./indexed-stack";
import { injectStandardWallet, TEST_WALLET_NAME } from "./wallet";

// The explorer live: takes executed on the local cluster, indexed by the
// worker, pushed through /v1/stream into pages already open in Debian's
// Chromium, with no reload and no polling while the stream is live.

let stack: IndexedStack;
let browser: Browser;
let cluster: LocalCluster;
let database: TestDatabase;
let worker: WorkerProcess;
let server: WebServer;

beforeAll(async () => {
  stack = await startIndexedStack("e2e-live", 400);
  ({ browser, cluster, database, worker, server } = stack);
}, 240_000);

afterAll(() => stack?.stop());

type Take = Extract<LedgerTransaction["result"]["effects"][number], { kind: "take" }>;
const takesOf = (tx: LedgerTransaction): Take[] => (tx.result.err ? [] : tx.result.effects.filter((e): e is Take => e.kind === "take"));

/** Appends single takes until one takes an offer that `wanted` accepts (the simulator picks offers itself). */
function takeUntil(wanted: (take: Take) => boolean): { tx: LedgerTransaction; take: Take } {
  for (let i = 0; i < 400; i++) {
    for (const tx of cluster.append("take", 1)) {
      const take = takesOf(tx).find(wanted);
      if (take) return { tx, take };
    }
  }
  throw new Error("no take of a wanted offer in 400 tries");
}

async function waitLive(page: Page): Promise<void> {
  await page.locator('[data-testid=live-indicator][data-state="live"]').waitFor({ timeout: 60_000 });
}

/** Requests a page makes to /v1 other than the stream and token metadata: polling would show here. */
function watchApiCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/v1/") && url.pathname !== "/v1/stream" && !url.pathname.startsWith("/v1/tokens")) calls.push(url.pathname + url.search);
  });
  return calls;
}

describe("live pages on the indexed local cluster", { timeout: 120_000 }, () => {
  it("a take executed on the local cluster appears on the open book and fills pages without a reload or a poll, and the indicator says live", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1400 } });
    const external = await isolate(context, server.baseUrl);
    const market = (await server.json("/v1/markets")).body.markets.find((m: { openAsks: number; openBids: number }) => m.openAsks + m.openBids > 3);
    const book = await context.newPage();
    const fills = await context.newPage();
    const errors = [...[book, fills].map(watchConsole)];
    await openPage(book, `${server.baseUrl}/book/${market.tokenMint}/${market.paymentMint}`);
    await openPage(fills, `${server.baseUrl}/fills`);
    await Promise.all([waitLive(book), waitLive(fills)]);
    // Marks that a reload would wipe.
    for (const page of [book, fills]) await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    // The stream resumes after the feed id the page was rendered at: nothing is fetched again, and nothing polls.
    // A grace period, not a wait for something to happen: what follows checks an absence (no fetch, no poll),
    // so the requests of the page's start are let settle before watching.
    await book.waitForTimeout(2_500);
    const chart = book.getByTestId("candle-chart");
    await chart.waitFor({ timeout: 60_000 });
    const chartBefore = await chart.getAttribute("data-last");
    const bookCalls = watchApiCalls(book);
    const fillsCalls = watchApiCalls(fills);

    const { tx, take } = takeUntil((t) => t.account.tokenMint === market.tokenMint && t.account.paymentMint === market.paymentMint);
    const row = `[data-fill^="${tx.signature}/"]`;
    await showLiveRow(book, row);
    // The fills page's table is on screen: the new fills wait behind the pill, counted, and none enters the table by itself.
    const pill = fills.getByTestId("new-rows-pill");
    const shownKeys = () => fills.locator("[data-testid=fills-table] [data-fill]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-fill")));
    const before = await shownKeys();
    expect(before.length).toBeGreaterThan(0);
    await expect
      .poll(
        async () => {
          const listed: string[] = (await server.json("/v1/fills?limit=200")).body.fills.map((f: { signature: string; ixIndex: number | null }) => `${f.signature}/${f.ixIndex ?? 0}`);
          // The fills newer than the table's first row, as the API lists them.
          const waiting = listed.slice(0, listed.indexOf(before[0]!));
          const count = (await pill.count()) ? Number(await pill.getAttribute("data-count")) : 0;
          return { takeListed: waiting.some((k) => k.startsWith(`${tx.signature}/`)), pillCountsTheWaiting: count === waiting.length };
        },
        { timeout: 60_000 },
      )
      .toEqual({ takeListed: true, pillCountsTheWaiting: true });
    expect(await fills.locator(row).count(), "a held fill is not in the table").toBe(0);
    expect(await shownKeys(), "the rows on screen did not move").toEqual(before);
    expect(await pill.locator("xpath=..").getAttribute("aria-live")).toBe("polite");
    expect(await axeViolations(fills), "axe, with the pill showing").toEqual([]);
    const held = Number(await pill.getAttribute("data-count"));
    // From the keyboard: the pill is a named button; the reader goes on at the list's top.
    await fills.getByRole("button", { name: `Show ${held} new fill${held === 1 ? "" : "s"}` }).press("Enter");
    await fills.locator(row).first().waitFor({ timeout: 60_000 });
    expect(await fills.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe("new-rows-anchor");
    expect(await fills.locator(row).first().getAttribute("class")).toContain("row-arrive");
    expect((await shownKeys()).length, "the held fills shown, each once").toBe(before.length + held);
    expect(await pill.count(), "the pill goes with the click").toBe(0);

    // The book's depth moved with the take: the offer shows what the API now says remains, or left the book.
    const after = (await server.json(`/v1/offers/${take.offer}`)).body;
    const depth = book.locator(`[data-offer="${take.offer}"]`);
    if (after.status === "open") {
      await expect.poll(() => depth.locator("[data-col=remaining] [data-raw]").first().getAttribute("data-raw"), { timeout: 60_000 }).toBe(after.remainingSize);
    } else {
      await expect.poll(() => depth.count(), { timeout: 60_000 }).toBe(0);
    }

    for (const page of [book, fills]) {
      expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
      expect(await page.getByTestId("live-indicator").getAttribute("data-state")).toBe("live");
    }
    // The price chart moves with the take from the stream's candle event: its newest candle changed, nothing was fetched.
    await expect.poll(() => chart.getAttribute("data-last"), { timeout: 60_000 }).not.toBe(chartBefore);
    expect(bookCalls, "the book page fetched or polled while live").toEqual([]);
    expect(fillsCalls.filter((c) => c.startsWith("/v1/fills")), "the fills page polled while live").toEqual([]);
    await context.close();
    expect(errors.flat(), "console errors").toEqual([]);
    expect(external, "requests that left localhost").toEqual([]);
  });

  it("an offer page shows its take as it happens: the fill in its history and the new remaining size", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1400 } });
    await isolate(context, server.baseUrl);
    const page = await context.newPage();
    const errors = watchConsole(page);
    // Hold the worker so the page is open before the take is indexed; the take is picked first.
    worker.kill("SIGSTOP");
    try {
      const { tx, take } = takeUntil(() => true);
      await openPage(page, `${server.baseUrl}/offers/${take.offer}`);
      await waitLive(page);
      expect(await page.locator(`[data-fill^="${tx.signature}/"]`).count()).toBe(0);
      worker.kill("SIGCONT");
      await showLiveRow(page, `[data-fill^="${tx.signature}/"]`);
      const after = (await server.json(`/v1/offers/${take.offer}`)).body;
      await expect.poll(() => page.locator("[data-testid=offer-remaining] [data-raw]").first().getAttribute("data-raw"), { timeout: 60_000 }).toBe(after.remainingSize);
      await expect.poll(() => page.locator("[data-status]").first().getAttribute("data-status"), { timeout: 60_000 }).toBe(after.status);
    } finally {
      worker.kill("SIGCONT");
    }
    await context.close();
    expect(errors, "console errors").toEqual([]);
  });

  it("a hidden tab pauses its stream, and when shown again resumes after the last id: a take made meanwhile appears", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1400 } });
    await isolate(context, server.baseUrl);
    const market = (await server.json("/v1/markets")).body.markets.find((m: { openAsks: number; openBids: number }) => m.openAsks + m.openBids > 3);
    const page = await context.newPage();
    const errors = watchConsole(page);
    const streams: string[] = [];
    page.on("request", (r) => void (r.url().includes("/v1/stream") && streams.push(r.url())));
    await openPage(page, `${server.baseUrl}/book/${market.tokenMint}/${market.paymentMint}`);
    await waitLive(page);
    // The page's visibility as the browser reports it; the event does not bubble to window, so React Query's
    // refetch-on-focus stays out of it and only the stream can bring the take.
    const setHidden = (hidden: boolean) =>
      page.evaluate((h) => {
        Object.defineProperty(document, "hidden", { value: h, configurable: true });
        document.dispatchEvent(new Event("visibilitychange"));
      }, hidden);
    await setHidden(true);
    await page.locator('[data-testid=live-indicator][data-state="paused"]').waitFor({ timeout: 60_000 });
    const opened = streams.length;
    const { tx } = takeUntil((t) => t.account.tokenMint === market.tokenMint && t.account.paymentMint === market.paymentMint);
    await waitFor(async () => (await server.json(`/v1/fills?tokenMint=${market.tokenMint}&limit=1`)).body.fills.some((f: { signature: string }) => f.signature === tx.signature) || (await scannedCount(database.url)) === cluster.ledger.transactions.length, 60_000, () => "the take was not indexed");
    await page.waitForTimeout(500); // a grace period for an absence: a stream still open would deliver the indexed take now
    expect(await page.locator(`[data-fill^="${tx.signature}/"]`).count(), "nothing arrives while paused").toBe(0);
    expect(streams.length, "no stream opened while hidden").toBe(opened);
    await setHidden(false);
    await waitLive(page);
    expect(streams.at(-1), "the stream reopens after an id").toMatch(/[?&]after=\d+/);
    await showLiveRow(page, `[data-fill^="${tx.signature}/"]`);
    await context.close();
    expect(errors, "console errors").toEqual([]);
  });

  it("a connected wallet is told, in the page, when its own offer is filled; the notice can be dismissed", async () => {
    worker.kill("SIGSTOP");
    try {
      const { take } = takeUntil(() => true);
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await isolate(context, server.baseUrl);
      await injectStandardWallet(context, take.account.maker);
      const page = await context.newPage();
      const errors = watchConsole(page);
      await openPage(page, `${server.baseUrl}/`);
      // The wallet's own stream (maker = the wallet) is open before the take is indexed.
      const walletStream = page.waitForResponse((r) => r.url().includes("/v1/stream") && r.url().includes(`maker=${take.account.maker}`), { timeout: 60_000 });
      const walletOffers = page.waitForResponse((r) => r.url().includes(`/v1/makers/${take.account.maker}/offers`), { timeout: 60_000 });
      await page.getByRole("button", { name: "Connect wallet" }).click();
      await page.getByRole("menuitem", { name: TEST_WALLET_NAME }).click();
      await page.getByTestId("alerts-toggle").waitFor();
      expect((await walletStream).status()).toBe(200);
      // And it knows the wallet's open offers as they were (/v1/makers/:maker/offers answered).
      expect((await walletOffers).status()).toBe(200);
      worker.kill("SIGCONT");
      const notice = page.locator(`[data-testid=offer-notice][data-offer="${take.offer}"]`);
      await notice.waitFor({ timeout: 60_000 });
      const after = (await server.json(`/v1/offers/${take.offer}`)).body;
      expect(await notice.getAttribute("data-kind")).toBe(after.status === "filled" ? "filled" : "partly-filled");
      expect(await notice.getAttribute("role")).toBe("status");
      await notice.getByRole("button", { name: "Dismiss notice" }).click();
      await expect.poll(() => notice.count()).toBe(0);
      await context.close();
      expect(errors, "console errors").toEqual([]);
    } finally {
      worker.kill("SIGCONT");
    }
  });
});
