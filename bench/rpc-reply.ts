import { decodeTransaction } from "../lib/program/transaction-decoder";
import { startLocalCluster } from "../local/cluster";
import { freePort } from "../platform/postgres/embedded";
import { log } from "./harness";

// npm run bench:rpc-reply — what the worker spends reading a batch's reply
// (the bytes joined, made one string, JSON.parse and the decoder), per
// transaction, for batches of RPC_REPLY_SIZES (100,50,32,25) getTransaction
// calls in the `json` encoding, over RPC_REPLY_TRANSACTIONS (10000) of the
// bench ledger. The replies are fetched once; the reading is timed in
// RPC_REPLY_ROUNDS (3) rounds, sizes interleaved. A string over V8's largest
// regular object (128 KB) lives in the large-object space: on this machine it
// costs several times more to build and collect (docs/benchmarks.md, "Third pass").

const TRANSACTIONS = Number(process.env.RPC_REPLY_TRANSACTIONS ?? 10_000);
const SIZES = (process.env.RPC_REPLY_SIZES ?? "100,50,32,25").split(",").map(Number);
const ROUNDS = Number(process.env.RPC_REPLY_ROUNDS ?? 3);

const cluster = await startLocalCluster({ seed: "bench-scan", history: TRANSACTIONS, live: false, archiveHistory: true, port: await freePort() });
const signatures = cluster.ledger.transactions.map((t) => t.signature);
const config = JSON.stringify({ encoding: "json", commitment: "confirmed", maxSupportedTransactionVersion: 0 });
const replies = new Map<number, Buffer[][]>();
for (const size of SIZES) {
  const chunked: Buffer[][] = [];
  for (let i = 0; i < signatures.length; i += size) {
    const calls = signatures.slice(i, i + size).map((s, j) => `{"jsonrpc":"2.0","id":${i + j},"method":"getTransaction","params":["${s}",${config}]}`);
    const response = await fetch(cluster.env.SOLANA_RPC_URL, { method: "POST", headers: { "content-type": "application/json" }, body: `[${calls.join(",")}]` });
    const bytes = Buffer.from(await response.arrayBuffer());
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 65_536) chunks.push(bytes.subarray(at, at + 65_536)); // as a socket delivers it
    chunked.push(chunks);
  }
  replies.set(size, chunked);
}
await cluster.stop();
log(`${signatures.length.toLocaleString()} transactions fetched in batches of ${SIZES.join(", ")}`);

const times = new Map<number, number[]>(SIZES.map((s) => [s, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [size, chunked] of replies) {
    const before = process.cpuUsage();
    for (const chunks of chunked) {
      for (const reply of JSON.parse(Buffer.concat(chunks).toString()) as { result: Parameters<typeof decodeTransaction>[0] }[]) {
        decodeTransaction(reply.result, cluster.programId);
      }
    }
    const used = process.cpuUsage(before);
    times.get(size)!.push(((used.user + used.system) / signatures.length));
  }
}
for (const [size, chunked] of replies) {
  const kb = chunked.reduce((sum, chunks) => sum + chunks.reduce((n, c) => n + c.length, 0), 0) / chunked.length / 1024;
  const us = [...times.get(size)!].sort((a, b) => a - b);
  console.log(`batch ${String(size).padStart(3)}: reply ${kb.toFixed(0).padStart(4)} KB; read ${us.map((x) => x.toFixed(1)).join(" ")} us/transaction, median ${us[Math.floor(us.length / 2)]!.toFixed(1)}`);
}
process.exit(0);
