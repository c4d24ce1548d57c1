import { Connection, Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeOfferAccount } from "../../../lib/program/index";
import { type LocalCluster, startLocalCluster } from "../../../local/cluster/index";
import { takeableNearMarket } from "../../../local/cluster/near-market";
import { airdrop, JUP, type MadeOffer, makeSellOffer, tokenAirdrop, USDC } from "./wallet-helpers";

/** The demo takers fill offers near the market only: a newcomer's far offer stays open to be cancelled. */

describe("takeableNearMarket", () => {
  it("takes asks up to 5% above the mid and bids down to 5% below, and anything better for the taker", () => {
    expect(takeableNearMarket("sell", 104, 100)).toBe(true);
    expect(takeableNearMarket("sell", 50, 100)).toBe(true);
    expect(takeableNearMarket("sell", 106, 100)).toBe(false);
    expect(takeableNearMarket("buy", 96, 100)).toBe(true);
    expect(takeableNearMarket("buy", 160, 100)).toBe(true);
    // A bid 60% below the market, as in the report: left for its maker.
    expect(takeableNearMarket("buy", 40, 100)).toBe(false);
    expect(takeableNearMarket("buy", 100, 0)).toBe(false);
    expect(takeableNearMarket("sell", Number.NaN, 100)).toBe(false);
  });
});

describe("the demo market on a local cluster", () => {
  let cluster: LocalCluster;
  let connection: Connection;
  let far: MadeOffer;

  beforeAll(async () => {
    cluster = await startLocalCluster({ seed: "demo-near-market", history: 300 });
    connection = new Connection(cluster.url, "confirmed");
    const maker = Keypair.generate();
    await airdrop(connection, maker.publicKey, 10);
    await tokenAirdrop(cluster, maker.publicKey, JUP, 10_000_000_000n);
    // JUP trades near 0.85 USDC (its walk stays within 0.33x-3x): an ask at 50 USDC is far above the market.
    far = await makeSellOffer(connection, cluster, maker, { paymentMint: USDC, size: 100_000_000n, pricePerToken: 50n, priceScale: 0, minFill: 0n, nonce: 1n });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  const remaining = async (made: MadeOffer) => {
    const info = await connection.getAccountInfo(made.offer, "confirmed");
    return info ? (decodeOfferAccount(Buffer.from(info.data))?.remainingSize ?? null) : null;
  };

  it("keeps taking near the market and never takes the far ask", async () => {
    let takes = 0;
    let touchedFar = 0;
    const farAddress = far.offer.toBase58();
    // About 100 open offers: 500 takes draw each of them several times over.
    for (let round = 0; round < 100; round++) {
      for (const tx of cluster.append("take", 5)) {
        if (tx.result.err === null) takes++;
        // Any transaction naming the offer, landed or failed: a taker that chose it at all.
        if (tx.addresses.includes(farAddress)) touchedFar++;
      }
    }
    expect(takes).toBeGreaterThan(100);
    expect(touchedFar).toBe(0);
    expect(await remaining(far)).toBe(100_000_000n);
  });
});
