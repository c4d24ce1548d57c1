import type { FillFilters } from "../lib/db/reads/fills";
import type { Fill, FillList, Offer, OfferFill, OfferFillList, OfferList, OfferStatus, Side } from "./types";

// Merging the stream's events into the lists the pages hold, in the order and
// with the filters the server's queries use (lib/db/reads), so a merged list is
// the list a refetch would return. Each function returns the list it was given
// when the event changes nothing there (React Query then re-renders nothing).

/** Live fill lists stop growing here; a long session keeps this many newest rows. */
const MAX_LIVE_ROWS = 1_000;

type FillOrderKey = Pick<Fill, "slot" | "signature" | "ixIndex">;

/** Negative when a comes first: newest first, as `slot desc, signature desc, ix_index desc` (byte order, as the C collation). */
export function compareFillsNewestFirst(a: FillOrderKey, b: FillOrderKey): number {
  const slot = BigInt(b.slot) - BigInt(a.slot);
  if (slot !== 0n) return slot > 0n ? 1 : -1;
  if (a.signature !== b.signature) return a.signature < b.signature ? 1 : -1;
  return (b.ixIndex ?? 0) - (a.ixIndex ?? 0);
}

const sameFill = (a: Pick<Fill, "signature" | "ixIndex">, b: Pick<Fill, "signature" | "ixIndex">) => a.signature === b.signature && (a.ixIndex ?? 0) === (b.ixIndex ?? 0);

/** Whether /v1/fills with these filters would list the fill. */
export function fillMatches(fill: Fill, filters: FillFilters): boolean {
  if (filters.offerPda && fill.offerPda !== filters.offerPda) return false;
  if (filters.taker && fill.taker !== filters.taker) return false;
  if (filters.maker && fill.maker !== filters.maker) return false;
  if (filters.tokenMint && fill.tokenMint !== filters.tokenMint) return false;
  if (filters.paymentMint && fill.paymentMint !== filters.paymentMint) return false;
  const seconds = Math.floor(Date.parse(fill.blockTime) / 1000);
  if (filters.fromTime !== undefined && seconds < filters.fromTime) return false;
  if (filters.toTime !== undefined && seconds > filters.toTime) return false;
  return true;
}

/**
 * The row in its place, or null when it is there already or falls past the end
 * of a list that has more pages (it belongs to a later page).
 */
function insertSorted<T>(rows: readonly T[], row: T, compare: (a: T, b: T) => number, hasMore: boolean): T[] | null {
  let at = rows.findIndex((r) => compare(row, r) < 0);
  if (at === -1) {
    if (hasMore) return null;
    at = rows.length;
  }
  return [...rows.slice(0, at), row, ...rows.slice(at)];
}

/** A newest page of fills (no cursor) with a live fill merged in. */
export function mergeFill(list: FillList, fill: Fill, filters: FillFilters): FillList {
  if (!fillMatches(fill, filters) || list.fills.some((f) => sameFill(f, fill))) return list;
  const full = list.fills.length >= list.limit && Boolean(list.nextCursor);
  const fills = insertSorted(list.fills, fill, compareFillsNewestFirst, full);
  return fills ? { ...list, fills: fills.slice(0, MAX_LIVE_ROWS) } : list;
}

/** One offer's fill history with a live fill of that offer merged in. */
export function mergeOfferFill(list: OfferFillList, fill: Fill, offerPda: string): OfferFillList {
  if (fill.offerPda !== offerPda || list.fills.some((f) => sameFill(f, fill))) return list;
  const row: OfferFill = {
    signature: fill.signature,
    ixIndex: fill.ixIndex,
    taker: fill.taker,
    fillAmount: fill.fillAmount,
    paymentAmount: fill.paymentAmount,
    feeAmount: fill.feeAmount,
    blockTime: fill.blockTime,
    slot: fill.slot,
  };
  const full = list.fills.length >= list.limit && Boolean(list.nextCursor);
  const fills = insertSorted(list.fills, row, compareFillsNewestFirst, full);
  return fills ? { ...list, fills: fills.slice(0, MAX_LIVE_ROWS) } : list;
}

