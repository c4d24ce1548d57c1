import type { Address } from "./bytes";
import { EXPIRY_BOUNTY_LAMPORTS } from "./constants";
import type { OfferAccount } from "./offer-account";
import { checkCancelOffer, checkCloseOffer, checkExpireOffer } from "./pricing";

export interface OfferActions {
  /** The maker may cancel an active offer (lapsed or not): escrow and bounty return to the maker. */
  cancel: boolean;
  /** The maker may close an offer that is no longer active (filled, cancelled or expired). */
  close: boolean;
  /** Anyone may expire an active offer past its expiry, earning the bounty. */
  expire: { bountyLamports: bigint } | null;
  /** The offer is active and not past expiry, so take_offer can succeed. */
  take: boolean;
}

/**
 * Which of cancel, close, expire and take the program would accept from
 * `caller` (null: no wallet) at unix time `now`, by the program's own checks
 * plus its has_one maker constraint.
 */
export function offerActions(offer: Pick<OfferAccount, "maker" | "state" | "expiresAt">, caller: Address | null, now: bigint): OfferActions {
  const isMaker = caller !== null && caller === offer.maker;
  return {
    cancel: isMaker && checkCancelOffer(offer) === null,
    close: isMaker && checkCloseOffer(offer) === null,
    expire: caller !== null && checkExpireOffer(offer, now) === null ? { bountyLamports: EXPIRY_BOUNTY_LAMPORTS } : null,
    take: offer.state === "active" && now < offer.expiresAt,
  };
}
