import type { Ledger } from "./ledger";
import { type AccountEncoding, accountJson, closedAccountJson, decimalsAt } from "./rpc-accounts";
import type { AccountRecord } from "./state";

/**
 * accountSubscribe's change detection: which states of an account a
 * subscriber hears of as the commitment it subscribed at moves on. As on a
 * validator, each slot in which the account changed is notified once, with
 * the account as that slot left it (at `confirmed` and `processed` the tip
 * block is still filling, so each transaction that lands and changes it is
 * heard); an account that was closed is notified as the default account; a
 * fork that takes a change back is notified as the account it restored.
 * Nothing is sent at subscribing.
 */

export interface AccountWatch {
  address: string;
  encoding: AccountEncoding;
  slice: { offset: number; length: number } | null;
  /** The account as last notified, or as it was at subscribing. The ledger replaces records, never mutates them: a different record is a change. */
  last: AccountRecord | undefined;
  /** The highest slot looked at. */
  checkedSlot: number;
}

export interface AccountChange {
  slot: number;
  /** The UiAccount JSON, in the subscription's encoding. */
  value: string;
}

export function watchAccount(ledger: Ledger, address: string, encoding: AccountEncoding, slice: AccountWatch["slice"], visibleSlot: number): AccountWatch {
  return { address, encoding, slice, last: ledger.accountAt(address, visibleSlot), checkedSlot: visibleSlot };
}

/** The slots after the last look in which a transaction referenced the account, oldest first, ending with `visibleSlot`. */
function slotsToCheck(ledger: Ledger, watch: AccountWatch, visibleSlot: number): number[] {
  const slots: number[] = [];
  const positions = ledger.positionsOf(watch.address);
  for (let i = positions.length - 1; i >= 0; i--) {
    const tx = ledger.transactionAt(positions[i] as number);
    if (!tx || tx.slot < watch.checkedSlot) break;
    if (tx.slot < visibleSlot && slots[slots.length - 1] !== tx.slot) slots.push(tx.slot);
  }
  slots.reverse();
  // The visible slot is always looked at: it holds the latest state, or the state a rollback restored.
  slots.push(visibleSlot);
  return slots;
}

/** What the watch has not yet told of, now that its commitment sees `visibleSlot`; the watch moves on. */
export function accountChanges(ledger: Ledger, watch: AccountWatch, visibleSlot: number): AccountChange[] {
  const changes: AccountChange[] = [];
  for (const slot of slotsToCheck(ledger, watch, visibleSlot)) {
    const record = ledger.accountAt(watch.address, slot);
    if (record === watch.last) continue;
    watch.last = record;
    const value = record ? accountJson(record, watch.encoding, watch.slice, decimalsAt({ ledger }, slot)) : closedAccountJson(watch.encoding, watch.slice);
    changes.push({ slot, value });
  }
  watch.checkedSlot = visibleSlot;
  return changes;
}
