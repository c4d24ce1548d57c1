import { decodeOfferAccount, type OfferAccount } from "../../lib/program";
import type { AccountRecord } from "./state";

const decoded = new WeakMap<AccountRecord, OfferAccount | null>();

/**
 * The Offer in an account record, decoded once per record: records are
 * replaced, never mutated, on every write, so identity is a safe cache key.
 */
export function offerOf(record: AccountRecord | undefined): OfferAccount | null {
  if (!record) return null;
  let offer = decoded.get(record);
  if (offer === undefined) {
    offer = decodeOfferAccount(record.data);
    decoded.set(record, offer);
  }
  return offer;
}

export function rememberOffer(record: AccountRecord, offer: OfferAccount): void {
  decoded.set(record, offer);
}
