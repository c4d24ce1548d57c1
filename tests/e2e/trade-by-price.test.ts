import type { Connection } from "@solana/web3.js";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fillForPayment } from "../../lib/program/price-entry";
import { shortAddress } from "../../client/format";
import type { Offer } from "../../client/types";
import { axeViolations, sidewaysOverflow } from "./axe";
import { DESKTOP, PHONE } from "./browser";
import { startIndexedStack, type IndexedStack } from "./indexed-stack";
import { connectionTo, tokenBalance } from "./trade-chain";
import { connectTestWallet, usdcBookToken, indexedOffer as waitForOffer, type TradedToken, type Trader, UNIT, USDC } from "./traders";

// Trading as a trader types it, in Debian's Chromium against the indexed
// local cluster: a maker on a desktop (1440x900) creates by price ("3 for 10
// USDC", which has no exact price, gets the nearest one), a taker on a phone
// (390x844) takes by the USDC it wants to pay; both see their SPL balances
// in the wallet menu and the forms, updated after the trade, and both find
// the trade in their portfolio, as maker and as taker. Focus stays in the
// dialogs; the portfolio passes axe at both widths.

let stack: IndexedStack;
let connection: Connection;
let token: TradedToken;
let maker: Trader;
let taker: Trader;
let offerPda: string;
let fill: bigint;

const indexedOffer = (pda: string, check: (o: Offer) => boolean) => waitForOffer(stack, pda, check);

/** The wallet menu's balance of `mint` (raw), once it equals `expected`. */
async function menuBalanceBecomes(trader: Trader, mint: string, expected: bigint): Promise<void> {
  const page = trader.page;
  await page.getByRole("button", { name: shortAddress(trader.address) }).click();
  const cell = page.locator(`[data-testid=wallet-token-balance][data-mint="${mint}"]`);
  await expect.poll(() => cell.getAttribute("data-raw"), { timeout: 30_000 }).toBe(expected.toString());
  await page.keyboard.press("Escape");
}

/** Focus is in the open dialog and stays there while tabbing. */
async function focusStaysInDialog(page: Page): Promise<void> {
  await page.waitForFunction(() => document.activeElement?.closest("[data-testid=trade-dialog]") !== null);
  for (let i = 0; i < 15; i++) {
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest("[data-testid=trade-dialog]") !== null), `focus after ${i + 1} tabs`).toBe(true);
  }
}

beforeAll(async () => {
  stack = await startIndexedStack("e2e-trade-by-price", 120);
  connection = connectionTo(stack.cluster);
  token = await usdcBookToken(stack);
  maker = await connectTestWallet(stack, token, DESKTOP);
  taker = await connectTestWallet(stack, token, PHONE);
}, 240_000);

afterAll(() => stack?.stop());

