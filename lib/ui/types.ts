// The /v1 response shapes the UI reads (see shared/seed/offer-book-rest-interface.md
// and api-decisions.md). Raw amounts are decimal strings; never parse them to number.

import type { OfferStatus, Side } from "../http/params";
import type { TrendingItem } from "../tokens/types";

export type { OfferStatus, Side };

export interface Offer {
  pda: string;
  maker: string;
  tokenMint: string;
  paymentMint: string;
  side: Side;
  nonce: string;
  originalSize: string;
  remainingSize: string;
  pricePerToken: string;
  priceScale: number;
  minFill: string;
  createdAt: string;
  expiresAt: string;
  status: OfferStatus;
  lastSlot: string;
  indexedAt: string;
}

export interface OfferList {
  offers: Offer[];
  limit: number;
  offset: number;
  nextCursor?: string | null;
}

export interface Fill {
  signature: string;
  ixIndex?: number;
  offerPda: string;
  maker?: string;
  taker: string;
  fillAmount: string;
  paymentAmount: string;
  feeAmount: string;
  blockTime: string;
  slot: string;
  tokenMint: string;
  paymentMint: string;
  side: Side;
}

/** A row of one offer's history: the offer's mints and side are known from the offer. */
export type OfferFill = Pick<Fill, "signature" | "ixIndex" | "taker" | "fillAmount" | "paymentAmount" | "feeAmount" | "blockTime" | "slot">;

export interface FillList {
  fills: Fill[];
  limit: number;
  offset: number;
  nextCursor?: string | null;
}

export interface OfferFillList {
  fills: OfferFill[];
  limit: number;
  offset: number;
  nextCursor?: string | null;
}

export interface ProtocolStats {
  totalOffers: number;
  openOffers: number;
  filledOffers: number;
  expiredOffers: number;
  cancelledOffers?: number;
  totalFills: number;
  feesByMint: Record<string, string>;
  volumeByMint: Record<string, string>;
}

export interface MakerStats {
  maker: string;
  totalOffers: number;
  openOffers: number;
  filledOffers: number;
  expiredOffers: number;
  cancelledOffers?: number;
  totalSold: Record<string, string>;
  totalBought: Record<string, string>;
}

// Token metadata has one definition, the token service's; the wire shape is the same.
export type { Token, TrendingItem } from "../tokens/types";

export interface ScaledPrice {
  pricePerToken: string;
  priceScale: number;
}

export interface Market {
  tokenMint: string;
  paymentMint: string;
  openOffers: number;
  openAsks: number;
  openBids: number;
  bestAsk: ScaledPrice | null;
  bestBid: ScaledPrice | null;
  volume24h: string;
  fills24h: number;
  lastFillAt: string | null;
}

/** A bucket of a pair's fills (GET /v1/candles): prices in raw payment units per raw token unit. */
export interface Candle {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  quoteVolume: string;
  fills: number;
}

export interface Trending {
  items: TrendingItem[];
  fetchedAt: number;
  source: string;
  count: number;
}

export interface ApiErrorBody {
  error: string;
  code: string;
  param?: string;
}

export const OFFER_STATUSES: readonly OfferStatus[] = ["open", "filled", "expired", "cancelled"];
