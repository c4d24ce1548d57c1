import { Worker } from "node:worker_threads";
import type { LocalKeypair } from "./keys";

/**
 * Ed25519 signing on a worker thread, so building a large ledger uses both
 * cores: the main thread executes transactions while the worker signs them.
 * The worker is plain CommonJS passed as source, so it runs the same under
 * tsx, vitest and plain node.
 */
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { createPrivateKey, sign } = require("node:crypto");
const PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const keys = new Map();
function keyFor(seedHex) {
  let key = keys.get(seedHex);
  if (!key) {
    key = createPrivateKey({ key: Buffer.concat([PREFIX, Buffer.from(seedHex, "hex")]), format: "der", type: "pkcs8" });
    keys.set(seedHex, key);
  }
  return key;
}
parentPort.on("message", ({ id, messages, signers }) => {
  const out = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    out.push(signers[i].map((seedHex) => new Uint8Array(sign(null, message, keyFor(seedHex)))));
  }
  parentPort.postMessage({ id, signatures: out });
});
`;

export interface SigningJob {
  message: Uint8Array;
  /** In the order of the message's signer keys. */
  signers: readonly LocalKeypair[];
}

export class SignerPool {
  private readonly worker: Worker;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (signatures: Uint8Array[][]) => void; reject: (error: Error) => void }>();

  constructor() {
    this.worker = new Worker(WORKER_SOURCE, { eval: true });
    this.worker.on("message", ({ id, signatures }: { id: number; signatures: Uint8Array[][] }) => {
      this.pending.get(id)?.resolve(signatures);
      this.pending.delete(id);
    });
    this.worker.on("error", (error) => {
      for (const job of this.pending.values()) job.reject(error);
      this.pending.clear();
    });
  }

  sign(jobs: readonly SigningJob[]): Promise<Uint8Array[][]> {
    const id = this.nextId++;
    const hex = new Map<LocalKeypair, string>();
    const seedHex = (k: LocalKeypair) => {
      let h = hex.get(k);
      if (h === undefined) {
        h = Buffer.from(k.seed).toString("hex");
        hex.set(k, h);
      }
      return h;
    };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, messages: jobs.map((j) => j.message), signers: jobs.map((j) => j.signers.map(seedHex)) });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
