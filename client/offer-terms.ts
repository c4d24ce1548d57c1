import type { OfferAccount, OfferState } from "../lib/program/offer-account";
import type { Offer } from "./types";

const STATE_OF_STATUS: Record<Offer["status"], OfferState> = {
  open: "active",
  filled: "filled",
  cancelled: "cancelled",
  // Lapsed-but-not-cranked offers are still active on chain; either way nothing can be taken.
  expired: "expired",
};

/** The API's offer in the program's terms (bigint amounts, unix seconds), for previews; actions re-read the chain. */
export function offerTermsOf(offer: Offer): Pick<
  OfferAccount,
  "maker" | "side" | "state" | "expiresAt" | "remainingSize" | "minFill" | "pricePerToken" | "priceScale" | "tokenMint" | "paymentMint"
> {
  return {
    maker: offer.maker,
    side: offer.side,
    state: STATE_OF_STATUS[offer.status],
    expiresAt: BigInt(Math.floor(Date.parse(offer.expiresAt) / 1000)),
    remainingSize: BigInt(offer.remainingSize),
    minFill: BigInt(offer.minFill),
    pricePerToken: BigInt(offer.pricePerToken),
    priceScale: offer.priceScale,
    tokenMint: offer.tokenMint,
    paymentMint: offer.paymentMint,
  };
}

export const unixNow = (): bigint => BigInt(Math.floor(Date.now() / 1000));
