import { Keypair } from "@solana/web3.js";
import type { Page } from "playwright-core";
import { PAYMENT_MINTS } from "../../lib/program/constants";
import { shortAddress } from "../../client/format";
import type { Offer } from "../../client/types";
import { LOCAL_TOKEN_MINTS } from "../../local/cluster";
import { waitFor } from "../helpers/worker";
import { isolate, watchConsole } from "./browser";
import type { IndexedStack } from "./indexed-stack";
import { fund } from "./trade-chain";
import { injectTestWallet, TEST_WALLET_NAME } from "./wallet";

// What the trading suites (trading.test.ts, trade-by-price.test.ts) share:
// the book they trade on, a trader connected through the injected test
// wallet, and reading an offer back through /v1 until it shows a change.

export const USDC = PAYMENT_MINTS.find((m) => m.symbol === "USDC" && m.network === "mainnet")!.address;
/** One whole unit of a 6-decimal mint (USDC, and the token traded). */
export const UNIT = 10n ** 6n;

/** A connected wallet in its own browser context; its key is known to the test to set things up from Node. */
export interface Trader {
  page: Page;
  address: string;
  keypair: Keypair;
  /** The test wallet's record of what it signed (the demo wallet keeps none). */
  signed?: Uint8Array[];
  consoleErrors: string[];
}

export interface TradedToken {
  address: string;
  decimals: number;
}

/** A token with a USDC book in the ledger that is a classic SPL mint of 6 decimals (the demo wallet is funded with every token on the book). */
export async function usdcBookToken(stack: IndexedStack): Promise<TradedToken> {
  const markets = (await stack.server.json("/v1/markets")).body.markets as { tokenMint: string; paymentMint: string }[];
  const mint = LOCAL_TOKEN_MINTS.find((m) => m.tokenProgram === "spl-token" && m.decimals === 6 && markets.some((k) => k.tokenMint === m.address && k.paymentMint === USDC));
  if (!mint) throw new Error("no USDC book of a 6-decimal SPL token in the ledger");
  return mint;
}

/** A new keypair behind the injected test wallet, funded with SOL and 1,000 of USDC and `token`, connected on the markets page. */
export async function connectTestWallet(stack: IndexedStack, token: TradedToken, viewport: { width: number; height: number }): Promise<Trader> {
  const context = await stack.browser.newContext({ viewport });
  await isolate(context, stack.server.baseUrl);
  const wallet = await injectTestWallet(context, Keypair.generate(), { rpcUrl: stack.cluster.env.SOLANA_RPC_URL });
  await fund(stack.cluster, wallet.address, 10, { [USDC]: 1_000n * UNIT, [token.address]: 1_000n * UNIT });
  const page = await context.newPage();
  const consoleErrors = watchConsole(page);
  await page.goto(stack.server.baseUrl + "/", { waitUntil: "networkidle" });
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await page.getByRole("menuitem", { name: TEST_WALLET_NAME }).click();
  await page.getByRole("button", { name: shortAddress(wallet.address) }).waitFor({ timeout: 60_000 });
  return { page, address: wallet.address, keypair: wallet.keypair, signed: wallet.signed, consoleErrors };
}

export async function offerOf(stack: IndexedStack, pda: string): Promise<Offer | null> {
  const response = await stack.server.get(`/v1/offers/${pda}`);
  return response.status === 200 ? ((await response.json()) as Offer) : null;
}

/** Waits until /v1 shows the offer as `check` wants, and returns it. */
export async function indexedOffer(stack: IndexedStack, pda: string, check: (o: Offer) => boolean): Promise<Offer> {
  let last: Offer | null = null;
  await waitFor(
    async () => {
      last = await offerOf(stack, pda);
      return last !== null && check(last);
    },
    60_000,
    () => `/v1/offers/${pda} did not show the change: ${JSON.stringify(last)}`,
  );
  return last!;
}
