import bs58 from "bs58";
import { Connection, Keypair, type Logs, TransactionInstruction, TransactionMessage, VersionedTransaction, type PublicKey } from "@solana/web3.js";
import WebSocket from "ws";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LocalCluster, startLocalCluster } from "../../../local/cluster/index";
import { MEMO_PROGRAM } from "../../../local/cluster/transaction-executor";
import { until } from "../../helpers/until";

// The local cluster's PubSub WebSocket, driven by @solana/web3.js's own
// Connection (onLogs, onSignature, onSlotChange, confirmTransaction): what it
// accepts is what a validator sends.

const GENESIS = Date.UTC(2025, 0, 1);
let cluster: LocalCluster;
const connections: Connection[] = [];

beforeEach(async () => {
  cluster = await startLocalCluster({ seed: "pubsub", history: 400, genesisUnixMs: GENESIS });
});

afterEach(async () => {
  // web3.js reconnects its socket forever: stop that before the cluster goes.
  for (const c of connections.splice(0)) {
    const socket = (c as unknown as { _rpcWebSocket: { setAutoReconnect(on: boolean): void; close(): void } })._rpcWebSocket;
    socket.setAutoReconnect(false);
    socket.close();
  }
  await cluster.stop();
});

function connect(options: { wsEndpoint?: string } = {}): Connection {
  const connection = new Connection(cluster.url, { commitment: "confirmed", ...options });
  connections.push(connection);
  return connection;
}

/** Subscriptions the cluster holds, as its admin route reports them. */
async function serverSubscriptions(): Promise<number> {
  const res = await fetch(`${cluster.url}/_admin/websocket`);
  return ((await res.json()) as { subscriptions: number }).subscriptions;
}

/** A signed memo transaction from one of the cluster's wallets, with its signature known before it is sent. */
async function memoTransaction(connection: Connection, text: string): Promise<{ wire: Uint8Array; signature: string; blockhash: string; lastValidBlockHeight: number }> {
  const payer = Keypair.fromSecretKey(cluster.world.makers[0]!.secretKey());
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash("confirmed");
  const memo = new TransactionInstruction({ programId: cluster.world.publicKey(MEMO_PROGRAM), keys: [], data: Buffer.from(text) });
  const tx = new VersionedTransaction(new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions: [memo] }).compileToV0Message());
  tx.sign([payer]);
  return { wire: tx.serialize(), signature: bs58.encode(tx.signatures[0]!), blockhash, lastValidBlockHeight };
}

