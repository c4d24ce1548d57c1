import { type Connection, Keypair, PublicKey } from "@solana/web3.js";
import bs58 from "bs58";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPIRY_BOUNTY_LAMPORTS } from "../../lib/program/constants";
import { shortAddress } from "../../client/format";
import type { Offer } from "../../client/types";
import { DESKTOP, isolate, watchConsole } from "./browser";
import { startIndexedStack, type IndexedStack } from "./indexed-stack";
import { advancePast, chainNow, connectionTo, createOfferFromNode, fund, lamports, type OfferTerms, takeOfferFromNode, tokenBalance } from "./trade-chain";
import { connectTestWallet, usdcBookToken, offerOf as readOffer, indexedOffer as waitForOffer, type TradedToken, type Trader, UNIT, USDC } from "./traders";

// Trading from the explorer in Debian's Chromium against the indexed local
// cluster, through both wallet paths: the demo wallet (made in the browser)
// and the injected Wallet Standard test wallet (signing in Node). The whole
// story runs twice with the roles swapped, so each wallet creates, takes,
// closes, cancels, expires, is refused by simulation and runs the maker
// page's bulk actions. Every outcome is read back through /v1 and from the
// cluster's balances, never from the page alone.

let stack: IndexedStack;
let connection: Connection;
let token: TradedToken;
let demo: Trader;
let injected: Trader;

const offerOf = (pda: string) => readOffer(stack, pda);
const indexedOffer = (pda: string, check: (o: Offer) => boolean) => waitForOffer(stack, pda, check);

/** Confirms the action shown in `scope`, waits for the cluster and then the indexer; returns the signature. */
async function confirmAction(scope: Locator | Page): Promise<string> {
  await scope.getByTestId("confirm-button").click();
  const result = scope.getByTestId("tx-result");
  await result.waitFor({ timeout: 60_000 });
  const status = await result.getAttribute("data-status");
  if (status !== "confirmed") throw new Error(`the action ${status}: ${await result.textContent()}`);
  const signature = (await scope.getByTestId("tx-link").first().getAttribute("data-signature"))!;
  await scope.getByTestId("tx-indexed").waitFor({ timeout: 60_000 });
  return signature;
}

async function feeOf(signature: string): Promise<bigint> {
  const tx = await connection.getTransaction(signature, { commitment: "confirmed", maxSupportedTransactionVersion: 0 });
  return BigInt(tx!.meta!.fee);
}

async function openOffer(page: Page, pda: string): Promise<void> {
  await page.goto(`${stack.server.baseUrl}/offers/${pda}`, { waitUntil: "networkidle" });
}

async function connectDemoWallet(): Promise<Trader> {
  const context = await stack.browser.newContext({ viewport: DESKTOP });
  await isolate(context, stack.server.baseUrl);
  const page = await context.newPage();
  const consoleErrors = watchConsole(page);
  await page.goto(`${stack.server.baseUrl}/book/${token.address}/${USDC}`, { waitUntil: "networkidle" });
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await page.getByTestId("create-demo-wallet").click();
  const stored = await page.waitForFunction(() => localStorage.getItem("demoWallet")).then((h) => h.jsonValue() as Promise<string>);
  const keypair = Keypair.fromSecretKey(bs58.decode((JSON.parse(stored) as { secretKey: string }).secretKey));
  const address = keypair.publicKey.toBase58();
  await page.getByRole("button", { name: shortAddress(address) }).waitFor({ timeout: 60_000 });
  // The demo funding gives some of each token; the story needs a known floor of the two it trades.
  await fund(stack.cluster, address, 0, { [USDC]: 1_000n * UNIT, [token.address]: 1_000n * UNIT });
  return { page, address, keypair, consoleErrors };
}

beforeAll(async () => {
  stack = await startIndexedStack("e2e-trading", 200);
  connection = connectionTo(stack.cluster);
  token = await usdcBookToken(stack);
  demo = await connectDemoWallet();
  injected = await connectTestWallet(stack, token, DESKTOP);
}, 240_000);

afterAll(() => stack?.stop());

