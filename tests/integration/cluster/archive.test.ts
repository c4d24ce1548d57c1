import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectedStateJson, type LocalCluster, startLocalCluster } from "../../../local/cluster/index";

// A ledger that archives its settled history (archiveHistory: the bytes a
// node serves, off the JS heap) answers exactly as one that keeps every
// transaction's objects: the same chain from the same seed, byte for byte.

const GENESIS = Date.UTC(2025, 0, 1);
const HISTORY = 6_000; // about 1,500 slots: two thirds of it past the 512-slot undo window
let plain: LocalCluster;
let archived: LocalCluster;

const CONFIGS = [
  { encoding: "json", maxSupportedTransactionVersion: 0 },
  { encoding: "base64", maxSupportedTransactionVersion: 0 },
  { encoding: "base58", maxSupportedTransactionVersion: 0 },
  { encoding: "jsonParsed", maxSupportedTransactionVersion: 0 },
  { encoding: "json" },
];

async function rpcText(cluster: LocalCluster, body: unknown): Promise<string> {
  const res = await fetch(cluster.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return res.text();
}

beforeAll(async () => {
  const options = { seed: "archive-test", history: HISTORY, genesisUnixMs: GENESIS };
  [plain, archived] = [await startLocalCluster(options), await startLocalCluster({ ...options, archiveHistory: true })];
  archived.advanceSlots(1); // the archive catches up with the signing thread at the next block
  plain.advanceSlots(1);
}, 120_000);

afterAll(async () => {
  await Promise.all([plain?.stop(), archived?.stop()]);
});

describe("an archived history", () => {
  it("archives most of the history and keeps the undo window as objects", () => {
    const txs = archived.ledger.transactions;
    const count = txs.filter((t) => t.archived !== null).length;
    expect(count).toBeGreaterThan(HISTORY / 2);
    expect(txs.at(-1)!.archived).toBeNull();
    expect(plain.ledger.transactions.every((t) => t.archived === null)).toBe(true);
  });

  it("answers getTransaction in every encoding byte for byte as the unarchived ledger", async () => {
    const signatures = plain.ledger.transactions.map((t) => t.signature);
    expect(archived.ledger.transactions.map((t) => t.signature)).toEqual(signatures);
    for (const config of CONFIGS) {
      for (let i = 0; i < signatures.length; i += 250) {
        const batch = signatures.slice(i, i + 250).map((s, id) => ({ jsonrpc: "2.0", id, method: "getTransaction", params: [s, { ...config, commitment: "confirmed" }] }));
        const [a, b] = await Promise.all([rpcText(plain, batch), rpcText(archived, batch)]);
        expect(b, `${JSON.stringify(config)} from ${i}`).toBe(a);
      }
    }
  });

  it("pages signatures and derives the expected state as the unarchived ledger does", async () => {
    const page = { jsonrpc: "2.0", id: 1, method: "getSignaturesForAddress", params: [plain.programId, { limit: 1000, commitment: "confirmed" }] };
    expect(await rpcText(archived, page)).toBe(await rpcText(plain, page));
    expect(expectedStateJson(archived.expectedState())).toEqual(expectedStateJson(plain.expectedState()));
  });

  it("goes on appending, rolling back the unfinalized tail and serving the new blocks", async () => {
    for (const cluster of [plain, archived]) {
      cluster.append(undefined, 40);
      cluster.rollback();
      cluster.append(undefined, 40);
    }
    const signatures = archived.ledger.transactions.slice(-200).map((t) => t.signature);
    const batch = signatures.map((s, id) => ({ jsonrpc: "2.0", id, method: "getTransaction", params: [s, { encoding: "json", maxSupportedTransactionVersion: 0 }] }));
    expect(await rpcText(archived, batch)).toBe(await rpcText(plain, batch));
  });
});
