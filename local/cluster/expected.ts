import type { OfferAccount } from "../../lib/program";
import type { Ledger } from "./ledger";
import type { FillRecord } from "./transaction-executor";

export interface ExpectedOffer {
  address: string;
  /** The account as the program last wrote it (before close_offer deleted it, if it did). */
  account: OfferAccount;
  closed: boolean;
  createdSignature: string;
  createdSlot: number;
  /** The highest slot of a successful instruction that changed the offer. */
  lastSlot: number;
}

export interface ExpectedState {
  /** The state includes every transaction up to this slot. */
  slot: number;
  offers: Map<string, ExpectedOffer>;
  /** Every executed take, in ledger order. */
  fills: FillRecord[];
}

/**
 * What an indexer should hold after reading the ledger up to `slot`: the
 * cluster's own record of what its program executed, independent of any
 * indexer code. Pruned history still counts: it happened.
 */
export function expectedState(ledger: Ledger, slot = ledger.tip.slot): ExpectedState {
  const offers = new Map<string, ExpectedOffer>();
  const fills: FillRecord[] = [];
  for (const tx of ledger.transactions) {
    if (tx.slot > slot) break;
    if (tx.result.err !== null) continue;
    for (const effect of tx.result.effects) {
      const existing = offers.get(effect.offer);
      switch (effect.kind) {
        case "create":
          offers.set(effect.offer, {
            address: effect.offer,
            account: effect.account,
            closed: false,
            createdSignature: tx.signature,
            createdSlot: tx.slot,
            lastSlot: tx.slot,
          });
          break;
        case "take":
          fills.push(effect.fill);
          if (existing) Object.assign(existing, { account: effect.account, lastSlot: tx.slot });
          break;
        case "cancel":
        case "expire":
          if (existing) Object.assign(existing, { account: effect.account, lastSlot: tx.slot });
          break;
        case "close":
          if (existing) Object.assign(existing, { closed: true, lastSlot: tx.slot });
          break;
      }
    }
  }
  return { slot, offers, fills };
}

/** The expected state as plain JSON (bigints as decimal strings), for the admin endpoint. */
export function expectedStateJson(state: ExpectedState): unknown {
  const plain = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v)));
  return { slot: state.slot, offers: plain([...state.offers.values()]), fills: plain(state.fills) };
}
