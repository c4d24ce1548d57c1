import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readFileSync, readSync, renameSync, writeSync } from "node:fs";
import path from "node:path";
import { StartupError } from "../../platform/startup-error";
import type { Ledger, LedgerTransaction, SlotRecord } from "./ledger";
import { readWireTransaction } from "./wire-read";

/**
 * The local cluster's ledger on disk, so a restart continues the same chain:
 * an append-only text file, one record a line, written as the ledger grows:
 *
 *   h {json}      the header: everything the chain derives from (seed, genesis time, programs, cast)
 *   s <slot>      a new block
 *   t <base64>    a signed wire transaction, in the block above
 *   r <slot>      a rollback to that slot (a fork)
 *   p <slot>      history before that slot pruned
 *
 * Loading replays the records through the ledger's own runtime, which
 * rebuilds accounts, indexes, finality and blockhashes exactly. A record
 * counts only once its newline is written, so a crash (kill -9) mid-write
 * leaves a torn last line that loading drops (and cuts off). Records of one
 * tick are written together; nothing is fsynced (a lost tail is a shorter,
 * still valid chain).
 */

export const LEDGER_FILE = "ledger.log";
/**
 * 2: the wallets' and treasury's token accounts are at their real associated
 * token addresses (format 1 derived them under a mistyped ATA program id); a
 * format-1 ledger is not continued but started anew.
 */
export const JOURNAL_FORMAT = 2;

/** What a ledger file's chain derives from; a restart rebuilds the cluster from it, not from its options. */
export interface JournalHeader {
  format: number;
  seed: string;
  genesisHash: string;
  genesisUnixMs: number;
  firstSlot: number;
  slotMs: number;
  programId: string;
  treasury: string;
  makers: number;
  takers: number;
  crankers: number;
  v0Share: number;
  targetActiveOffers: number;
}

export function ledgerPath(dataDir: string): string {
  return path.join(dataDir, LEDGER_FILE);
}

/** The header of the ledger kept in `dataDir`, or null when there is none (or not even a whole header). */
export function readJournalHeader(dataDir: string): JournalHeader | null {
  const file = ledgerPath(dataDir);
  if (!existsSync(file)) return null;
  const fd = openSync(file, "r");
  try {
    // A header is far below 64 KiB: the file's first read holds it.
    const buffer = Buffer.alloc(64 * 1024);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const end = buffer.subarray(0, length).indexOf(10);
    return end < 0 ? null : parseHeader(buffer.subarray(0, end).toString("utf8"));
  } finally {
    closeSync(fd);
  }
}

function parseHeader(line: string): JournalHeader | null {
  if (!line.startsWith("h ")) return null;
  try {
    const header = JSON.parse(line.slice(2)) as JournalHeader;
    return header.format === JOURNAL_FORMAT && typeof header.genesisHash === "string" ? header : null;
  } catch {
    return null;
  }
}

export interface ReplayResult {
  transactions: number;
  slots: number;
  /** Bytes of a torn last record that were cut off. */
  droppedBytes: number;
}

/**
 * Replays the records after the header into `ledger` (built from the header,
 * genesis installed). A torn or unreadable last line is cut off the file; an
 * unreadable line before the last is corruption and throws.
 */
export function replayJournal(dataDir: string, ledger: Ledger): ReplayResult {
  const file = ledgerPath(dataDir);
  const data = readFileSync(file);
  let offset = data.indexOf(10) + 1; // after the header
  let goodEnd = offset;
  let transactions = 0;
  let slots = 0;
  let line = 1;
  while (offset < data.length) {
    const end = data.indexOf(10, offset);
    line++;
    if (end < 0) break; // torn: no newline yet
    const record = data.subarray(offset, end).toString("latin1");
    try {
      const value = record.slice(2);
      switch (record[0]) {
        case "s":
          ledger.openSlot(Number(value));
          slots++;
          break;
        case "t":
          ledger.append(readWireTransaction(new Uint8Array(Buffer.from(value, "base64"))));
          transactions++;
          break;
        case "r":
          ledger.rollback(Number(value));
          break;
        case "p":
          ledger.prune(Number(value));
          break;
        default:
          throw new Error(`unknown record "${record.slice(0, 20)}"`);
      }
    } catch (error) {
      if (end + 1 < data.length) throw new Error(`${file} line ${line} cannot be replayed (${(error as Error).message}); delete ${dataDir} to start a new chain`);
      break; // the last line: a torn write
    }
    offset = end + 1;
    goodEnd = offset;
  }
  const droppedBytes = data.length - goodEnd;
  if (droppedBytes > 0) {
    const fd = openSync(file, "r+");
    ftruncateSync(fd, goodEnd);
    closeSync(fd);
  }
  return { transactions, slots, droppedBytes };
}

