import { Connection, Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeOfferAccount } from "../../../lib/program/index";
import { type LocalCluster, startLocalCluster } from "../../../local/cluster/index";
import { airdrop, JUP, type MadeOffer, makeOffer, makeSellOffer, tokenAirdrop, USDC } from "./wallet-helpers";

/** The demo takers fill offers near the market only (the rule: tests/unit/near-market.test.ts): a newcomer's far offer stays open to be cancelled. */

describe("the demo market on a local cluster", () => {
  let cluster: LocalCluster;
  let connection: Connection;
  let far: MadeOffer;
  let farBid: MadeOffer;

  beforeAll(async () => {
    cluster = await startLocalCluster({ seed: "demo-near-market", history: 300 });
    connection = new Connection(cluster.url, "confirmed");
    const maker = Keypair.generate();
    await airdrop(connection, maker.publicKey, 10);
    await tokenAirdrop(cluster, maker.publicKey, JUP, 10_000_000_000n);
    // JUP trades near 0.85 USDC (its walk stays within 0.33x-3x): an ask at 50 USDC is far above the market.
    far = await makeSellOffer(connection, cluster, maker, { paymentMint: USDC, size: 100_000_000n, pricePerToken: 50n, priceScale: 0, minFill: 0n, nonce: 1n });
    // And a bid at 0.25 USDC, far below it (the newcomer's case in issue 22): 100 JUP for 25 USDC held in escrow.
    await tokenAirdrop(cluster, maker.publicKey, USDC, 100_000_000n);
    farBid = await makeOffer(connection, cluster, maker, { side: "buy", paymentMint: USDC, size: 100_000_000n, pricePerToken: 25n, priceScale: 2, minFill: 0n, nonce: 2n });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  const remaining = async (made: MadeOffer) => {
    const info = await connection.getAccountInfo(made.offer, "confirmed");
    return info ? (decodeOfferAccount(Buffer.from(info.data))?.remainingSize ?? null) : null;
  };

  it("keeps taking near the market and never takes the far ask or the far bid", async () => {
    let takes = 0;
    let touchedFar = 0;
    const farAddresses = [far.offer.toBase58(), farBid.offer.toBase58()];
    // About 100 open offers: 500 takes draw each of them several times over.
    for (let round = 0; round < 100; round++) {
      for (const tx of cluster.append("take", 5)) {
        if (tx.result.err === null) takes++;
        // Any transaction naming the offer, landed or failed: a taker that chose it at all.
        if (farAddresses.some((a) => tx.addresses.includes(a))) touchedFar++;
      }
    }
    expect(takes).toBeGreaterThan(100);
    expect(touchedFar).toBe(0);
    expect(await remaining(far)).toBe(100_000_000n);
    expect(await remaining(farBid)).toBe(100_000_000n);
  });
});
