import type { Logger } from "pino";
import type postgres from "postgres";
import { decodeOfferAccount } from "../lib/program";
import {
  appendOfferRows,
  appendRevocations,
  applyAccountSnapshot,
  markFinalized,
  newestScanned,
  offersReadSince,
  readCheckpoint,
  revocationOf,
  undoTransaction,
  unfinalizedUpTo,
  writeCheckpoint,
  type Revocation,
} from "../lib/db/writes";
import type { Lease } from "./leader-lock";
import type { ProgramRpc } from "./rpc";

/**
 * Data applied at `confirmed` can still be rolled back. Once the cluster has
 * finalized past an applied transaction, ask whether it survived: kept ones are
 * marked final; dropped ones are undone, and the checkpoint moves back to the
 * newest surviving transaction so the next scan picks up what replaced them.
 * An offer whose account was read from the dropped fork is read again from the
 * chain that won, in the same transaction as the undo.
 */
export async function settleFinality(sql: postgres.Sql, write: Lease["write"], rpc: ProgramRpc, programId: string, log: Logger): Promise<number> {
  const finalizedSlot = BigInt(await rpc.slot("finalized"));
  const checkpoint = await readCheckpoint(sql, programId);
  let dropped = 0;
  let oldestGone: bigint | null = null;
  let relanded: bigint | null = null;
  for (;;) {
    const candidates = await unfinalizedUpTo(sql, finalizedSlot, 1000);
    if (candidates.length === 0) break;
    const statuses = await rpc.statuses(candidates.map((c) => c.signature));
    const kept: string[] = [];
    const gone: string[] = [];
    candidates.forEach((c, i) => {
      const status = statuses[i] as { slot?: unknown } | null;
      (status ? kept : gone).push(c.signature);
      if (!status && (oldestGone === null || c.slot < oldestGone)) oldestGone = c.slot;
      if (c.signature === checkpoint.lastSignature && typeof status?.slot === "number" && BigInt(status.slot) !== c.slot) relanded = BigInt(status.slot);
    });
    if (kept.length) await write((tx) => markFinalized(tx, kept));
    if (gone.length) await undoDropped(sql, write, rpc, programId, gone);
    if (gone.length) log.warn({ dropped: gone }, "transactions dropped by the cluster were undone");
    dropped += gone.length;
    if (candidates.length < 1000) break;
  }
  if (relanded !== null) await rewindRelanded(write, programId, relanded, oldestGone, log);
  return dropped;
}

/**
 * The checkpoint's own transaction survived the fork but landed again at
 * another slot in the chain that won, so the scan (which looks for it at its
 * old slot, worker/signatures.ts) would wait forever. Now that the fork's
 * dropped transactions are undone, the scan starts again, with no signature,
 * from the lower of that slot and the oldest dropped one's: what was applied
 * already is skipped, the rest applied in order.
 */
async function rewindRelanded(write: Lease["write"], programId: string, relanded: bigint, oldestGone: bigint | null, log: Logger): Promise<void> {
  const lastSlot = oldestGone !== null && oldestGone < relanded ? oldestGone : relanded;
  await write((tx) => writeCheckpoint(tx, programId, { lastSignature: null, lastSlot }));
  log.warn({ slot: lastSlot.toString() }, "the checkpoint's transaction landed again at another slot: scanning again from there");
}

/**
 * Undoes transactions the cluster dropped, in one database transaction: the
 * live feed is told a revoke per undone transaction (newest first, as
 * undone), then the offers' restored rows; an offer whose account was read
 * from the dropped fork is read again from the chain that won; the checkpoint
 * moves back to the newest surviving transaction if it was one of them. Used
 * by the finality check and by a Geyser stream's dead slot.
 */
export async function undoDropped(sql: postgres.Sql, write: Lease["write"], rpc: ProgramRpc, programId: string, gone: string[]): Promise<void> {
  const reread = await rpc.offerAccounts(await offersReadSince(sql, gone));
  await write(async (tx) => {
    const revoked: Revocation[] = [];
    for (const signature of [...gone].reverse()) {
      const revocation = await revocationOf(tx, signature);
      if (revocation) revoked.push(revocation);
      await undoTransaction(tx, signature);
    }
    for (const { pda, data } of reread.accounts) {
      const offer = data && decodeOfferAccount(data);
      if (offer) await applyAccountSnapshot(tx, pda, { remainingSize: offer.remainingSize, state: offer.state, slot: reread.slot }, { replace: true });
    }
    await appendRevocations(tx, revoked);
    await appendOfferRows(tx, revoked.flatMap((r) => r.offerPdas));
    const checkpoint = await readCheckpoint(tx, programId);
    if (checkpoint.lastSignature && gone.includes(checkpoint.lastSignature)) {
      await writeCheckpoint(tx, programId, await newestScanned(tx));
    }
  });
}
