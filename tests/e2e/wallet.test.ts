import { Keypair, PublicKey, SystemProgram, Transaction } from "@solana/web3.js";
import { ed25519 } from "@noble/curves/ed25519";
import bs58 from "bs58";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAYMENT_MINTS, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../../lib/program/constants";
import { GENESIS_HASHES } from "../../client/cluster";
import { shortAddress } from "../../client/format";
import { jsonRpc, lamportsOf, waitConfirmed } from "../../lib/rpc/json-rpc";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { startWebServer, type WebServer } from "../helpers/server";
import { DESKTOP, isolate, watchConsole } from "./browser";
import { startIndexedStack, type IndexedStack } from "./indexed-stack";
import { injectTestWallet, TEST_WALLET_NAME } from "./wallet";

// Wallets in Debian's Chromium against the indexed local cluster: the header
// names the cluster by genesis hash; the demo wallet is made, funded and
// connected in one click and survives a reload; the injected test wallet
// connects and signs; and a deployment whose chain is mainnet offers no demo
// wallet even when told it runs the local demo cluster.

const SHOTS = path.resolve(import.meta.dirname, "../../test-results/e2e");

let stack: IndexedStack;
let rpcUrl: string;
const USDC = PAYMENT_MINTS.find((m) => m.symbol === "USDC" && m.network === "mainnet")!.address;

beforeAll(async () => {
  stack = await startIndexedStack("e2e-wallet", 200);
  rpcUrl = stack.cluster.env.SOLANA_RPC_URL;
  mkdirSync(SHOTS, { recursive: true });
}, 240_000);

afterAll(() => stack?.stop());

async function openPage(context: BrowserContext, path = "/"): Promise<Page> {
  const page = await context.newPage();
  await page.goto(stack.server.baseUrl + path, { waitUntil: "networkidle" });
  return page;
}

/** The Wallet Standard wallets registered in the page, as an app sees them, by name. */
async function walletInPage<T>(page: Page, name: string, run: string, arg: unknown): Promise<T> {
  return page.evaluate(
    async ({ name, run, arg }) => {
      const wallets: { name: string; accounts: unknown[]; features: Record<string, Record<string, (...a: unknown[]) => Promise<unknown>>> }[] = [];
      window.dispatchEvent(new CustomEvent("wallet-standard:app-ready", { detail: { register: (w: (typeof wallets)[number]) => wallets.push(w) } }));
      const wallet = wallets.find((w) => w.name === name);
      if (!wallet) throw new Error(`no wallet named ${name} in the page`);
      return new Function("wallet", "arg", `return (async () => { ${run} })()`)(wallet, arg);
    },
    { name, run, arg },
  ) as Promise<T>;
}

/** A SOL transfer from `from`, unsigned, on the cluster's latest blockhash, as bytes a wallet signs. */
async function unsignedTransfer(from: string, to: string, lamports: number): Promise<number[]> {
  const { value } = await jsonRpc<{ value: { blockhash: string } }>(rpcUrl, "getLatestBlockhash", [{ commitment: "confirmed" }]);
  const tx = new Transaction({ feePayer: new PublicKey(from), recentBlockhash: value.blockhash }).add(
    SystemProgram.transfer({ fromPubkey: new PublicKey(from), toPubkey: new PublicKey(to), lamports }),
  );
  return [...tx.serialize({ requireAllSignatures: false, verifySignatures: false })];
}

const SIGN_AND_SEND = `
  const [account] = wallet.accounts;
  const [out] = await wallet.features["solana:signAndSendTransaction"].signAndSendTransaction({ account, chain: "solana:localnet", transaction: new Uint8Array(arg) });
  return Array.from(out.signature);`;

