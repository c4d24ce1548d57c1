import type { OfferAccount } from "../../lib/program";

/**
 * How far past the market a demo taker still takes: a sell offer priced up to
 * this share above the mid, a buy offer down to this share below it. The
 * simulator's own offers sit within 3% of the mid, so they keep filling; a
 * newcomer's bid far below the market (or ask far above it) stays open, to be
 * cancelled.
 */
export const NEAR_MARKET_SHARE = 0.05;

/** An offer's price in payment per whole token, as a float (only for choosing what to take). */
export function humanOfferPrice(account: Pick<OfferAccount, "pricePerToken" | "priceScale">, tokenDecimals: number, paymentDecimals: number): number {
  return (Number(account.pricePerToken) / 10 ** account.priceScale) * 10 ** (tokenDecimals - paymentDecimals);
}

/**
 * Whether a taker at the market would take this offer: one at least as good
 * for the taker as the mid (a cheap ask, a generous bid) always, a worse one
 * only within `share` of the mid.
 */
export function takeableNearMarket(side: OfferAccount["side"], price: number, mid: number, share = NEAR_MARKET_SHARE): boolean {
  if (!(mid > 0) || !Number.isFinite(price)) return false;
  return side === "sell" ? price <= mid * (1 + share) : price >= mid * (1 - share);
}