describe("logsSubscribe", () => {
  it("notifies a take to mentions-of-the-program and `all` subscribers with its signature, err and logs, and stops after unsubscribe", async () => {
    const connection = connect();
    const program = cluster.world.publicKey(cluster.programId) as PublicKey;
    const mentions: Array<[Logs, number]> = [];
    const all: Array<[Logs, number]> = [];
    const mentionsId = connection.onLogs(program, (logs, ctx) => mentions.push([logs, ctx.slot]), "confirmed");
    connection.onLogs("all", (logs, ctx) => all.push([logs, ctx.slot]), "confirmed");
    await until("two subscriptions", async () => (await serverSubscriptions()) === 2);

    const [take] = cluster.append("take");
    const [failed] = cluster.append("failed_take");
    await until("both takes", () => mentions.length === 2 && all.length === 2);
    expect(mentions.map(([l, slot]) => [l.signature, l.err, l.logs, slot])).toEqual([
      [take!.signature, null, take!.result.logMessages, take!.slot],
      [failed!.signature, failed!.result.err, failed!.result.logMessages, failed!.slot],
    ]);
    expect(mentions[1]![0].err).toMatchObject({ InstructionError: expect.any(Array) });
    expect(all.map(([l]) => l.signature)).toEqual([take!.signature, failed!.signature]);

    await connection.removeOnLogsListener(mentionsId);
    await until("the unsubscribe", async () => (await serverSubscriptions()) === 1);
    cluster.append("take");
    await until("the `all` subscriber's third", () => all.length === 3);
    expect(mentions).toHaveLength(2);
  });

  it("at finalized, notifies a transaction once its block is final, and never one a rollback dropped; confirmed heard both forks", async () => {
    const connection = connect();
    const program = cluster.world.publicKey(cluster.programId) as PublicKey;
    const confirmed: string[] = [];
    const finalized: string[] = [];
    connection.onLogs(program, (logs) => confirmed.push(logs.signature), "confirmed");
    connection.onLogs(program, (logs) => finalized.push(logs.signature), "finalized");
    await until("two subscriptions", async () => (await serverSubscriptions()) === 2);

    const dropped = cluster.append("take").map((t) => t.signature);
    await until("the confirmed notification", () => confirmed.length === 1);
    const fork = cluster.rollback({ replaceSlots: 1 });
    expect(fork.removedSignatures).toEqual(expect.arrayContaining(dropped));
    await until("the fork's transactions at confirmed", () => confirmed.length === 1 + fork.addedSignatures.filter((s) => cluster.ledger.bySignatureAvailable(s)?.addresses.includes(cluster.programId)).length);
    expect(finalized).toEqual([]);

    cluster.advanceSlots(40);
    await until("the fork, final", () => finalized.length > 0 && finalized.length === confirmed.length - 1);
    expect(finalized).toEqual(confirmed.slice(1));
    expect(finalized).not.toContain(dropped[0]);
  });

  it("refuses more than one address, a bad address and an unknown unsubscribe id in the JSON-RPC error shape", async () => {
    const socket = new WebSocket(cluster.wsUrl);
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
    const answers: unknown[] = [];
    socket.on("message", (data) => answers.push(JSON.parse(String(data))));
    const program = cluster.programId;
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "logsSubscribe", params: [{ mentions: [program, program] }] }));
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "logsSubscribe", params: [{ mentions: ["not-an-address"] }] }));
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "logsUnsubscribe", params: [12345] }));
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "logsSubscribe", params: [{ mentions: [program] }, { commitment: "confirmed" }] }));
    socket.send("{not json");
    await until("five answers", () => answers.length === 5);
    socket.close();
    expect(answers).toEqual([
      { jsonrpc: "2.0", error: { code: -32602, message: "Invalid Request: Only 1 address supported" }, id: 1 },
      { jsonrpc: "2.0", error: { code: -32602, message: "Invalid Request: Invalid pubkey provided" }, id: 2 },
      { jsonrpc: "2.0", error: { code: -32602, message: "Invalid subscription id." }, id: 3 },
      { jsonrpc: "2.0", result: expect.any(Number), id: 4 },
      { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null },
    ]);
    await until("the closed connection's subscription to end", async () => (await serverSubscriptions()) === 0);
  });
});

