import type { Logger } from "pino";
import type postgres from "postgres";
import { decodeOfferAccount } from "../lib/program";
import { appendOfferRows, applyAccountSnapshot, insertOffers, touchOffers, type NewOffer } from "../lib/db/writes";
import { offerRowFromAccount } from "./offer-row";
import type { Lease } from "./leader-lock";
import type { ProgramRpc } from "./rpc";

/**
 * Compares the indexed offers with the program's active Offer accounts: an
 * account the rows disagree with (or have never seen: created before the
 * history the RPC holds) wins, as of the slot it was read at, and every offer
 * seen gets that slot as its lastSlot.
 */
export async function reconcileOffers(sql: postgres.Sql, write: Lease["write"], rpc: ProgramRpc, log: Logger): Promise<{ seen: number; corrected: number }> {
  const { slot, accounts } = await rpc.activeOfferAccounts();
  let corrected = 0;
  const seen: string[] = [];
  const rows = await sql<{ pda: string; remaining: string; state: string }[]>`
    select pda, remaining_size::text as remaining, state::text from offers where pda = any(${accounts.map((a) => a.pda)}::text[])`;
  const byPda = new Map(rows.map((r) => [r.pda, r]));
  await write(async (tx) => {
    // Pipelined, in order, in one transaction.
    const writes: PromiseLike<unknown>[] = [];
    const unseen: NewOffer[] = [];
    const changed: string[] = [];
    for (const { pda, data } of accounts) {
      const offer = data && decodeOfferAccount(data);
      if (!offer) continue;
      seen.push(pda);
      const row = byPda.get(pda);
      if (!row) {
        corrected++;
        unseen.push(offerRowFromAccount(pda, offer, slot));
      } else if (row.remaining !== offer.remainingSize.toString() || row.state !== offer.state) {
        // The row may only lag the account (the scan has not reached this slot):
        // the snapshot holds as of its slot, and the fills it already includes
        // will not lower it again when the scan reaches them.
        writes.push(
          applyAccountSnapshot(tx, pda, { remainingSize: offer.remainingSize, state: offer.state, slot }).then(([applied]) => {
            if (applied) {
              corrected++;
              changed.push(applied.pda);
            }
          }),
        );
      }
    }
    if (unseen.length) writes.push(insertOffers(tx, unseen).then((rows) => changed.push(...rows.map((r) => r.pda))));
    for (let i = 0; i < seen.length; i += 5000) writes.push(touchOffers(tx, seen.slice(i, i + 5000), slot));
    await Promise.all(writes);
    // A corrected row is a change like any other to the live feed.
    await appendOfferRows(tx, changed);
  });
  // Only a correction is news; a routine check that found nothing is debug. A
  // row behind its account is most often one the scan has not reached yet
  // (accounts are read at the newest slot), not a fault: the line says so.
  log[corrected ? "info" : "debug"](
    { accounts: seen.length, corrected, slot: slot.toString() },
    corrected
      ? "reconciled offers with their accounts: rows brought up to the accounts' state (ahead of the scan, or from before the history the RPC holds)"
      : "reconciled offers with their accounts",
  );
  return { seen: seen.length, corrected };
}
