"use client";

import type { Offer } from "@/client/types";
import { TakeButton } from "../trade/trade-entry";

const buy = "flex-1 rounded-lg bg-bid px-3 py-2.5 text-sm font-semibold text-on-accent";
const sell = "flex-1 rounded-lg bg-ask px-3 py-2.5 text-sm font-semibold text-on-accent";

/**
 * On a phone the book's actions stay at the bottom of the screen: Buy takes
 * the best ask, Sell the best bid (the existing take flow); a new offer stays
 * at the page's top (one such button per page). Wider screens act from the
 * book lines themselves.
 */
export function StickyTradeBar({ bestAsk, bestBid }: { bestAsk?: Offer; bestBid?: Offer }) {
  if (!bestAsk && !bestBid) return null;
  return (
    <div
      className="fixed inset-x-0 bottom-0 z-30 flex items-center gap-2 border-t border-line bg-panel/95 px-3 py-2 backdrop-blur sm:hidden"
      style={{ paddingBottom: "max(0.5rem, env(safe-area-inset-bottom))" }}
      data-testid="sticky-trade-bar"
      role="region"
      aria-label="Trade this pair"
    >
      {bestAsk && <TakeButton offer={bestAsk} className={buy} label="Buy at best ask" />}
      {bestBid && <TakeButton offer={bestBid} className={sell} label="Sell at best bid" />}
    </div>
  );
}
