import { ed25519 } from "@noble/curves/ed25519";
import { createPublicKey, verify } from "node:crypto";
import bs58 from "bs58";
import { Connection, PublicKey, Transaction, VersionedTransaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeInstruction, decodeOfferAccount, OFFER_ACCOUNT_DISCRIMINATOR, resolveAccountIndexes } from "../../../lib/program/index";
import { LOCAL_PAYMENT_MINTS, LOCAL_TOKEN_MINTS, type LocalCluster, startLocalCluster } from "../../../local/cluster/index";

const GENESIS = Date.UTC(2025, 0, 1);
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
let cluster: LocalCluster;
let connection: Connection;

async function rpc<T = unknown>(method: string, params: unknown[] = []): Promise<{ result?: T; error?: { code: number; message: string } }> {
  const res = await fetch(cluster.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return (await res.json()) as { result?: T; error?: { code: number; message: string } };
}

async function allSignatures(address: PublicKey, commitment: "confirmed" | "finalized" = "confirmed"): Promise<string[]> {
  const out: string[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await connection.getSignaturesForAddress(address, { before, limit: 1000 }, commitment);
    out.push(...page.map((s) => s.signature));
    if (page.length < 1000) return out;
    before = page[page.length - 1]?.signature;
  }
}

beforeAll(async () => {
  cluster = await startLocalCluster({ seed: "cluster-test", history: 2_500, genesisUnixMs: GENESIS });
  connection = new Connection(cluster.url, "confirmed");
});

afterAll(async () => {
  await cluster?.stop();
});

describe("history", () => {
  it("pages getSignaturesForAddress newest first with before, matching the ledger", async () => {
    const programId = new PublicKey(cluster.programId);
    const signatures = await allSignatures(programId);
    const ledgerOrder = cluster.ledger.transactions.map((t) => t.signature).reverse();
    expect(signatures).toEqual(ledgerOrder);
    expect(new Set(signatures).size).toBe(signatures.length);
  });

  it("honours until and limit, and refuses limit over 1000 and processed commitment", async () => {
    const txs = cluster.ledger.transactions;
    const until = txs[txs.length - 11]!.signature;
    const page = await connection.getSignaturesForAddress(new PublicKey(cluster.programId), { until, limit: 50 });
    expect(page.map((p) => p.signature)).toEqual(txs.slice(-10).map((t) => t.signature).reverse());
    const tooMany = await rpc("getSignaturesForAddress", [cluster.programId, { limit: 1001 }]);
    expect(tooMany.error?.code).toBe(-32602);
    const processed = await rpc("getSignaturesForAddress", [cluster.programId, { commitment: "processed" }]);
    expect(processed.error?.code).toBe(-32602);
  });

  it("reports status fields like a node", async () => {
    const [newest] = await connection.getSignaturesForAddress(new PublicKey(cluster.programId), { limit: 1 });
    const tx = cluster.ledger.transactions[cluster.ledger.transactions.length - 1]!;
    expect(newest).toEqual({ signature: tx.signature, slot: tx.slot, err: tx.result.err, memo: tx.result.memo, blockTime: tx.blockTime, confirmationStatus: "confirmed" });
    const oldest = cluster.ledger.transactions[0]!;
    const page = await connection.getSignaturesForAddress(new PublicKey(cluster.programId), { before: cluster.ledger.transactions[1]!.signature, limit: 5 });
    expect(page).toHaveLength(1);
    expect(page[0]?.signature).toBe(oldest.signature);
    expect(page[0]?.confirmationStatus).toBe("finalized");
  });

  it("finalized readers see less than confirmed readers", async () => {
    const confirmed = await connection.getSlot("confirmed");
    const finalized = await connection.getSlot("finalized");
    expect(confirmed - finalized).toBeGreaterThanOrEqual(32);
    const finalizedSigs = await allSignatures(new PublicKey(cluster.programId), "finalized");
    const expected = cluster.ledger.transactions.filter((t) => t.slot <= finalized).map((t) => t.signature).reverse();
    expect(finalizedSigs).toEqual(expected);
  });
});

describe("transactions", () => {
  it("serves legacy and v0 transactions through web3.js, with loaded addresses for v0", async () => {
    const legacy = cluster.ledger.transactions.find((t) => t.signed?.message.version === "legacy")!;
    const v0 = cluster.ledger.transactions.find((t) => t.signed?.message.version === 0 && t.result.loadedAddresses.writable.length > 0)!;
    const gotLegacy = await connection.getTransaction(legacy.signature, { maxSupportedTransactionVersion: 0 });
    expect(gotLegacy?.version).toBe("legacy");
    expect(gotLegacy?.slot).toBe(legacy.slot);
    expect(gotLegacy?.meta?.fee).toBe(legacy.result.fee);
    const gotV0 = await connection.getTransaction(v0.signature, { maxSupportedTransactionVersion: 0 });
    expect(gotV0?.version).toBe(0);
    expect(gotV0?.meta?.loadedAddresses?.writable.map((k) => k.toBase58())).toEqual(v0.result.loadedAddresses.writable);
    expect(gotV0?.transaction.message.addressTableLookups.length).toBeGreaterThan(0);
  });

  it("refuses a v0 transaction without maxSupportedTransactionVersion, like a node (-32015)", async () => {
    const v0 = cluster.ledger.transactions.find((t) => t.signed?.message.version === 0)!;
    const res = await rpc("getTransaction", [v0.signature, { encoding: "json" }]);
    expect(res.error?.code).toBe(-32015);
    const legacy = cluster.ledger.transactions.find((t) => t.signed?.message.version === "legacy")!;
    const ok = await rpc<Record<string, unknown>>("getTransaction", [legacy.signature, { encoding: "json" }]);
    expect(ok.result).toBeTruthy();
    expect(ok.result && "version" in ok.result).toBe(false);
    expect((await rpc("getTransaction", [bs58.encode(new Uint8Array(64).fill(7)), { maxSupportedTransactionVersion: 0 }])).result).toBeNull();
    expect((await rpc("getTransaction", ["not-a-signature"])).error?.code).toBe(-32602);
  });

  it("carries takes invoked by CPI in meta.innerInstructions, decodable by the codec", async () => {
    const cpi = cluster.ledger.transactions.find(
      (t) => t.result.err === null && t.result.effects.some((e) => e.kind === "take" && e.fill.innerIndex !== null),
    )!;
    const got = await connection.getTransaction(cpi.signature, { maxSupportedTransactionVersion: 0 });
    const message = got!.transaction.message;
    const keys = [
      ...message.staticAccountKeys.map((k) => k.toBase58()),
      ...(got!.meta!.loadedAddresses?.writable ?? []).map((k) => k.toBase58()),
      ...(got!.meta!.loadedAddresses?.readonly ?? []).map((k) => k.toBase58()),
    ];
    const takes = got!.meta!.innerInstructions!.flatMap((group) =>
      group.instructions
        .filter((ix) => keys[ix.programIdIndex] === cluster.programId)
        .map((ix) => decodeInstruction(bs58.decode(ix.data), resolveAccountIndexes(ix.accounts, keys)!)),
    );
    const fills = cpi.result.effects.flatMap((e) => (e.kind === "take" ? [e.fill] : []));
    expect(takes.map((t) => (t?.name === "take_offer" ? t.args.fillAmount : null))).toEqual(fills.map((f) => f.fillAmount));
    expect(takes.map((t) => t?.accounts.offer)).toEqual(fills.map((f) => f.offer));
  });

  it("signs every transaction with valid Ed25519 signatures", async () => {
    const txs = cluster.ledger.transactions;
    txs.forEach((tx, n) => {
      const wire = tx.signed!.wire;
      const versioned = VersionedTransaction.deserialize(wire);
      expect(bs58.encode(versioned.signatures[0]!)).toBe(tx.signature);
      const message = versioned.message.serialize();
      versioned.signatures.forEach((sig, i) => {
        const key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, versioned.message.staticAccountKeys[i]!.toBuffer()]), format: "der", type: "spki" });
        expect(verify(null, message, key, sig)).toBe(true);
        // The pure-JS verifier web3.js uses is slow; a sample of both versions is enough for a second opinion.
        if (n % 25 === 0) expect(ed25519.verify(sig, message, versioned.message.staticAccountKeys[i]!.toBytes())).toBe(true);
      });
      if (versioned.version === "legacy" && n % 25 === 0) expect(Transaction.from(wire).verifySignatures()).toBe(true);
    });
  });

  it("answers batches of 100 getTransaction calls in order, in base64 too", async () => {
    const sample = cluster.ledger.transactions.slice(0, 100);
    const body = sample.map((t, i) => ({ jsonrpc: "2.0", id: i, method: "getTransaction", params: [t.signature, { encoding: "base64", maxSupportedTransactionVersion: 0, commitment: "confirmed" }] }));
    const res = await fetch(cluster.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const answers = (await res.json()) as Array<{ id: number; result: { transaction: [string, string]; slot: number } }>;
    expect(answers.map((a) => a.id)).toEqual(sample.map((_, i) => i));
    answers.forEach((a, i) => {
      expect(a.result.transaction[1]).toBe("base64");
      expect(Buffer.from(a.result.transaction[0], "base64").equals(Buffer.from(sample[i]!.signed!.wire))).toBe(true);
    });
  });
});

