import type { DecodedTransaction } from "../lib/program/transaction-decoder";
import type { FeedChange, NewFill } from "../lib/db/writes";

/**
 * A batch's changes for the live feed, in chain order: each transaction's
 * fills, then the offers it touched for the last time in the batch (their
 * rows are rendered once, after the whole batch is written, so an offer
 * touched twice is told once, as it ends up).
 */
export function feedChanges(decoded: readonly DecodedTransaction[], fills: readonly NewFill[]): FeedChange[] {
  const lastTouch = new Map<string, number>();
  decoded.forEach((t, i) => t.events.forEach((e) => lastTouch.set(e.accounts.offer, i)));
  const fillsBySignature = new Map<string, NewFill[]>();
  for (const f of fills) {
    const list = fillsBySignature.get(f.signature);
    if (list) list.push(f);
    else fillsBySignature.set(f.signature, [f]);
  }
  const changes: FeedChange[] = [];
  decoded.forEach((t, i) => {
    for (const f of (fillsBySignature.get(t.signature) ?? []).sort((a, b) => a.ixIndex - b.ixIndex)) {
      changes.push({ kind: "fill", signature: f.signature, ixIndex: f.ixIndex });
    }
    const told = new Set<string>();
    for (const e of t.events) {
      const pda = e.accounts.offer;
      if (lastTouch.get(pda) !== i || told.has(pda)) continue;
      told.add(pda);
      changes.push({ kind: "offer", pda, signature: t.signature });
    }
  });
  return changes;
}
