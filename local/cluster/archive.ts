/**
 * Old transactions' served forms, off the JS heap. A transaction past the
 * undo window can no longer roll back, and a node serves it only as bytes:
 * its wire form, its `json` encoding and its meta. Kept as objects, a million
 * of them fill a 10 GB heap that every major GC marks again (the cluster's
 * serving cost grew sevenfold from 128k to 1M transactions); kept here, they
 * are slices of a few large buffers the GC never traces, located by typed
 * arrays (20 bytes a transaction).
 */

import type { LedgerTransaction } from "./ledger-types";
import { metaJson, transactionJson } from "./render";

const CHUNK_BYTES = 64 * 1024 * 1024;

/** An entry's parts, stored one after another in this order. */
const PARTS = ["wire", "transaction", "meta"] as const;
export type ArchivedPart = (typeof PARTS)[number];

export class TransactionArchive {
  private readonly chunks: Buffer[] = [];
  private chunkUsed = CHUNK_BYTES;
  private count = 0;
  // Per entry: chunk, offset of its first byte, and the three parts' lengths (wire, transaction JSON, meta JSON).
  private chunkOf = new Uint32Array(1024);
  private offsetOf = new Uint32Array(1024);
  private lengths = new Uint32Array(3 * 1024);

  /** Stores the three forms; returns the entry's id. */
  store(wire: Uint8Array, transactionJson: string, metaJson: string): number {
    const transactionBytes = Buffer.byteLength(transactionJson, "latin1");
    const metaBytes = Buffer.byteLength(metaJson, "utf8");
    const size = wire.byteLength + transactionBytes + metaBytes;
    if (this.chunkUsed + size > CHUNK_BYTES) {
      this.chunks.push(Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, size)));
      this.chunkUsed = 0;
    }
    const chunk = this.chunks[this.chunks.length - 1] as Buffer;
    const start = this.chunkUsed;
    chunk.set(wire, start);
    // The transaction JSON is base58, digits and punctuation: one byte a character.
    chunk.write(transactionJson, start + wire.byteLength, "latin1");
    chunk.write(metaJson, start + wire.byteLength + transactionBytes, "utf8");
    this.chunkUsed += size;

    const id = this.count++;
    this.ensureCapacity(this.count);
    this.chunkOf[id] = this.chunks.length - 1;
    this.offsetOf[id] = start;
    this.lengths.set([wire.byteLength, transactionBytes, metaBytes], 3 * id);
    return id;
  }

  /** One part of an entry, as a view into its chunk (no copy). */
  bytes(id: number, part: ArchivedPart): Buffer {
    if (id >= this.count) throw new Error(`no archived transaction ${id}`);
    const chunk = this.chunks[this.chunkOf[id] as number] as Buffer;
    const lengths = this.lengths.subarray(3 * id, 3 * id + 3);
    const index = PARTS.indexOf(part);
    const start = (this.offsetOf[id] as number) + lengths.subarray(0, index).reduce((sum, n) => sum + n, 0);
    return chunk.subarray(start, start + (lengths[index] as number));
  }

  text(id: number, part: "transaction" | "meta"): string {
    return this.bytes(id, part).toString(part === "meta" ? "utf8" : "latin1");
  }

  /** Bytes held in chunks (what the archive costs outside the heap). */
  get byteSize(): number {
    return this.chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  }

  private ensureCapacity(entries: number): void {
    if (entries <= this.chunkOf.length) return;
    this.chunkOf = doubled(this.chunkOf);
    this.offsetOf = doubled(this.offsetOf);
    this.lengths = doubled(this.lengths);
  }
}

function doubled(array: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  const next = new Uint32Array(array.length * 2);
  next.set(array);
  return next;
}

const NOTHING: never[] = Object.freeze([]) as never[];

/**
 * Moves a settled transaction's served forms into the archive and lets go of
 * the objects they were rendered from. What stays: its place, signature, error,
 * memo and effects (the expected state and getSignaturesForAddress read them).
 */
export function archiveTransaction(archive: TransactionArchive, tx: LedgerTransaction): void {
  const signed = tx.signed;
  if (!signed) throw new Error(`transaction ${tx.signature} has nothing to archive`);
  tx.archived = archive.store(signed.wire, transactionJson(tx, "json", null), metaJson(tx, null));
  tx.signed = null;
  tx.messageBytes = null;
  tx.addresses = NOTHING; // only a rollback reads them, and it cannot reach an archived transaction
  const r = tx.result;
  r.logMessages = r.preBalances = r.postBalances = r.innerInstructions = r.undo = NOTHING;
  r.loadedAddresses = { writable: NOTHING, readonly: NOTHING };
}