describe("wallets on the local demo cluster", { timeout: 120_000 }, () => {
  it("the header labels the cluster local, known by the genesis hash the worker recorded", async () => {
    const context = await stack.browser.newContext({ viewport: DESKTOP });
    await isolate(context, stack.server.baseUrl);
    const page = await openPage(context);
    const label = page.getByTestId("cluster-label");
    expect(await label.getAttribute("data-cluster")).toBe("local");
    expect((await label.textContent())?.trim()).toBe("local");
    await context.close();
  });

  it("one click creates, funds and connects the demo wallet; its address stays after a reload; its key never leaves the browser", async () => {
    const context = await stack.browser.newContext({ viewport: DESKTOP });
    const external = await isolate(context, stack.server.baseUrl);
    const page = await openPage(context);
    const errors = watchConsole(page);
    const bodies: string[] = [];
    page.on("request", (r) => bodies.push(r.postData() ?? ""));

    await page.getByRole("button", { name: "Connect wallet" }).click();
    await page.getByTestId("create-demo-wallet").waitFor();
    await page.screenshot({ path: path.join(SHOTS, "wallet-demo-offered-desktop.png") });
    await page.getByTestId("create-demo-wallet").click();
    const stored = await page.waitForFunction(() => localStorage.getItem("demoWallet")).then((h) => h.jsonValue() as Promise<string>);
    const secretKey = bs58.decode((JSON.parse(stored) as { secretKey: string }).secretKey);
    const address = Keypair.fromSecretKey(secretKey).publicKey.toBase58();
    const headerButton = page.getByRole("button", { name: shortAddress(address) });
    await headerButton.waitFor({ timeout: 60_000 });

    // Funded on the cluster: SOL by requestAirdrop, USDC by requestTokenAirdrop.
    expect(await lamportsOf(rpcUrl, address)).toBe(100n * 10n ** 9n);
    const usdc = await jsonRpc<{ value: { account: { data: { parsed: { info: { tokenAmount: { amount: string } } } } } }[] }>(rpcUrl, "getTokenAccountsByOwner", [
      address,
      { mint: USDC },
      { encoding: "jsonParsed", commitment: "confirmed" },
    ]);
    expect(usdc.value.map((a) => a.account.data.parsed.info.tokenAmount.amount)).toEqual(["1000000000000"]);
    // And every token on the book, under either token program, besides USDC and USDT.
    const markets = (await stack.server.json("/v1/markets")).body.markets as { tokenMint: string }[];
    const funded = new Set<string>();
    for (const programId of [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS]) {
      const accounts = await jsonRpc<{ value: { account: { data: { parsed: { info: { mint: string; tokenAmount: { amount: string } } } } } }[] }>(
        rpcUrl,
        "getTokenAccountsByOwner",
        [address, { programId }, { encoding: "jsonParsed", commitment: "confirmed" }],
      );
      for (const a of accounts.value) if (BigInt(a.account.data.parsed.info.tokenAmount.amount) > 0n) funded.add(a.account.data.parsed.info.mint);
    }
    const stablecoins = PAYMENT_MINTS.filter((m) => m.symbol !== "SOL").map((m) => m.address);
    const bookTokens = markets.map((m) => m.tokenMint).filter((mint) => !PAYMENT_MINTS.some((p) => p.address === mint));
    expect([...funded].sort()).toEqual([...new Set([...bookTokens, ...stablecoins])].sort());

    // The menu shows the balance the cluster holds.
    await headerButton.click();
    await expect.poll(() => page.getByTestId("wallet-balance").getAttribute("data-lamports")).toBe((100n * 10n ** 9n).toString());
    await page.screenshot({ path: path.join(SHOTS, "wallet-demo-connected-desktop.png") });
    await page.keyboard.press("Escape");

    // It signs in the browser: a transfer lands on the cluster.
    const recipient = Keypair.generate().publicKey.toBase58();
    const signature = bs58.encode(Uint8Array.from(await walletInPage<number[]>(page, "Demo wallet", SIGN_AND_SEND, await unsignedTransfer(address, recipient, 12_345))));
    await waitConfirmed(rpcUrl, [signature]);
    expect(await lamportsOf(rpcUrl, recipient)).toBe(12_345n);

    await page.reload({ waitUntil: "networkidle" });
    await page.getByRole("button", { name: shortAddress(address) }).waitFor({ timeout: 60_000 });

    const secretTexts = [bs58.encode(secretKey), Buffer.from(secretKey).toString("base64"), Buffer.from(secretKey.slice(0, 32)).toString("base64")];
    expect(bodies.filter((b) => secretTexts.some((s) => b.includes(s)))).toEqual([]);
    expect(external).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the injected test wallet connects as its keypair and signs in Node: a message, and a transfer it sends", async () => {
    const context = await stack.browser.newContext({ viewport: DESKTOP });
    await isolate(context, stack.server.baseUrl);
    const keypair = Keypair.generate();
    const wallet = await injectTestWallet(context, keypair, { rpcUrl });
    const page = await openPage(context);

    await page.getByRole("button", { name: "Connect wallet" }).click();
    await page.getByRole("menuitem", { name: TEST_WALLET_NAME }).click();
    await page.getByRole("button", { name: shortAddress(wallet.address) }).waitFor({ timeout: 60_000 });

    const message = [...new TextEncoder().encode("offer book e2e")];
    const signatureOfMessage = await walletInPage<number[]>(
      page,
      TEST_WALLET_NAME,
      `const [account] = wallet.accounts;
       const [out] = await wallet.features["solana:signMessage"].signMessage({ account, message: new Uint8Array(arg) });
       return Array.from(out.signature);`,
      message,
    );
    expect(ed25519.verify(Uint8Array.from(signatureOfMessage), Uint8Array.from(message), keypair.publicKey.toBytes())).toBe(true);

    await waitConfirmed(rpcUrl, [await jsonRpc<string>(rpcUrl, "requestAirdrop", [wallet.address, 10 ** 9])]);
    const recipient = Keypair.generate().publicKey.toBase58();
    const sent = bs58.encode(Uint8Array.from(await walletInPage<number[]>(page, TEST_WALLET_NAME, SIGN_AND_SEND, await unsignedTransfer(wallet.address, recipient, 54_321))));
    expect(wallet.sent).toEqual([sent]);
    await waitConfirmed(rpcUrl, [sent]);
    expect(await lamportsOf(rpcUrl, recipient)).toBe(54_321n);

    // Declined in the wallet: the page hears a refusal and nothing is sent.
    wallet.approve = false;
    const refused = await walletInPage<string>(page, TEST_WALLET_NAME, `try { ${SIGN_AND_SEND} } catch (e) { return String(e.message); }`, await unsignedTransfer(wallet.address, recipient, 1));
    expect(refused).toContain("User rejected the request");
    expect(wallet.sent).toHaveLength(1);
    await context.close();
  });
});

