import { describe, expect, it } from "vitest";
import { PAYMENT_MINTS } from "../../lib/program/constants";
import { clusterKind, demoWalletOffered, GENESIS_HASHES } from "../../client/cluster";
import { demoFundingPlan, unpricedTokenMints } from "../../client/demo-wallet/funding-plan";
import { DEFAULT_EXPLORER_CONFIG, explorerUrl } from "../../client/explorer";
import type { Market } from "../../client/types";

// The cluster is told by its genesis hash, never its URL; the demo wallet
// (a key in the browser, funded by airdrop) exists on the local demo cluster only.

const LOCAL_GENESIS = "7Wq4uPxXBqPzjZ3kp8MZ2rDN8QCY1jFjNgHqCeBvoqq3";

describe("the cluster by genesis hash", () => {
  it.each(Object.entries(GENESIS_HASHES))("%s's genesis hash names it, even when `npm start` says a local cluster runs", (kind, hash) => {
    expect(clusterKind(hash, true)).toBe(kind);
    expect(clusterKind(hash, false)).toBe(kind);
  });

  it("any other chain is local under the local demo cluster and custom otherwise", () => {
    expect(clusterKind(LOCAL_GENESIS, true)).toBe("local");
    expect(clusterKind(LOCAL_GENESIS, false)).toBe("custom");
    expect(clusterKind(null, false)).toBe("custom");
  });
});

describe("the demo wallet is offered", () => {
  it("on the local demo cluster with a known genesis hash", () => {
    expect(demoWalletOffered({ kind: clusterKind(LOCAL_GENESIS, true), genesisHash: LOCAL_GENESIS })).toBe(true);
  });

  it.each(Object.entries(GENESIS_HASHES))("never on %s, whatever LOCAL_DEMO_CLUSTER says", (_kind, hash) => {
    expect(demoWalletOffered({ kind: clusterKind(hash, true), genesisHash: hash })).toBe(false);
    // A kind computed elsewhere and wrong still meets the genesis hash.
    expect(demoWalletOffered({ kind: "local", genesisHash: hash })).toBe(false);
  });

  it("not on a custom cluster, nor before the genesis hash is known", () => {
    expect(demoWalletOffered({ kind: "custom", genesisHash: LOCAL_GENESIS })).toBe(false);
    expect(demoWalletOffered({ kind: "local", genesisHash: null })).toBe(false);
  });
});

describe("Solana Explorer links follow the genesis hash, not the URL", () => {
  const config = { ...DEFAULT_EXPLORER_CONFIG, rpcUrl: "https://rpc.example.com/key" };
  it("names public clusters and sends other chains as a custom RPC", () => {
    expect(explorerUrl({ ...config, cluster: "mainnet", genesisHash: GENESIS_HASHES.mainnet }, "tx", "sig")).toBe("https://explorer.solana.com/tx/sig");
    expect(explorerUrl({ ...config, cluster: "devnet", genesisHash: GENESIS_HASHES.devnet }, "tx", "sig")).toBe("https://explorer.solana.com/tx/sig?cluster=devnet");
    expect(explorerUrl({ ...config, cluster: "local", genesisHash: LOCAL_GENESIS }, "address", "a")).toBe(
      `https://explorer.solana.com/address/a?cluster=custom&customUrl=${encodeURIComponent("https://rpc.example.com/key")}`,
    );
  });
});

describe("what the demo wallet is funded with", () => {
  const USDC = PAYMENT_MINTS.find((m) => m.symbol === "USDC" && m.network === "mainnet")!.address;
  const USDT = PAYMENT_MINTS.find((m) => m.symbol === "USDT")!.address;
  const SOL = PAYMENT_MINTS.find((m) => m.symbol === "SOL")!.address;
  const DEVNET_USDC = PAYMENT_MINTS.find((m) => m.symbol === "USDC" && m.network === "devnet")!.address;
  const market = (tokenMint: string, paymentMint: string, ask: [string, number] | null): Market => ({
    tokenMint,
    paymentMint,
    openOffers: 1,
    openAsks: 1,
    openBids: 0,
    bestAsk: ask && { pricePerToken: ask[0], priceScale: ask[1] },
    bestBid: null,
    volume24h: "0",
    fills24h: 0,
    lastFillAt: null,
  });

  it("gives the stablecoins (both USDCs, USDT), and of each token what 100,000 USDC buy at its best price", () => {
    // 0.85 raw USDC per raw token (scale 2): 10^11 / 0.85 raw tokens.
    const plan = demoFundingPlan([market("JUP", USDC, ["85", 2])]);
    const byMint = new Map(plan.tokens.map((t) => [t.mint, t.raw]));
    expect(byMint.get(USDC)).toBe(10n ** 12n);
    expect(byMint.get(USDT)).toBe(10n ** 12n);
    expect(byMint.get(DEVNET_USDC)).toBe(10n ** 12n);
    expect(byMint.get("JUP")).toBe((10n ** 11n * 100n) / 85n);
    expect(byMint.has(SOL)).toBe(false);
    expect(plan.lamports).toBeGreaterThan(0n);
  });

  it("takes the larger share when a token trades against several payment mints", () => {
    const plan = demoFundingPlan([market("T", USDC, ["1", 0]), market("T", SOL, ["1", 0])]);
    expect(plan.tokens.find((t) => t.mint === "T")!.raw).toBe(500n * 10n ** 9n);
  });

  it("gives 1,000 whole units of a token with no price on the book, and none when its decimals are unknown", () => {
    const markets = [market("U", USDC, null), market("V", USDC, null), market("T", USDC, ["1", 0])];
    expect(unpricedTokenMints(markets)).toEqual(["U", "V"]);
    const plan = demoFundingPlan(markets, new Map([["U", 0], ["V", null]]));
    const byMint = new Map(plan.tokens.map((t) => [t.mint, t.raw]));
    expect(byMint.get("U")).toBe(1_000n);
    expect(byMint.has("V")).toBe(false);
  });

  it("never asks for more than a u64 holds", () => {
    const plan = demoFundingPlan([market("DUST", USDC, ["1", 18])]);
    expect(plan.tokens.find((t) => t.mint === "DUST")!.raw).toBe((1n << 64n) - 1n);
  });
});
