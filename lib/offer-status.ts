import type { OfferSide } from "./program/offer-account";

// The words the index, the API and the pages share for where an offer stands
// and which way it trades. The side is the maker's (docs/program.md): a `sell`
// offer sells the token for the payment mint, a `buy` offer buys it.

export type Side = OfferSide;

/** An offer's status as the index derives it: open, or how it ended. */
export const OFFER_STATUSES = ["open", "filled", "expired", "cancelled"] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];