describe("a deployment whose chain is mainnet", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let server: WebServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    await database.db.$client`insert into chain_identity (id, genesis_hash, program_id) values (1, ${GENESIS_HASHES.mainnet}, ${stack.cluster.env.PROGRAM_ID})`;
    // Told it runs the local demo cluster, and given the local cluster's RPC: the recorded genesis hash still says mainnet.
    server = await startWebServer({ DATABASE_URL: database.url, ...stack.cluster.env, LOCAL_DEMO_CLUSTER: "true", RATE_LIMIT_RPM: "0" });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it("is labelled mainnet and never offers the demo wallet", async () => {
    const context = await stack.browser.newContext({ viewport: DESKTOP });
    await isolate(context, server.baseUrl);
    const page = await context.newPage();
    await page.goto(server.baseUrl + "/", { waitUntil: "networkidle" });
    expect(await page.getByTestId("cluster-label").getAttribute("data-cluster")).toBe("mainnet");
    expect(await page.getByTestId("local-cluster-banner").count()).toBe(0);
    await page.getByRole("button", { name: "Connect wallet" }).click();
    await page.getByRole("menu").waitFor();
    expect(await page.getByTestId("create-demo-wallet").count()).toBe(0);
    expect(await page.getByRole("menu").textContent()).toContain("No Solana wallet found");
    await context.close();
  });
});
