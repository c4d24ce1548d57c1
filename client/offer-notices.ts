import type { Fill, Offer } from "./types";

// What a connected wallet is told about its own offers, from the stream's
// `offer` and `fill` events (filtered to maker = the wallet). The state is what
// was last known of each offer, so a notice says what changed: a restored row
// after a rollback (remaining grows back) or a repeated event tells nothing.

export type NoticeKind = "filled" | "partly-filled" | "expired" | "cancelled";

export interface OfferNotice {
  /** One per offer and state, so a repeated event never shows twice. */
  key: string;
  kind: NoticeKind;
  offer: Offer;
  /** Raw token units taken since the last known state (fills only). */
  takenAmount: string | null;
}

export interface KnownOffer {
  status: Offer["status"];
  remainingSize: string;
}

export interface NoticeState {
  known: ReadonlyMap<string, KnownOffer>;
  /** Raw amounts of fills heard for an offer whose new row has not come yet. */
  pendingFills: ReadonlyMap<string, bigint>;
}

export const emptyNoticeState = (): NoticeState => ({ known: new Map(), pendingFills: new Map() });

/** Seeds what is known, e.g. from the wallet's open offers when it connects. */
export function rememberOffers(state: NoticeState, offers: readonly Offer[]): NoticeState {
  const known = new Map(state.known);
  for (const o of offers) if (!known.has(o.pda)) known.set(o.pda, { status: o.status, remainingSize: o.remainingSize });
  return { ...state, known };
}

/** A fill of one of the wallet's offers: remembered until the offer's new row says whether it was partial. */
export function noteFill(state: NoticeState, fill: Fill): NoticeState {
  const pendingFills = new Map(state.pendingFills);
  pendingFills.set(fill.offerPda, (pendingFills.get(fill.offerPda) ?? 0n) + BigInt(fill.fillAmount));
  return { ...state, pendingFills };
}

/** The offer's new row: the next state and the notice it is worth, if any. */
export function noteOffer(state: NoticeState, offer: Offer): { state: NoticeState; notice: OfferNotice | null } {
  const before = state.known.get(offer.pda);
  const heard = state.pendingFills.get(offer.pda);
  const known = new Map(state.known).set(offer.pda, { status: offer.status, remainingSize: offer.remainingSize });
  const pendingFills = new Map(state.pendingFills);
  pendingFills.delete(offer.pda);
  const next = { known, pendingFills };

  const remaining = BigInt(offer.remainingSize);
  const shrank = before ? BigInt(before.remainingSize) - remaining : heard ?? 0n;
  const key = `${offer.pda}:${offer.status}:${offer.remainingSize}`;
  if (before && before.status === offer.status && before.remainingSize === offer.remainingSize) return { state: next, notice: null };

  switch (offer.status) {
    case "filled":
      return { state: next, notice: { key, kind: "filled", offer, takenAmount: shrank > 0n ? shrank.toString() : null } };
    case "cancelled":
    case "expired":
      return { state: next, notice: before?.status === offer.status ? null : { key, kind: offer.status, offer, takenAmount: null } };
    case "open":
      return shrank > 0n && remaining > 0n ? { state: next, notice: { key, kind: "partly-filled", offer, takenAmount: shrank.toString() } } : { state: next, notice: null };
    default:
      return { state: next, notice: null };
  }
}

/** The notice's words: a title and a line, the same in the page and in a browser notification. */
export function noticeText(notice: OfferNotice, amount: (raw: string) => string): { title: string; body: string } {
  const side = notice.offer.side === "sell" ? "sell" : "buy";
  const taken = notice.takenAmount ? amount(notice.takenAmount) : null;
  switch (notice.kind) {
    case "filled":
      return { title: `Your ${side} offer was filled`, body: taken ? `${taken} taken; nothing remains.` : "Nothing remains." };
    case "partly-filled":
      return { title: `Your ${side} offer was partly filled`, body: `${taken ?? "Some"} taken; ${amount(notice.offer.remainingSize)} remains.` };
    case "expired":
      return { title: `Your ${side} offer expired`, body: `${amount(notice.offer.remainingSize)} was left unfilled.` };
    case "cancelled":
      return { title: `Your ${side} offer was cancelled`, body: `${amount(notice.offer.remainingSize)} was left unfilled.` };
  }
}