describe.each([
  { roles: "the demo wallet makes, the test wallet takes", maker: () => demo, taker: () => injected },
  { roles: "the test wallet makes, the demo wallet takes", maker: () => injected, taker: () => demo },
])("trading from the explorer on the local cluster: $roles", { timeout: 120_000 }, ({ maker: makerOf, taker: takerOf }) => {
  let offerPda: string;
  let maker: Trader;
  let taker: Trader;

  beforeAll(() => {
    maker = makerOf();
    taker = takerOf();
  });

  it("the maker creates a sell offer in the UI; it lands on the book and in /v1 with its tokens in escrow", async () => {
    const page = maker.page;
    const tokensBefore = await tokenBalance(connection, maker.address, token.address);
    await page.goto(`${stack.server.baseUrl}/book/${token.address}/${USDC}`, { waitUntil: "networkidle" });
    await page.getByTestId("new-offer-button").click();
    const form = page.getByTestId("create-form");
    await form.getByTestId("create-side").getByText("Sell (ask)").click();
    await form.getByTestId("create-size").fill("10");
    await form.getByTestId("create-price-input").fill("2");
    await form.getByTestId("create-min-fill").fill("4");
    await form.getByTestId("create-expiry").selectOption("1d");
    await form.getByTestId("create-review").click();
    const address = await form.getByTestId("create-offer-address").textContent({ timeout: 60_000 });
    offerPda = /Offer ([1-9A-HJ-NP-Za-km-z]{32,44})/.exec(address ?? "")![1]!;
    await confirmAction(form);

    const offer = await indexedOffer(offerPda, (o) => o.status === "open");
    expect(offer).toMatchObject({ maker: maker.address, side: "sell", tokenMint: token.address, paymentMint: USDC, originalSize: "10000000", remainingSize: "10000000", minFill: "4000000" });
    expect(BigInt(offer.originalSize) * BigInt(offer.pricePerToken) / 10n ** BigInt(offer.priceScale)).toBe(20n * UNIT);
    expect(await tokenBalance(connection, maker.address, token.address)).toBe(tokensBefore - 10n * UNIT);

    // The book shows it (the page refreshes once the indexer has it).
    await page.goto(`${stack.server.baseUrl}/book/${token.address}/${USDC}`, { waitUntil: "networkidle" });
    await page.locator(`[data-testid=asks-table] [data-offer="${offerPda}"]`).waitFor({ timeout: 60_000 });
    // The maker's own offer offers no Take: it is cancelled, not taken.
    expect(await page.locator(`[data-testid="take-button"][data-take-offer="${offerPda}"]`).count()).toBe(0);
    const open = (await stack.server.json(`/v1/offers?maker=${maker.address}&tokenMint=${token.address}&paymentMint=${USDC}`)).body.offers as Offer[];
    expect(open.map((o) => o.pda)).toEqual([offerPda]);
  });

  it("a take below the minimum fill keeps Review disabled with the reason shown, and nothing is sent", async () => {
    const page = taker.page;
    const before = await connection.getSignaturesForAddress(taker.keypair.publicKey, {}, "confirmed");
    const signedBefore = taker.signed?.length;
    await openOffer(page, offerPda);
    await page.getByTestId("take-button").first().click();
    const form = page.getByTestId("take-form");
    await form.getByTestId("take-amount").fill("2");
    expect(await form.getByTestId("take-invalid").textContent()).toMatch(/minimum/i);
    expect(await form.getByTestId("take-review").isDisabled()).toBe(true);
    // Above the remainder: refused as typed too.
    await form.getByTestId("take-amount").fill("11");
    expect(await form.getByTestId("take-invalid").textContent()).toMatch(/remain/i);
    expect(await form.getByTestId("take-review").isDisabled()).toBe(true);
    expect(taker.signed?.length).toBe(signedBefore);
    expect(await connection.getSignaturesForAddress(taker.keypair.publicKey, {}, "confirmed")).toEqual(before);
    expect((await offerOf(offerPda))?.remainingSize).toBe("10000000");
    await page.keyboard.press("Escape");
  });

  it("the taker takes part, leaving less than the minimum, then must and does take the whole remainder (the dust rule)", async () => {
    const page = taker.page;
    const w = taker.address;
    const [usdcBefore, tokensBefore, makerUsdcBefore] = await Promise.all([tokenBalance(connection, w, USDC), tokenBalance(connection, w, token.address), tokenBalance(connection, maker.address, USDC)]);

    await openOffer(page, offerPda);
    await page.getByTestId("take-button").first().click();
    let form = page.getByTestId("take-form");
    await form.getByTestId("take-amount").fill("7");
    await form.getByTestId("take-review").click();
    await confirmAction(form);
    let offer = await indexedOffer(offerPda, (o) => o.remainingSize === "3000000");
    expect(offer.status).toBe("open");
    // 7 tokens at 2 USDC: 14 USDC, 0.2% fee rounded up is 0.028 USDC.
    expect(await tokenBalance(connection, w, token.address)).toBe(tokensBefore + 7n * UNIT);
    expect(await tokenBalance(connection, w, USDC)).toBe(usdcBefore - 14n * UNIT);
    expect(await tokenBalance(connection, maker.address, USDC)).toBe(makerUsdcBefore + 14n * UNIT - 28_000n);

    // 3 left, under the 4 minimum: only all of it may be taken; 2 is refused before anything is signed.
    await openOffer(page, offerPda);
    await page.getByTestId("take-button").first().click();
    form = page.getByTestId("take-form");
    await form.getByTestId("take-amount").fill("2");
    expect(await form.getByTestId("take-invalid").textContent()).toMatch(/remainder/i);
    await form.getByTestId("take-max").click();
    expect(await form.getByTestId("take-amount").inputValue()).toBe("3");
    await form.getByTestId("take-review").click();
    await confirmAction(form);
    offer = await indexedOffer(offerPda, (o) => o.status === "filled");
    expect(offer.remainingSize).toBe("0");
    expect(await tokenBalance(connection, w, token.address)).toBe(tokensBefore + 10n * UNIT);
    expect(await tokenBalance(connection, w, USDC)).toBe(usdcBefore - 20n * UNIT);
    expect(await tokenBalance(connection, maker.address, USDC)).toBe(makerUsdcBefore + 20n * UNIT - 28_000n - 12_000n);
    const fills = (await stack.server.json(`/v1/offers/${offerPda}/fills`)).body.fills as { taker?: string; fillAmount: string }[];
    expect(fills.map((f) => f.fillAmount).sort()).toEqual(["3000000", "7000000"]);
  });

  it("the maker closes the fully filled offer and gets the account's rent back", async () => {
    const page = maker.page;
    const rent = await lamports(connection, offerPda);
    const before = await lamports(connection, maker.address);
    await openOffer(page, offerPda);
    await page.getByTestId("action-close").click();
    const signature = await confirmAction(page.getByTestId("action-close-flow"));
    expect(await connection.getAccountInfo(new PublicKey(offerPda), "confirmed")).toBeNull();
    expect(await lamports(connection, maker.address)).toBe(before + rent - (await feeOf(signature)));
    expect((await offerOf(offerPda))?.status).toBe("filled");
  });

  it("the taker cancels its own open offer and gets its escrow and bounty back", async () => {
    const page = taker.page;
    const w = taker;
    const pda = await createOfferFromNode(stack.cluster, w.keypair, {
      side: "buy",
      tokenMint: token.address,
      paymentMint: USDC,
      size: 5n * UNIT,
      pricePerToken: 3n,
      priceScale: 0,
      minFill: 1n * UNIT,
      expiresAt: (await chainNow(connection)) + 86_400n,
    });
    await indexedOffer(pda, (o) => o.status === "open");
    const usdcBefore = await tokenBalance(connection, w.address, USDC);
    const solBefore = await lamports(connection, w.address);
    const offerLamports = await lamports(connection, pda);
    const escrows = await connection.getTokenAccountsByOwner(new PublicKey(pda), { mint: new PublicKey(USDC) }, "confirmed");
    expect(escrows.value).toHaveLength(1);
    const escrow = escrows.value[0]!;
    await openOffer(page, pda);
    await page.getByTestId("action-cancel").click();
    const signature = await confirmAction(page.getByTestId("action-cancel-flow"));
    expect((await indexedOffer(pda, (o) => o.status === "cancelled")).remainingSize).toBe("5000000");
    expect(await tokenBalance(connection, w.address, USDC)).toBe(usdcBefore + 15n * UNIT);
    // The bounty comes back; the offer account (its rent) stays until closed.
    expect(await lamports(connection, pda)).toBe(offerLamports - EXPIRY_BOUNTY_LAMPORTS);
    // The escrow account's rent comes back too when the program closes it.
    const escrowRent = (await connection.getAccountInfo(escrow.pubkey, "confirmed")) === null ? BigInt(escrow.account.lamports) : 0n;
    expect(await lamports(connection, w.address)).toBe(solBefore + EXPIRY_BOUNTY_LAMPORTS + escrowRent - (await feeOf(signature)));
  });

  it("the maker expires a lapsed offer of the taker's and earns the bounty", async () => {
    const page = maker.page;
    const w = taker;
    const expiresAt = (await chainNow(connection)) + 3n;
    const pda = await createOfferFromNode(stack.cluster, w.keypair, {
      side: "sell",
      tokenMint: token.address,
      paymentMint: USDC,
      size: 2n * UNIT,
      pricePerToken: 1n,
      priceScale: 0,
      minFill: 0n,
      expiresAt,
    });
    // Indexed (already shown expired when the wall clock runs ahead of the chain's: the API lapses offers by the database clock).
    await indexedOffer(pda, (o) => o.expiresAt !== "");
    await advancePast(stack.cluster, connection, expiresAt);
    const makerTokensBefore = await tokenBalance(connection, w.address, token.address);
    const before = await lamports(connection, maker.address);

    await openOffer(page, pda);
    expect(await page.getByTestId("expire-bounty").textContent({ timeout: 60_000 })).toBe("0.001 SOL");
    await page.getByTestId("action-expire").click();
    const signature = await confirmAction(page.getByTestId("action-expire-flow"));
    expect(await lamports(connection, maker.address)).toBe(before + EXPIRY_BOUNTY_LAMPORTS - (await feeOf(signature)));
    expect(await tokenBalance(connection, w.address, token.address)).toBe(makerTokensBefore + 2n * UNIT);
    const offer = (await offerOf(pda))!;
    expect(offer.status).toBe("expired");
    expect(offer.remainingSize).toBe("2000000");
    expect(maker.consoleErrors).toEqual([]);
  });

  it("on its own maker page the taker cancels all its open offers, packed several to a transaction, then closes all its filled ones", async () => {
    const page = taker.page;
    const w = taker;
    const terms: OfferTerms = { side: "sell", tokenMint: token.address, paymentMint: USDC, size: 1n * UNIT, pricePerToken: 2n, priceScale: 0, minFill: 0n, expiresAt: (await chainNow(connection)) + 86_400n };
    const open: string[] = [];
    for (let i = 0; i < 6; i++) open.push(await createOfferFromNode(stack.cluster, w.keypair, terms));
    // Two more, filled whole by a taker in Node.
    const filler = Keypair.generate();
    await fund(stack.cluster, filler.publicKey.toBase58(), 1, { [USDC]: 100n * UNIT });
    const filled: string[] = [];
    for (let i = 0; i < 2; i++) {
      const pda = await createOfferFromNode(stack.cluster, w.keypair, terms);
      await takeOfferFromNode(stack.cluster, filler, pda, w.address, terms, terms.size);
      filled.push(pda);
    }
    for (const pda of open) await indexedOffer(pda, (o) => o.status === "open");
    for (const pda of filled) await indexedOffer(pda, (o) => o.status === "filled");

    // Cancel all open: six offers, in fewer transactions than offers, each signed by the wallet.
    const tokensBefore = await tokenBalance(connection, w.address, token.address);
    const signedBefore = w.signed?.length ?? 0;
    await page.goto(`${stack.server.baseUrl}/makers/${w.address}`, { waitUntil: "networkidle" });
    await page.getByTestId("cancel-all-open").click();
    let flow = page.getByTestId("bulk-cancel-flow");
    await flow.getByTestId("confirm-summary").waitFor({ timeout: 60_000 });
    expect(await flow.getByTestId("bulk-count").textContent()).toBe("6");
    await confirmAction(flow);
    const cancelTxs = await flow.getByTestId("tx-link").count();
    expect(cancelTxs).toBeGreaterThan(0);
    expect(cancelTxs).toBeLessThan(open.length);
    if (w.signed) expect(w.signed.length - signedBefore).toBe(cancelTxs);
    for (const pda of open) expect((await offerOf(pda))?.status).toBe("cancelled");
    expect((await stack.server.json(`/v1/makers/${w.address}/offers?status=open`)).body.offers).toEqual([]);
    expect(await tokenBalance(connection, w.address, token.address)).toBe(tokensBefore + 6n * UNIT);
    await flow.getByTestId("action-dismiss").click();

    // Close all filled: both accounts gone from the chain, their rent back to the maker.
    const rents = (await Promise.all(filled.map((pda) => lamports(connection, pda)))).reduce((a, b) => a + b, 0n);
    expect(rents).toBeGreaterThan(0n);
    const solBefore = await lamports(connection, w.address);
    await page.getByTestId("close-all-filled").click();
    flow = page.getByTestId("bulk-close-flow");
    await flow.getByTestId("confirm-summary").waitFor({ timeout: 60_000 });
    expect(await flow.getByTestId("bulk-count").textContent()).toBe(String(filled.length));
    const signature = await confirmAction(flow);
    expect(await flow.getByTestId("tx-link").count()).toBe(1);
    for (const pda of filled) expect(await connection.getAccountInfo(new PublicKey(pda), "confirmed")).toBeNull();
    expect(await lamports(connection, w.address)).toBe(solBefore + rents - (await feeOf(signature)));
    for (const pda of filled) expect((await offerOf(pda))?.status).toBe("filled");
    expect(taker.consoleErrors).toEqual([]);
  });
});
