import type { Logger } from "pino";
import type { Checkpoint } from "../lib/db/writes";
import { createReportGate, exponentialBackoff, sleep } from "../lib/resilience";
import { NotYetAvailableError, type SignatureRef } from "./batch";
import type { ProgramRpc, SignatureInfo } from "./rpc";

const PAGE = 1000;
const PROGRESS_EVERY_MS = 5000;
/** Before asking again after an empty page for a `before` the node does not know: 1 s, doubling to 30 s. */
const unknownBeforeDelay = exponentialBackoff({ baseMs: 500, maxMs: 30_000 });

/**
 * The program's signatures after the checkpoint, planned as page cursors
 * rather than held: memory stays flat however long the history.
 *
 * Planning pages backwards from the tip with `before` only (never `until`,
 * which a node that is behind drops silently, answering with its newest page)
 * until it meets the checkpoint's signature, a signature older than the
 * checkpoint's slot (with a checkpoint signature not met: it was rolled back,
 * and nothing is planned until finality settles the fork; see
 * checkpointRolledBack), or the program's first signature. An empty page after `before` is either the end of history
 * or a node that does not know `before` (it is behind, or another node behind
 * a balancer answered): the end is trusted only once the node confirms it
 * knows `before`.
 *
 * It keeps the newest page's entries (a page read without `before` moves with
 * the tip, so it cannot be read again the same) and, for each older page, the
 * `before` it was read with, its first signature and how many of its entries
 * are new. `batches` then reads the older pages again, oldest first, with the
 * same `before`: a page that no longer starts with the same signature (a fork
 * replaced it) ends the round, which starts again from the checkpoint the
 * batches committed so far have moved.
 */
export interface SignaturePlan {
  /** Signatures after the checkpoint. */
  total: number;
  /** The newest signature planned (for the lag), if any. */
  newest: SignatureRef | null;
  /** Nothing planned because the checkpoint was rolled back (checkpointRolledBack): the index is not at the tip. */
  awaitingFork?: boolean;
  /** The signatures, oldest first, in batches of `size`. Call once. */
  batches(size: number): AsyncGenerator<SignatureRef[]>;
}

interface PageCursor {
  before: string;
  first: string;
  count: number;
}

/** The history changed between planning and reading (a fork): plan again from the checkpoint. */
export class HistoryChangedError extends NotYetAvailableError {
  override name = "HistoryChangedError";
}

const ref = (info: SignatureInfo): SignatureRef => ({ signature: info.signature, slot: info.slot });

export async function planSignatures(rpc: ProgramRpc, checkpoint: Checkpoint, log: Logger, signal: AbortSignal): Promise<SignaturePlan> {
  let tip: SignatureRef[] = [];
  const older: PageCursor[] = [];
  let total = 0;
  let before: string | undefined;
  let unknownBefore = 0;
  let lastProgress = Date.now();
  for (;;) {
    if (signal.aborted) break;
    const page = await rpc.signaturesBefore(before, PAGE);
    if (page.length === 0) {
      if (before === undefined) break; // the program has no transactions yet
      const [status] = await rpc.statuses([before]);
      if (status) break; // the node knows `before`: this is the program's first signature
      unknownBefore++;
      log.warn({ before, attempt: unknownBefore }, "empty page for a `before` the node does not know: not the end of history; retrying");
      await sleep(unknownBeforeDelay(unknownBefore), signal);
      continue;
    }
    unknownBefore = 0;
    let count = 0;
    for (const info of page) {
      if (info.signature === checkpoint.lastSignature) break;
      if (checkpoint.lastSlot !== null && BigInt(info.slot) < checkpoint.lastSlot) {
        if (checkpoint.lastSignature !== null) return checkpointRolledBack(checkpoint, log);
        break;
      }
      count++;
    }
    if (before === undefined) tip = page.slice(0, count).map(ref);
    else if (count > 0) older.push({ before, first: page[0]!.signature, count });
    total += count;
    if (count < page.length) break; // met the checkpoint
    before = page.at(-1)!.signature;
    if (Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
      lastProgress = Date.now();
      log.info({ signatures: total, slot: page.at(-1)!.slot }, "counting the history to scan");
    }
  }
  return {
    total,
    newest: tip[0] ?? null,
    async *batches(size) {
      let batch: SignatureRef[] = [];
      for (let p = older.length - 1; p >= -1; p--) {
        const entries = p >= 0 ? await readAgain(rpc, older[p]!) : tip;
        for (let i = entries.length - 1; i >= 0; i--) {
          batch.push(entries[i]!);
          if (batch.length === size) {
            yield batch;
            batch = [];
          }
        }
      }
      if (batch.length) yield batch;
    },
  };
}

const rolledBackGate = createReportGate(30_000);

/**
 * The history passed below the checkpoint's slot without listing its
 * signature: the checkpoint's transaction was on a fork the cluster dropped
 * (or the node is behind it). The chain that won may hold transactions below
 * the checkpoint's slot as well as above it; applying only those above would
 * apply them out of order and pass over the rest for good. So nothing is
 * planned until the finality check undoes the dropped transactions and moves
 * the checkpoint back before them (worker/finality.ts; if the checkpoint's
 * own transaction survived by landing again at another slot, it moves the
 * checkpoint to that slot); then the winner is read in order.
 */
function checkpointRolledBack(checkpoint: Checkpoint, log: Logger): SignaturePlan {
  const report = rolledBackGate.due() !== null;
  log[report ? "warn" : "debug"](
    { checkpoint: checkpoint.lastSignature, slot: checkpoint.lastSlot?.toString() },
    "the checkpoint's transaction is not on the chain the node follows (a fork): waiting for finality to settle it (or the node is behind it)",
  );
  return { total: 0, newest: null, awaitingFork: true, batches: async function* () {} };
}

/** A planned page read again with its `before`: the same entries, newest first, or HistoryChangedError. */
async function readAgain(rpc: ProgramRpc, cursor: PageCursor): Promise<SignatureRef[]> {
  const page = await rpc.signaturesBefore(cursor.before, PAGE);
  if (page[0]?.signature !== cursor.first || page.length < cursor.count) {
    throw new HistoryChangedError(`the page before ${cursor.before} changed since it was planned (a fork, or a node behind): planning again`);
  }
  return page.slice(0, cursor.count).map(ref);
}
