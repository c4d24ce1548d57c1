import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { StartupError } from "../../../platform/startup-error";
import { expectedStateJson, type LocalCluster, startLocalCluster } from "../../../local/cluster/index";
import { ledgerPath } from "../../../local/cluster/journal";
import { parseWireTransaction } from "../../../local/cluster/wire";
import { readWireTransaction } from "../../../local/cluster/wire-read";

// The local cluster with a dataDir keeps its ledger on disk: stopped and
// started again, it is the same chain (genesis hash, program, history) and
// goes on from the next slot, as `npm start` twice in a row needs.

const dataDir = mkdtempSync(path.join(tmpdir(), "ledger-"));
const started: LocalCluster[] = [];
afterAll(async () => {
  await Promise.all(started.map((c) => c.stop().catch(() => {})));
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startLocalCluster>[0] = {}): Promise<LocalCluster> {
  const cluster = await startLocalCluster({ dataDir, ...options });
  started.push(cluster);
  return cluster;
}

async function rpc<T>(cluster: LocalCluster, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(cluster.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = (await res.json()) as { result: T; error?: unknown };
  expect(body.error, method).toBeUndefined();
  return body.result;
}

const signatures = (c: LocalCluster) => c.ledger.transactions.map((t) => t.signature);
const slots = (c: LocalCluster) => c.ledger.slots.map((s) => `${s.slot}/${s.blockhash}/${s.transactionCount}`);
const expected = (c: LocalCluster) => expectedStateJson(c.expectedState({ slot: c.ledger.tip.slot }));

describe("a local cluster with a data directory", () => {
  let first: { genesis: string; programId: string; signatures: string[]; slots: string[]; tip: number; expected: unknown; finalized: number };

  it("writes its history and every later block, transaction and fork as it goes", async () => {
    const cluster = await start({ seed: "persist", history: 400 });
    cluster.append(undefined, 25);
    cluster.append("take", 3);
    // A fork: the unfinalized tail dropped and rebuilt; the file must say so.
    const fork = cluster.rollback({ replaceSlots: 2 });
    expect(fork.removedSignatures.length).toBeGreaterThan(0);
    cluster.append("create", 4);
    cluster.advanceSlots(3);
    first = {
      genesis: await rpc<string>(cluster, "getGenesisHash"),
      programId: cluster.programId,
      signatures: signatures(cluster),
      slots: slots(cluster),
      tip: cluster.ledger.tip.slot,
      expected: expected(cluster),
      finalized: cluster.ledger.finalizedSlot,
    };
    await cluster.stop();
    expect(cluster.resumed).toBeNull();
    const lines = readFileSync(ledgerPath(dataDir), "utf8").split("\n");
    expect(lines[0]).toMatch(/^h \{/);
    expect(lines.filter((l) => l.startsWith("r ")).length).toBe(1);
  });

  it("continues the same chain on the next start: same genesis, program, blocks, transactions and state", async () => {
    // No seed given: the kept ledger decides.
    const cluster = await start({ history: 999 });
    expect(await rpc<string>(cluster, "getGenesisHash")).toBe(first.genesis);
    expect(cluster.programId).toBe(first.programId);
    expect(cluster.resumed?.transactions).toBeGreaterThan(400);
    expect(signatures(cluster)).toEqual(first.signatures);
    expect(slots(cluster)).toEqual(first.slots);
    expect(cluster.ledger.finalizedSlot).toBe(first.finalized);
    expect(expected(cluster)).toEqual(expected(cluster)); // stable
    expect(expected(cluster)).toEqual(first.expected);

    // Old signatures are served as before.
    const old = first.signatures[10]!;
    const tx = await rpc<{ slot: number } | null>(cluster, "getTransaction", [old, { encoding: "json", maxSupportedTransactionVersion: 0 }]);
    expect(tx?.slot).toBe(cluster.ledger.transactions[10]!.slot);

    // New activity goes on from the next slot and executes (takes of offers made before the restart included).
    const added = [...cluster.append("take", 4), ...cluster.append(undefined, 20)];
    expect(added.length).toBeGreaterThan(10);
    expect(added.every((t) => t.slot > first.tip)).toBe(true);
    expect(added.filter((t) => t.result.err === null).length).toBeGreaterThan(10);
    expect(new Set(signatures(cluster)).size).toBe(signatures(cluster).length);
    first.signatures = signatures(cluster);
    first.expected = expected(cluster);
    first.slots = slots(cluster);
    await cluster.stop();
  });

  it("reads back every kept wire transaction (legacy and v0) exactly as web3.js parses it", async () => {
    const cluster = await startLocalCluster({ seed: "persist-wire", history: 300 });
    started.push(cluster);
    const wires = cluster.ledger.transactions.map((t) => t.signed!.wire);
    expect(cluster.ledger.transactions.some((t) => t.signed!.message.version === 0)).toBe(true);
    // web3.js hands instruction data out as Buffers, the reader as Uint8Arrays over the wire: compare bytes.
    const plain = (t: ReturnType<typeof parseWireTransaction>) => ({
      ...t,
      signatures: t.signatures.map((s) => Buffer.from(s).toString("hex")),
      message: { ...t.message, instructions: t.message.instructions.map((ix) => ({ ...ix, data: Buffer.from(ix.data).toString("hex") })) },
    });
    for (const wire of wires) expect(plain(readWireTransaction(wire))).toEqual(plain(parseWireTransaction(wire)));
    expect(() => readWireTransaction(wires[0]!.subarray(0, 100))).toThrow(/malformed wire transaction/);
  });

  it("loads a file whose last record was torn by a crash, and cuts the torn bytes off", async () => {
    const file = ledgerPath(dataDir);
    const torn = "t AQAAAAAAAAAAAAAA"; // half a transaction: no newline
    appendFileSync(file, torn);
    const before = statSync(file).size;
    const cluster = await start();
    expect(cluster.resumed?.droppedBytes).toBe(torn.length);
    expect(statSync(file).size).toBe(before - torn.length);
    expect(signatures(cluster)).toEqual(first.signatures);
    expect(slots(cluster)).toEqual(first.slots);
    expect(expected(cluster)).toEqual(first.expected);
    // and appends after the cut are read back whole
    const added = cluster.append(undefined, 5);
    await cluster.stop();
    const again = await start();
    expect(signatures(again).slice(-added.length)).toEqual(added.map((t) => t.signature));
    await again.stop();
  });

  it("keeps a prune: history forgotten before the stop stays forgotten after it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "ledger-prune-"));
    try {
      const a = await startLocalCluster({ seed: "persist-prune", history: 200, dataDir: dir });
      const firstAvailable = a.prune({ keepTransactions: 50 });
      const forgotten = a.ledger.transactions[0]!.signature;
      const kept = a.ledger.transactions.at(-1)!.signature;
      await a.stop();
      const b = await startLocalCluster({ dataDir: dir });
      started.push(b);
      expect(b.ledger.firstAvailableSlot).toBe(firstAvailable);
      expect(b.ledger.bySignatureAvailable(forgotten)).toBeUndefined();
      expect(b.ledger.bySignatureAvailable(kept)).toBeDefined();
      expect(b.expectedState().fills.length).toBe(a.expectedState().fills.length); // pruned history still happened
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses options that name another chain than the kept ledger's", async () => {
    await expect(startLocalCluster({ dataDir, seed: "another" })).rejects.toThrow(StartupError);
    await expect(startLocalCluster({ dataDir, seed: "another" })).rejects.toThrow(/made with seed persist, not another.*delete/);
  });

  it("makes another chain (another genesis hash) from the same seed without a kept ledger", async () => {
    const a = await startLocalCluster({ seed: "persist", genesisUnixMs: Date.UTC(2025, 0, 1) });
    const b = await startLocalCluster({ seed: "persist", genesisUnixMs: Date.UTC(2025, 0, 2) });
    started.push(a, b);
    expect(a.ledger.genesisHash).not.toBe(b.ledger.genesisHash);
    expect(a.ledger.genesisHash).not.toBe(first.genesis);
  });
});