describe("trading by price, with balances and a portfolio", { timeout: 120_000 }, () => {
  it("creates by price on a desktop: '3 for 10 USDC' gets the nearest exact price, shown and used; the balance is shown and updated", async () => {
    const page = maker.page;
    const before = await tokenBalance(connection, maker.address, token.address);
    await page.goto(`${stack.server.baseUrl}/book/${token.address}/${USDC}`, { waitUntil: "networkidle" });
    await menuBalanceBecomes(maker, token.address, before);

    await page.getByTestId("new-offer-button").click();
    await focusStaysInDialog(page);
    const form = page.getByTestId("create-form");
    await form.getByTestId("create-side").getByText("Sell (ask)").click();
    await expect.poll(() => form.getByTestId("form-balance").getAttribute("data-raw"), { timeout: 30_000 }).toBe(before.toString());

    // Validation as typed: Review stays disabled, with the reason, until the offer is valid.
    await form.getByTestId("create-size").fill("3");
    await form.getByTestId("create-price-input").fill("abc");
    expect(await form.getByTestId("create-invalid").getAttribute("data-field")).toBe("price");
    expect(await form.getByTestId("create-review").isDisabled()).toBe(true);
    await form.getByTestId("create-size").fill("5000");
    await form.getByTestId("create-price-input").fill("1");
    expect(await form.getByTestId("create-invalid").textContent()).toMatch(/Not enough/);
    expect(await form.getByTestId("create-review").isDisabled()).toBe(true);

    // 10/3 has no exact decimal: 3.333333 is the nearest price at which 3 tokens total a whole number of USDC units.
    await form.getByTestId("create-size").fill("3");
    await form.getByTestId("create-price-input").fill("3.3333333333");
    const exact = form.getByTestId("create-exact-price");
    expect(await exact.getAttribute("data-adjusted")).toBe("true");
    expect(await exact.getAttribute("data-price")).toBe("3.333333");
    expect(await form.getByTestId("create-line-total").getAttribute("data-raw")).toBe("9999999");
    await form.getByTestId("create-vs-best").waitFor();
    expect(await form.getByTestId("create-vs-best").textContent()).toMatch(/vs best (ask|bid)|No open offers/);
    expect(await form.getByTestId("create-review").isDisabled()).toBe(false);

    await form.getByTestId("create-review").click();
    const address = await form.getByTestId("create-offer-address").textContent({ timeout: 60_000 });
    offerPda = /Offer ([1-9A-HJ-NP-Za-km-z]{32,44})/.exec(address ?? "")![1]!;
    await form.getByTestId("confirm-button").click();
    await form.getByTestId("tx-result").waitFor({ timeout: 60_000 });
    expect(await form.getByTestId("tx-result").getAttribute("data-status")).toBe("confirmed");
    const link = (await form.getByTestId("tx-link").first().getAttribute("href"))!;
    expect(link).toMatch(/^https:\/\/explorer\.solana\.com\/tx\/[1-9A-HJ-NP-Za-km-z]+\?cluster=custom&customUrl=/);
    expect(await form.getByTestId("new-offer-link").getAttribute("href")).toBe(`/offers/${offerPda}`);
    // The signature is shortened: nothing in the dialog is wider than the dialog.
    const dialog = (await page.getByTestId("trade-dialog").boundingBox())!;
    const shown = (await form.getByTestId("tx-link").first().boundingBox())!;
    expect(shown.x + shown.width).toBeLessThanOrEqual(dialog.x + dialog.width);

    const offer = await indexedOffer(offerPda, (o) => o.status === "open");
    expect(offer).toMatchObject({ side: "sell", originalSize: "3000000", pricePerToken: "3333333", priceScale: 6 });
    await form.getByTestId("action-dismiss").click();
    await menuBalanceBecomes(maker, token.address, before - 3n * UNIT);
  });

  it("takes by payment amount on a phone: the price shown, Review disabled above the remainder, the fill the amount buys; balances updated", async () => {
    const page = taker.page;
    const [usdcBefore, tokensBefore] = await Promise.all([tokenBalance(connection, taker.address, USDC), tokenBalance(connection, taker.address, token.address)]);
    await page.goto(`${stack.server.baseUrl}/offers/${offerPda}`, { waitUntil: "networkidle" });
    await page.getByTestId("take-button").first().click();
    await focusStaysInDialog(page);
    const form = page.getByTestId("take-form");
    expect(await form.getByTestId("take-price").textContent()).toContain("3.333333");

    await form.getByTestId("take-mode").getByText(/to pay/).click();
    await form.getByTestId("take-payment").fill("100");
    expect(await form.getByTestId("take-invalid").textContent()).toMatch(/remainder/);
    expect(await form.getByTestId("take-review").isDisabled()).toBe(true);

    await form.getByTestId("take-payment").fill("5");
    fill = fillForPayment({ pricePerToken: 3_333_333n, priceScale: 6, remaining: 3n * UNIT }, 5n * UNIT, "gross");
    expect(await form.getByTestId("take-fill-from-payment").getAttribute("data-raw")).toBe(fill.toString());
    expect(BigInt((await form.getByTestId("take-pays").getAttribute("data-raw"))!)).toBeLessThanOrEqual(5n * UNIT);
    const box = (await page.getByTestId("trade-dialog").boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    expect(await sidewaysOverflow(page)).toBe(0);

    await form.getByTestId("take-review").click();
    await form.getByTestId("confirm-button").click({ timeout: 60_000 });
    await form.getByTestId("tx-result").waitFor({ timeout: 60_000 });
    expect(await form.getByTestId("tx-result").getAttribute("data-status")).toBe("confirmed");
    await indexedOffer(offerPda, (o) => o.remainingSize === (3n * UNIT - fill).toString());
    expect(await tokenBalance(connection, taker.address, token.address)).toBe(tokensBefore + fill);
    const paid = usdcBefore - (await tokenBalance(connection, taker.address, USDC));
    expect(paid).toBeLessThanOrEqual(5n * UNIT);
    await form.getByTestId("action-dismiss").click();
    await menuBalanceBecomes(taker, token.address, tokensBefore + fill);
  });

  for (const role of ["maker", "taker"] as const) {
    it(`the portfolio lists the ${role}'s trade and offers, All by default, axe-clean with nothing sideways`, async () => {
      const trader = role === "maker" ? maker : taker;
      const page = trader.page;
      await page.goto(`${stack.server.baseUrl}/portfolio`, { waitUntil: "networkidle" });
      await page.locator(`[data-testid=portfolio][data-wallet="${trader.address}"]`).waitFor({ timeout: 60_000 });
      expect(await page.getByTestId("portfolio-filter").getAttribute("data-value")).toBe("all");
      await page.locator(`[data-testid=portfolio-trade][data-role=${role}][data-offer="${offerPda}"]`).waitFor({ timeout: 30_000 });
      const direction = await page.locator(`[data-testid=portfolio-trade][data-offer="${offerPda}"]`).getAttribute("data-direction");
      expect(direction).toBe(role === "maker" ? "sell" : "buy");
      await page.locator(`[data-testid=portfolio-summary-row][data-token="${token.address}"][data-direction=${direction}]`).waitFor();
      if (role === "maker") await page.locator(`[data-testid=portfolio-open-offers] [data-offer="${offerPda}"]`).waitFor();
      expect(await sidewaysOverflow(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      // The other role's filter leaves this trade out.
      await page.getByTestId(`portfolio-filter-${role === "maker" ? "taker" : "maker"}`).click();
      await expect.poll(() => page.locator(`[data-testid=portfolio-trade][data-offer="${offerPda}"]`).count(), { timeout: 30_000 }).toBe(0);
      expect(trader.consoleErrors).toEqual([]);
    });
  }
});