describe("accounts", () => {
  it("returns mint decimals at byte 44 for SPL Token and Token-2022 mints", async () => {
    const mints = [...LOCAL_TOKEN_MINTS, ...LOCAL_PAYMENT_MINTS];
    const infos = await connection.getMultipleAccountsInfo(mints.map((m) => new PublicKey(m.address)));
    infos.forEach((info, i) => {
      expect(info?.data[44]).toBe(mints[i]!.decimals);
      expect(info?.owner.toBase58()).toBe(mints[i]!.tokenProgram === "token-2022" ? "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb" : "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
    });
    const parsed = await connection.getParsedAccountInfo(new PublicKey(LOCAL_TOKEN_MINTS[0]!.address));
    expect((parsed.value?.data as { parsed: { info: { decimals: number } } }).parsed.info.decimals).toBe(LOCAL_TOKEN_MINTS[0]!.decimals);
  });

  it("finds offers with getProgramAccounts and a discriminator memcmp, matching the expected state", async () => {
    const accounts = await connection.getProgramAccounts(new PublicKey(cluster.programId), {
      filters: [{ memcmp: { offset: 0, bytes: bs58.encode(OFFER_ACCOUNT_DISCRIMINATOR) } }, { dataSize: 164 }],
    });
    const expected = cluster.expectedState({ slot: cluster.ledger.tip.slot });
    const live = [...expected.offers.values()].filter((o) => !o.closed);
    expect(accounts.length).toBe(live.length);
    for (const { pubkey, account } of accounts) {
      const offer = decodeOfferAccount(account.data);
      expect(offer).toEqual(expected.offers.get(pubkey.toBase58())?.account);
    }
    expect(live.some((o) => o.account.state === "active")).toBe(true);
  });

  it("refuses more than 100 keys", async () => {
    const res = await rpc("getMultipleAccounts", [Array.from({ length: 101 }, () => cluster.programId), { encoding: "base64" }]);
    expect(res.error).toEqual({ code: -32602, message: "Too many inputs provided; max 100" });
  });
});

describe("determinism", () => {
  it("builds the same signatures from the same seed", async () => {
    const a = await startLocalCluster({ seed: "same", history: 300, genesisUnixMs: GENESIS });
    const b = await startLocalCluster({ seed: "same", history: 300, genesisUnixMs: GENESIS });
    const c = await startLocalCluster({ seed: "other", history: 300, genesisUnixMs: GENESIS });
    try {
      const sigs = (x: LocalCluster) => x.ledger.transactions.map((t) => t.signature);
      expect(sigs(a)).toEqual(sigs(b));
      expect(sigs(a)).not.toEqual(sigs(c));
      expect(a.programId).toBe(b.programId);
    } finally {
      await Promise.all([a.stop(), b.stop(), c.stop()]);
    }
  });
});
