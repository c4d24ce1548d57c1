import type { OfferAccount } from "../lib/program";
import type { NewOffer } from "../lib/db/writes";

/** An offer row as its account said at `slot` (for offers whose create the scan never saw). */
export function offerRowFromAccount(pda: string, offer: OfferAccount, slot: bigint): NewOffer {
  return {
    pda,
    maker: offer.maker,
    tokenMint: offer.tokenMint,
    paymentMint: offer.paymentMint,
    side: offer.side,
    nonce: offer.nonce,
    originalSize: offer.originalSize,
    remainingSize: offer.remainingSize,
    pricePerToken: offer.pricePerToken,
    priceScale: offer.priceScale,
    minFill: offer.minFill,
    createdAt: new Date(Number(offer.createdAt) * 1000),
    expiresAt: new Date(Number(offer.expiresAt) * 1000),
    state: offer.state,
    accountSlot: slot,
    lastSlot: slot,
  };
}
