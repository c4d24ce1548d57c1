import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { humanPrice } from "../../lib/program/units";
import { LOCAL_PAYMENT_MINTS, LOCAL_TOKEN_MINTS } from "../../local/cluster/index";
import type { TokenStandin } from "../../local/tokens";
import type { WebServer } from "../helpers/server";
import { isolate, watchConsole, watchRequests } from "./browser";
import { startIndexedStack, type IndexedStack } from "./indexed-stack";

// The explorer on what `npm start` runs: the local cluster's ledger indexed by
// the worker, the token stand-in knowing the cluster's mints, `next start`.
// Pages are checked against the /v1 API they render from.

let stack: IndexedStack;
let browser: Browser;
let standin: TokenStandin;
let server: WebServer;

beforeAll(async () => {
  stack = await startIndexedStack("e2e-indexed", 800);
  ({ browser, standin, server } = stack);
}, 240_000);

afterAll(() => stack?.stop());

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

  it("no page logs a console error or a failed request; token icons are served by the stand-in and load", async () => {
    // Tall enough that every lazy image of a page is in view and loads.
    const context = await browser.newContext({ viewport: { width: 1440, height: 4000 } });
    const external = await isolate(context, server.baseUrl);
    const page = await context.newPage();
    const errors = watchConsole(page);
    const failed = watchRequests(page);

    const top = (await server.json("/v1/markets")).body.markets.find((m: { bestAsk: unknown }) => m.bestAsk)!;
    const ask = (await server.json(`/v1/offers?sort=price&side=sell&tokenMint=${top.tokenMint}&paymentMint=${top.paymentMint}&limit=1`)).body.offers[0];
    const pages = ["/", `/book/${top.tokenMint}/${top.paymentMint}`, `/offers/${ask.pda}`, "/fills", `/makers/${ask.maker}`, "/trending"];
    const loadedIcons = new Set<string>();
    for (const pathAndQuery of pages) {
      await page.goto(`${server.baseUrl}${pathAndQuery}`, { waitUntil: "networkidle" });
      const images = await page.locator("img").evaluateAll((imgs) =>
        (imgs as HTMLImageElement[]).map((i) => ({ src: i.currentSrc || i.src, broken: i.complete && i.naturalWidth === 0 })),
      );
      expect(images.filter((i) => i.broken), `broken images on ${pathAndQuery}`).toEqual([]);
      for (const image of images) if (image.src.startsWith(`${standin.url}/icons/`)) loadedIcons.add(image.src);
    }
    // The favicon is the app's own (no /favicon.ico 404), and it is there.
    const icons = await page.locator('link[rel="icon"]').evaluateAll((links) => links.map((l) => l.getAttribute("href")));
    expect(icons.some((href) => href?.startsWith("/icon.svg"))).toBe(true);
    // And for clients that ask for /favicon.ico regardless of the page's links.
    const favicon = await server.get("/favicon.ico");
    expect(favicon.status).toBe(200);
    expect(Buffer.from(await favicon.arrayBuffer()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
    await context.close();

    expect(errors, "console errors").toEqual([]);
    expect(failed, "failed requests").toEqual([]);
    expect(external, "requests that left this machine").toEqual([]);
    expect(loadedIcons.size, "token icons served by the stand-in").toBeGreaterThan(3);
  });

  it("an icon that fails to load is replaced by the placeholder, once, without a retry loop", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 4000 } });
    await isolate(context, server.baseUrl);
    const tries = new Map<string, number>();
    let placeholderLoads = 0;
    // The icon host is down.
    await context.route(`${standin.url}/icons/**`, (route) => {
      tries.set(route.request().url(), (tries.get(route.request().url()) ?? 0) + 1);
      return route.abort("connectionrefused");
    });
    const page = await context.newPage();
    page.on("request", (r) => void (r.url().endsWith("/token-placeholder.svg") && placeholderLoads++));
    await page.goto(`${server.baseUrl}/trending`, { waitUntil: "networkidle" });
    // Every icon tried, refused and replaced by the placeholder, loaded (a page stuck retrying fails by the deadline).
    await page
      .waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>("[data-mint] img")].every((i) => i.complete && i.naturalWidth > 0), null, { timeout: 60_000 })
      .catch(() => {}); // the assertions below say what each image ended as

    const images = await page.locator("[data-mint] img").evaluateAll((imgs) =>
      (imgs as HTMLImageElement[]).map((i) => ({ src: i.getAttribute("src"), loaded: i.complete && i.naturalWidth > 0 })),
    );
    expect(images.length).toBeGreaterThan(3);
    expect(images.every((i) => i.src === "/token-placeholder.svg" && i.loaded), JSON.stringify(images)).toBe(true);
    expect(tries.size).toBeGreaterThan(3);
    expect([...tries.values()].every((n) => n === 1), "each icon tried once").toBe(true);
    expect(placeholderLoads).toBeLessThanOrEqual(2); // cached after the first; a loop would ask again and again
    await context.close();
  });

  it("warns on the book of the cluster's risky mint (its freeze authority and permanent delegate), not on one whose supply can merely grow", async () => {
    const risky = LOCAL_TOKEN_MINTS.find((m) => m.risky)!;
    const plain = LOCAL_TOKEN_MINTS.find((m) => m.symbol === "JUP")!;
    const usdc = LOCAL_PAYMENT_MINTS.find((m) => m.symbol === "USDC")!.address;
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await isolate(context, server.baseUrl);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/book/${risky.address}/${usdc}`, { waitUntil: "networkidle" });
    const note = page.getByTestId("mint-risk");
    await note.waitFor();
    expect(await note.getAttribute("data-risks")).toBe("mint_authority freeze_authority permanent_delegate");
    expect(await note.textContent()).toContain("a permanent delegate can move or burn anyone's tokens");
    expect(await note.getAttribute("role")).toBe("note");

    await page.goto(`${server.baseUrl}/book/${plain.address}/${usdc}`, { waitUntil: "networkidle" });
    await page.getByTestId("best-ask").waitFor();
    expect((await server.json(`/v1/tokens?mints=${plain.address}`)).body.tokens[0].safety.risks).toEqual(["mint_authority"]);
    expect(await page.getByTestId("mint-risk").count()).toBe(0);
    await context.close();
  });
});