const slotLine = (slot: SlotRecord) => `s ${slot.slot}\n`;
const transactionLine = (tx: LedgerTransaction, wire: Uint8Array | null) => {
  if (!wire || wire.length === 0) throw new Error(`transaction ${tx.signature || "(unsigned)"} has no wire form to keep`);
  return `t ${Buffer.from(wire.buffer, wire.byteOffset, wire.byteLength).toString("base64")}\n`;
};

/**
 * Writes a new ledger file for `ledger` as it stands (the header, then every
 * block and transaction): to a temporary file renamed into place, so a crash
 * meanwhile leaves no ledger rather than half a history.
 */
export function writeJournal(dataDir: string, header: JournalHeader, ledger: Ledger): void {
  mkdirSync(dataDir, { recursive: true });
  const file = ledgerPath(dataDir);
  const temporary = `${file}.tmp`;
  const fd = openSync(temporary, "w");
  try {
    const chunk: string[] = [`h ${JSON.stringify(header)}\n`];
    const flush = () => {
      writeSync(fd, chunk.join(""));
      chunk.length = 0;
    };
    for (const slot of ledger.slots.slice(1)) {
      chunk.push(slotLine(slot));
      for (let p = slot.firstPosition; p < slot.firstPosition + slot.transactionCount; p++) {
        const tx = ledger.transactions[p] as LedgerTransaction;
        chunk.push(transactionLine(tx, ledger.wireOf(tx)));
      }
      if (chunk.length >= 2_000) flush();
    }
    flush();
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}

/**
 * Appends what the ledger does from now on. Each record is formed at once;
 * the records of one tick are written together in one call.
 */
export class JournalWriter {
  private readonly fd: number;
  private pending: string[] = [];
  private scheduled = false;
  private closed = false;

  constructor(dataDir: string, ledger: Ledger) {
    this.fd = openSync(ledgerPath(dataDir), "a");
    ledger.listeners.opened.push((slot) => this.push(slotLine(slot)));
    ledger.listeners.appended.push((tx) => this.push(transactionLine(tx, ledger.wireOf(tx))));
    ledger.listeners.rolledBack.push((_removed, toSlot) => this.push(`r ${toSlot}\n`));
    ledger.listeners.pruned.push((beforeSlot) => this.push(`p ${beforeSlot}\n`));
  }

  private push(record: string): void {
    if (this.closed) return;
    this.pending.push(record);
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(() => this.flush());
    }
  }

  flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0 || this.closed) return;
    const text = this.pending.join("");
    this.pending = [];
    writeSync(this.fd, text);
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    closeSync(this.fd);
  }
}

/**
 * A kept ledger decides its own chain; options that name another seed or
 * program than the ledger was made with are a mistake to say, not to follow.
 */
export function checkHeaderAgainst(header: JournalHeader, dataDir: string, asked: { seed?: string; programId?: string; treasury?: string }): void {
  for (const key of ["seed", "programId", "treasury"] as const) {
    const value = asked[key];
    if (value !== undefined && value !== header[key]) {
      throw new StartupError(
        `the ledger kept in ${dataDir} was made with ${key} ${header[key]}, not ${value}`,
        `use that ${key}, or delete ${dataDir} to start a new chain`,
      );
    }
  }
}
