import bs58 from "bs58";
import { Connection, Keypair, PublicKey, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeOfferInstruction } from "../../../lib/program/index";
import { type LocalCluster, startLocalCluster } from "../../../local/cluster/index";
import { findProgramAddressFast, isOnCurve } from "../../../local/cluster/fast-pda";

const GENESIS = Date.UTC(2025, 0, 1);
let cluster: LocalCluster;

function post(body: unknown): Promise<Response> {
  return fetch(cluster.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

const getSlot = { jsonrpc: "2.0", id: 1, method: "getSlot", params: [{ commitment: "confirmed" }] };

beforeEach(async () => {
  cluster = await startLocalCluster({ seed: "faults", history: 800, genesisUnixMs: GENESIS });
});

afterEach(async () => {
  await cluster.stop();
});

describe("fault injection", () => {
  it("fails exactly one request in five, with each configured kind in turn", async () => {
    cluster.setFaults({ every: 5, kinds: ["http500", "http429", "http503"], retryAfterSeconds: 2 });
    const statuses: number[] = [];
    const retryAfter: Array<string | null> = [];
    for (let i = 0; i < 15; i++) {
      const res = await post(getSlot);
      statuses.push(res.status);
      retryAfter.push(res.headers.get("retry-after"));
      await res.text();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 500, 200, 200, 200, 200, 429, 200, 200, 200, 200, 503]);
    expect(retryAfter[9]).toBe("2");
    expect(cluster.stats().faults.http429).toBe(1);
  });

  it("breaks bodies and connections", async () => {
    cluster.setFaults({ every: 1, kinds: ["malformed"] });
    const malformed = await post(getSlot);
    expect(malformed.status).toBe(200);
    await expect(malformed.json()).rejects.toThrow();
    cluster.setFaults({ every: 1, kinds: ["drop"] });
    await expect(post(getSlot)).rejects.toThrow();
    cluster.setFaults({ every: 1, kinds: ["truncated"] });
    await expect(post(getSlot).then((r) => r.text())).rejects.toThrow();
    cluster.setFaults({ every: 1, kinds: ["slow"], slowMs: 300 });
    // Held: a 50 ms timer set before the request fires before the cluster's 300 ms hold, set when the request arrives
    // (both run in this process, in order of their due times), then answered in full.
    const slow = post(getSlot);
    const first = await Promise.race([slow.then(() => "answered"), new Promise((r) => setTimeout(() => r("held"), 50))]);
    expect(first).toBe("held");
    expect(((await (await slow).json()) as { result: number }).result).toBe(cluster.ledger.tip.slot);
    cluster.setFaults(null);
    expect((await post(getSlot)).status).toBe(200);
  });

  it("restricts faults to chosen methods and is driven over HTTP too", async () => {
    const admin = await fetch(`${cluster.url}/_admin/faults`, { method: "POST", body: JSON.stringify({ every: 1, kinds: ["http503"], methods: ["getTransaction"] }) });
    expect(admin.status).toBe(200);
    expect((await post(getSlot)).status).toBe(200);
    const tx = cluster.ledger.transactions[0]!;
    expect((await post({ jsonrpc: "2.0", id: 1, method: "getTransaction", params: [tx.signature, { maxSupportedTransactionVersion: 0 }] })).status).toBe(503);
  });

  it("plays a node that is behind", async () => {
    const tip = cluster.ledger.tip.slot;
    cluster.setBehind(50);
    const connection = new Connection(cluster.url, "confirmed");
    expect(await connection.getSlot()).toBeLessThanOrEqual(tip - 50);
    const health = (await (await post({ jsonrpc: "2.0", id: 1, method: "getHealth" })).json()) as { error: { code: number; data: unknown } };
    expect(health.error).toMatchObject({ code: -32005, data: { numSlotsBehind: 50 } });
    const newest = await connection.getSignaturesForAddress(new PublicKey(cluster.programId), { limit: 1 });
    expect(newest[0]!.slot).toBeLessThanOrEqual(tip - 50);
  });
});

describe("forks and pruning", () => {
  it("rolls back the unfinalized tail and replaces it with a fork", async () => {
    const finalized = cluster.ledger.finalizedSlot;
    const unfinalized = cluster.ledger.transactions.filter((t) => t.slot > finalized).map((t) => t.signature);
    expect(unfinalized.length).toBeGreaterThan(0);
    const result = cluster.rollback();
    expect(result.removedSignatures).toEqual(unfinalized);
    expect(result.addedSignatures.length).toBeGreaterThan(0);
    expect(result.addedSignatures.some((s) => unfinalized.includes(s))).toBe(false);

    const connection = new Connection(cluster.url, "confirmed");
    expect(await connection.getTransaction(unfinalized[0]!, { maxSupportedTransactionVersion: 0 })).toBeNull();
    const newest = await connection.getSignaturesForAddress(new PublicKey(cluster.programId), { limit: 1000 });
    const served = new Set(newest.map((s) => s.signature));
    expect(unfinalized.some((s) => served.has(s))).toBe(false);
    expect(result.addedSignatures.every((s) => served.has(s))).toBe(true);

    // The accounts are those of the new fork: every live offer matches the expected state rebuilt from the ledger.
    const expected = cluster.expectedState({ slot: cluster.ledger.tip.slot });
    for (const offer of expected.offers.values()) {
      const info = await connection.getAccountInfo(new PublicKey(offer.address));
      expect(info === null).toBe(offer.closed);
    }
  });

  it("refuses to roll back finalized blocks", () => {
    expect(() => cluster.rollback({ toSlot: cluster.ledger.finalizedSlot - 1 })).toThrow();
  });

  it("prunes old history like a non-archival node", async () => {
    const txs = cluster.ledger.transactions;
    const oldest = txs[0]!;
    const first = cluster.prune({ keepTransactions: 300 });
    const connection = new Connection(cluster.url, "confirmed");
    expect(await connection.getFirstAvailableBlock()).toBe(first);
    expect(await connection.getTransaction(oldest.signature, { maxSupportedTransactionVersion: 0 })).toBeNull();
    const all: string[] = [];
    let before: string | undefined;
    for (;;) {
      const page = await connection.getSignaturesForAddress(new PublicKey(cluster.programId), { before, limit: 1000 });
      all.push(...page.map((p) => p.signature));
      if (page.length < 1000) break;
      before = page[page.length - 1]!.signature;
    }
    expect(all.length).toBeGreaterThanOrEqual(300);
    expect(all.length).toBeLessThan(txs.length);
    expect(all.includes(oldest.signature)).toBe(false);
    // A `before` that is no longer known yields an empty page, as on a real node.
    expect(await connection.getSignaturesForAddress(new PublicKey(cluster.programId), { before: oldest.signature })).toEqual([]);
    expect(cluster.expectedState().fills.some((f) => f.signature === oldest.signature) || oldest.result.effects.every((e) => e.kind !== "take")).toBe(true);
  });
});

describe("appending on demand", () => {
  it("appends simulated transactions of a chosen kind in a new block", async () => {
    const tip = cluster.ledger.tip.slot;
    const [tx] = cluster.append("cpi_take");
    expect(tx!.slot).toBe(tip + 1);
    expect(tx!.result.innerInstructions.length).toBeGreaterThan(0);
    const res = await fetch(`${cluster.url}/_admin/append`, { method: "POST", body: JSON.stringify({ kind: "failed_take", count: 2 }) });
    const { signatures } = (await res.json()) as { signatures: string[] };
    expect(signatures).toHaveLength(2);
    for (const s of signatures) expect(cluster.ledger.bySignatureAvailable(s)?.result.err).not.toBeNull();
  });

  it("accepts a transaction built with web3.js and the codec's builders through sendTransaction", async () => {
    const expected = cluster.expectedState();
    const closable = [...expected.offers.values()].find((o) => !o.closed && o.account.state !== "active" && cluster.world.wallet(o.account.maker))!;
    const makerKeypair = cluster.world.wallet(closable.account.maker)!;
    const signer = Keypair.fromSecretKey(makerKeypair.secretKey());
    const connection = new Connection(cluster.url, "confirmed");
    const { blockhash } = await connection.getLatestBlockhash("confirmed");
    const message = new TransactionMessage({
      payerKey: signer.publicKey,
      recentBlockhash: blockhash,
      instructions: [closeOfferInstruction(cluster.programId, { maker: signer.publicKey, offer: closable.address })],
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign([signer]);
    const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
    expect(signature).toBe(bs58.encode(tx.signatures[0]!));
    const status = await connection.getSignatureStatus(signature);
    expect(status.value?.err).toBeNull();
    expect(await connection.getAccountInfo(new PublicKey(closable.address))).toBeNull();
    expect(cluster.expectedState().offers.get(closable.address)?.closed).toBe(true);
  });
});

describe("program addresses", () => {
  it("derives PDAs exactly as web3.js does", () => {
    const programId = new PublicKey(cluster.programId);
    for (let i = 0; i < 300; i++) {
      const seeds = [Buffer.from("offer"), Keypair.generate().publicKey.toBuffer(), Buffer.from(new BigUint64Array([BigInt(i)]).buffer)];
      const [address, bump] = PublicKey.findProgramAddressSync(seeds, programId);
      expect(findProgramAddressFast(seeds, cluster.programId)).toEqual({ address: address.toBase58(), bump });
    }
    expect(isOnCurve(Keypair.generate().publicKey.toBytes())).toBe(true);
  });
});