/** A list without the fills of a transaction that was rolled back. */
export function dropSignature<L extends { fills: { signature: string }[] }>(list: L, signature: string): L {
  return list.fills.some((f) => f.signature === signature) ? { ...list, fills: list.fills.filter((f) => f.signature !== signature) } : list;
}

/** Exact comparison of two scaled prices (pricePerToken / 10^priceScale) without floats. */
export function comparePrices(a: Pick<Offer, "pricePerToken" | "priceScale">, b: Pick<Offer, "pricePerToken" | "priceScale">): number {
  const left = BigInt(a.pricePerToken) * 10n ** BigInt(b.priceScale);
  const right = BigInt(b.pricePerToken) * 10n ** BigInt(a.priceScale);
  return left === right ? 0 : left < right ? -1 : 1;
}

const byText = (a: string, b: string) => (a === b ? 0 : a < b ? -1 : 1);

/** The book's order: asks cheapest first, bids dearest first, then oldest first, then by address. */
export function compareBookOrder(side: Side) {
  return (a: Offer, b: Offer): number => {
    const price = comparePrices(a, b);
    if (price !== 0) return side === "sell" ? price : -price;
    return byText(a.createdAt, b.createdAt) || byText(a.pda, b.pda);
  };
}

/** Whether an offer is open now, as the "open" status list has it (an active offer past its expiry is not). */
export function isOpenNow(offer: Offer, nowMs: number): boolean {
  return offer.status === "open" && Date.parse(offer.expiresAt) > nowMs;
}

export interface BookSide {
  tokenMint: string;
  paymentMint: string;
  side: Side;
}

/** One side of a pair's open book with an offer's new state: in its place while open, gone otherwise. */
export function mergeBookOffer(list: OfferList, offer: Offer, book: BookSide, nowMs = Date.now()): OfferList {
  const others = list.offers.filter((o) => o.pda !== offer.pda);
  const belongs = offer.tokenMint === book.tokenMint && offer.paymentMint === book.paymentMint && offer.side === book.side && isOpenNow(offer, nowMs);
  if (!belongs) return others.length === list.offers.length ? list : { ...list, offers: others };
  const full = others.length >= list.limit;
  const offers = insertSorted(others, offer, compareBookOrder(book.side), full);
  return { ...list, offers: offers ?? others };
}

/** Newest first, as `created_at desc, pda desc`. */
const compareNewestOffer = (a: Offer, b: Offer) => byText(b.createdAt, a.createdAt) || byText(b.pda, a.pda);

/** The first page of a maker's offers of one status, with an offer's new state. */
export function mergeMakerOffer(list: OfferList, offer: Offer, maker: string, status: OfferStatus, nowMs = Date.now()): OfferList {
  const others = list.offers.filter((o) => o.pda !== offer.pda);
  const shownStatus: OfferStatus = offer.status === "open" && !isOpenNow(offer, nowMs) ? "expired" : offer.status;
  if (offer.maker !== maker || shownStatus !== status) return others.length === list.offers.length ? list : { ...list, offers: others };
  const full = others.length >= list.limit && Boolean(list.nextCursor);
  const offers = insertSorted(others, offer, compareNewestOffer, full);
  return { ...list, offers: offers ?? others };
}

/**
 * A candle from the stream put into a chart's list (oldest first) by its
 * bucket time: the same bucket replaced, a newer one appended, keeping the
 * newest `limit`.
 */
export function upsertCandle<C extends { time: number }>(list: readonly C[], candle: C, limit: number): C[] {
  const at = list.findIndex((c) => c.time === candle.time);
  if (at >= 0) return list.map((c, i) => (i === at ? candle : c));
  const next = [...list, candle].sort((a, b) => a.time - b.time);
  return next.length > limit ? next.slice(next.length - limit) : next;
}