describe("signatureSubscribe", () => {
  it("fires once at the requested commitment, only when the block gets there, then ends by itself", async () => {
    const connection = connect();
    const memo = await memoTransaction(connection, "signature at finalized");
    const seen: unknown[] = [];
    connection.onSignature(memo.signature, (result, ctx) => seen.push([result, ctx.slot]), "finalized");
    await until("the subscription", async () => (await serverSubscriptions()) === 1);

    const signature = await connection.sendRawTransaction(memo.wire, { skipPreflight: true });
    const slot = cluster.ledger.bySignatureAvailable(signature)!.slot;
    cluster.advanceSlots(10);
    await new Promise((r) => setTimeout(r, 100)); // a grace period for an absence: a notification sent too early would be here by now
    expect(seen).toEqual([]);
    cluster.advanceSlots(40);
    await until("the finalized notification", () => seen.length === 1);
    expect(seen).toEqual([[{ err: null }, slot]]);
    // web3.js sends no unsubscribe for a signature: the node ends it.
    await until("the subscription to end by itself", async () => (await serverSubscriptions()) === 0);
  });

  it("sends receivedSignature first when asked (web3.js reads it as received), then the status at the commitment", async () => {
    const connection = connect();
    const memo = await memoTransaction(connection, "received first");
    const web3Seen: unknown[] = [];
    connection.onSignatureWithOptions(memo.signature, (notification) => web3Seen.push(notification), { commitment: "confirmed", enableReceivedNotification: true });
    const socket = new WebSocket(cluster.wsUrl);
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
    const raw: unknown[] = [];
    socket.on("message", (data) => raw.push(JSON.parse(String(data))));
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "signatureSubscribe", params: [memo.signature, { commitment: "confirmed", enableReceivedNotification: true }] }));
    await until("both subscriptions", async () => (await serverSubscriptions()) === 2);

    await connection.sendRawTransaction(memo.wire, { skipPreflight: true });
    await until("three messages", () => raw.length === 3);
    socket.close();
    const slot = cluster.ledger.bySignatureAvailable(memo.signature)!.slot;
    const id = (raw[0] as { result: number }).result;
    expect(raw).toEqual([
      { jsonrpc: "2.0", result: id, id: 7 },
      { jsonrpc: "2.0", method: "signatureNotification", params: { result: { context: { slot }, value: "receivedSignature" }, subscription: id } },
      { jsonrpc: "2.0", method: "signatureNotification", params: { result: { context: { slot }, value: { err: null } }, subscription: id } },
    ]);
    await until("web3.js's notification", () => web3Seen.length === 1);
    expect(web3Seen).toEqual([{ type: "received" }]);
  });

  it("lets confirmTransaction follow a transaction to finalized", async () => {
    const connection = connect();
    const memo = await memoTransaction(connection, "confirm me");
    const signature = await connection.sendRawTransaction(memo.wire, { skipPreflight: true });
    const confirmation = connection.confirmTransaction({ signature, blockhash: memo.blockhash, lastValidBlockHeight: memo.lastValidBlockHeight }, "finalized");
    await until("confirmTransaction's subscription", async () => (await serverSubscriptions()) >= 1);
    cluster.advanceSlots(40);
    const result = await confirmation;
    expect(result.value.err).toBeNull();
    expect(result.context.slot).toBe(cluster.ledger.bySignatureAvailable(signature)!.slot);
  });
});

describe("slotSubscribe", () => {
  it("notifies each new block with its parent and the root", async () => {
    const connection = connect();
    const slots: Array<{ slot: number; parent: number; root: number }> = [];
    const id = connection.onSlotChange((info) => slots.push(info));
    await until("the subscription", async () => (await serverSubscriptions()) === 1);
    const before = cluster.ledger.tip.slot;
    cluster.advanceSlots(3);
    await until("three slots", () => slots.length === 3);
    expect(slots).toEqual([1, 2, 3].map((i) => ({ slot: before + i, parent: before + i - 1, root: expect.any(Number) })));
    expect(slots[2]!.root).toBe(cluster.ledger.finalizedSlot);
    await connection.removeSlotChangeListener(id);
    await until("the unsubscribe", async () => (await serverSubscriptions()) === 0);
  });
});

describe("where it listens", () => {
  it("answers on the RPC port + 1, where web3.js looks, and on the RPC port through the upgrade", async () => {
    expect(cluster.wsPort).toBe(cluster.port + 1);
    expect(cluster.env.SOLANA_WS_URL).toBe(`ws://127.0.0.1:${cluster.port + 1}`);
    const onRpcPort = connect({ wsEndpoint: `ws://127.0.0.1:${cluster.port}` });
    const slots: number[] = [];
    onRpcPort.onSlotChange((info) => slots.push(info.slot));
    await until("the subscription", async () => (await serverSubscriptions()) === 1);
    cluster.advanceSlots(1);
    await until("a slot", () => slots.length === 1);
  });
});
