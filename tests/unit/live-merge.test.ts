import { describe, expect, it } from "vitest";
import { parseLiveEvent, streamPath, idAfter } from "../../client/live-events";
import { compareFillsNewestFirst, dropSignature, mergeBookOffer, mergeFill, mergeMakerOffer, mergeOfferFill } from "../../client/live-merge";
import type { Fill, FillList, Offer, OfferFillList, OfferList } from "../../client/types";
import { addressOf, signatureOf, USDC } from "../helpers/fixtures";

// The stream's events merged into the lists pages hold: the merged list must
// be what the API would return for the same query.

const TOKEN = addressOf("live:token");
const OTHER = addressOf("live:other-token");
const MAKER = addressOf("live:maker");

function fill(label: string, slot: number, extra: Partial<Fill> = {}): Fill {
  return {
    signature: signatureOf(label),
    ixIndex: 0,
    offerPda: addressOf("live:offer"),
    maker: MAKER,
    taker: addressOf("live:taker"),
    fillAmount: "100",
    paymentAmount: "85",
    feeAmount: "1",
    blockTime: new Date(1_700_000_000_000 + slot * 400).toISOString(),
    slot: String(slot),
    tokenMint: TOKEN,
    paymentMint: USDC,
    side: "sell",
    ...extra,
  };
}

function offer(label: string, price: string, scale: number, extra: Partial<Offer> = {}): Offer {
  return {
    pda: addressOf(`live:offer:${label}`),
    maker: MAKER,
    tokenMint: TOKEN,
    paymentMint: USDC,
    side: "sell",
    nonce: "1",
    originalSize: "1000",
    remainingSize: "1000",
    pricePerToken: price,
    priceScale: scale,
    minFill: "1",
    createdAt: "2026-11-23T10:00:00.000Z",
    expiresAt: "2099-01-01T00:00:00.000Z",
    status: "open",
    lastSlot: "10",
    indexedAt: "2026-11-23T10:00:01.000Z",
    ...extra,
  };
}

const fillList = (fills: Fill[], more = false): FillList => ({ fills, limit: 3, offset: 0, nextCursor: more ? "next" : null });

describe("fills", () => {
  it("a new fill goes on top of the newest page, and the same fill twice is kept once", () => {
    const list = fillList([fill("b", 20), fill("a", 10)]);
    const merged = mergeFill(list, fill("c", 30), {});
    expect(merged.fills.map((f) => f.slot)).toEqual(["30", "20", "10"]);
    expect(mergeFill(merged, fill("c", 30), {})).toBe(merged);
  });

  it("a fill of a slot between two rows goes between them, as slot desc, signature desc, ix_index desc", () => {
    const merged = mergeFill(fillList([fill("b", 20), fill("a", 10)]), fill("m", 15), {});
    expect(merged.fills.map((f) => f.slot)).toEqual(["20", "15", "10"]);
    const same = [fill("x", 5, { ixIndex: 0 }), fill("x", 5, { ixIndex: 2 }), fill("x", 5, { ixIndex: 1 })].sort(compareFillsNewestFirst);
    expect(same.map((f) => f.ixIndex)).toEqual([2, 1, 0]);
  });

  it("a fill older than a full page that has more pages belongs to a later page and is left out", () => {
    const list = fillList([fill("c", 30), fill("b", 20), fill("a", 10)], true);
    expect(mergeFill(list, fill("old", 5), {})).toBe(list);
    // Without more pages, the list is the whole feed: it ends with the fill.
    expect(mergeFill(fillList([fill("b", 20)]), fill("old", 5), {}).fills.map((f) => f.slot)).toEqual(["20", "5"]);
  });

  it("a fill that the page's filters exclude is not merged: pair, maker, taker, offer and time window", () => {
    const list = fillList([fill("a", 10)]);
    const other = fill("other", 30, { tokenMint: OTHER });
    expect(mergeFill(list, other, { tokenMint: TOKEN })).toBe(list);
    expect(mergeFill(list, fill("n", 30), { maker: addressOf("someone") })).toBe(list);
    expect(mergeFill(list, fill("n", 30), { taker: addressOf("someone") })).toBe(list);
    expect(mergeFill(list, fill("n", 30), { offerPda: addressOf("another offer") })).toBe(list);
    const at = Math.floor(Date.parse(fill("n", 30).blockTime) / 1000);
    expect(mergeFill(list, fill("n", 30), { toTime: at - 1 })).toBe(list);
    expect(mergeFill(list, fill("n", 30), { fromTime: at, toTime: at, tokenMint: TOKEN, paymentMint: USDC, maker: MAKER }).fills).toHaveLength(2);
  });

  it("revoke removes every fill of the signature, and leaves a list without it untouched", () => {
    const list = fillList([fill("r", 30, { ixIndex: 1 }), fill("r", 30, { ixIndex: 0 }), fill("a", 10)]);
    expect(dropSignature(list, signatureOf("r")).fills.map((f) => f.signature)).toEqual([signatureOf("a")]);
    expect(dropSignature(list, signatureOf("absent"))).toBe(list);
  });

  it("an offer's history takes only its own fills, in the offer-fill shape", () => {
    const list: OfferFillList = { fills: [], limit: 200, offset: 0, nextCursor: null };
    const own = mergeOfferFill(list, fill("own", 30), addressOf("live:offer"));
    expect(own.fills).toEqual([{ signature: signatureOf("own"), ixIndex: 0, taker: addressOf("live:taker"), fillAmount: "100", paymentAmount: "85", feeAmount: "1", blockTime: fill("own", 30).blockTime, slot: "30" }]);
    expect(mergeOfferFill(list, fill("x", 30), addressOf("elsewhere"))).toBe(list);
  });
});

describe("the book", () => {
  const side = { tokenMint: TOKEN, paymentMint: USDC, side: "sell" as const };
  const asks = (...offers: Offer[]): OfferList => ({ offers, limit: 200, offset: 0, nextCursor: null });

  it("an ask goes in price order with exact scaled prices (0.85 = 85/10^2 < 0.851 = 851/10^3)", () => {
    const book = asks(offer("a", "85", 2), offer("c", "9", 1));
    const merged = mergeBookOffer(book, offer("b", "851", 3), side);
    expect(merged.offers.map((o) => o.pricePerToken)).toEqual(["85", "851", "9"]);
  });

  it("bids are dearest first; equal prices keep the older offer first", () => {
    const bids = { ...side, side: "buy" as const };
    const book = asks(offer("hi", "90", 2, { side: "buy" }), offer("lo", "80", 2, { side: "buy" }));
    const later = offer("same", "90", 2, { side: "buy", createdAt: "2026-11-23T11:00:00.000Z" });
    expect(mergeBookOffer(book, later, bids).offers.map((o) => o.pda)).toEqual([offer("hi", "90", 2).pda, later.pda, offer("lo", "80", 2).pda]);
  });

  it("a partly filled offer is replaced in place; a filled, cancelled or expired one leaves the book", () => {
    const a = offer("a", "85", 2);
    const book = asks(a, offer("b", "86", 2));
    const partly = mergeBookOffer(book, { ...a, remainingSize: "400" }, side);
    expect(partly.offers[0]?.remainingSize).toBe("400");
    expect(partly.offers).toHaveLength(2);
    for (const status of ["filled", "cancelled", "expired"] as const) {
      expect(mergeBookOffer(book, { ...a, status }, side).offers.map((o) => o.pda)).toEqual([offer("b", "86", 2).pda]);
    }
    // Still "open" but past its expiry: the open book does not list it.
    expect(mergeBookOffer(book, { ...a, expiresAt: "2020-01-01T00:00:00.000Z" }, side).offers).toHaveLength(1);
  });

  it("an offer of another pair or side does not touch this side of the book", () => {
    const book = asks(offer("a", "85", 2));
    expect(mergeBookOffer(book, offer("x", "1", 0, { tokenMint: OTHER }), side)).toBe(book);
    expect(mergeBookOffer(book, offer("y", "1", 0, { side: "buy" }), side)).toBe(book);
  });
});

describe("a maker's offers by status", () => {
  it("an offer moves from the open tab to the filled tab as its status changes", () => {
    const a = offer("a", "85", 2);
    const open: OfferList = { offers: [a], limit: 50, offset: 0, nextCursor: null };
    const filledTab: OfferList = { offers: [], limit: 50, offset: 0, nextCursor: null };
    const filled = { ...a, status: "filled" as const, remainingSize: "0" };
    expect(mergeMakerOffer(open, filled, MAKER, "open").offers).toEqual([]);
    expect(mergeMakerOffer(filledTab, filled, MAKER, "filled").offers).toEqual([filled]);
    expect(mergeMakerOffer(filledTab, filled, addressOf("another maker"), "filled")).toBe(filledTab);
  });

  it("newest first: a new offer goes on top", () => {
    const old = offer("old", "85", 2);
    const fresh = offer("new", "85", 2, { createdAt: "2026-11-23T12:00:00.000Z" });
    const list: OfferList = { offers: [old], limit: 50, offset: 0, nextCursor: null };
    expect(mergeMakerOffer(list, fresh, MAKER, "open").offers.map((o) => o.pda)).toEqual([fresh.pda, old.pda]);
  });
});

describe("the wire", () => {
  it("reads each event kind, and refuses an unknown kind, a bad id or a body that is not JSON", () => {
    const f = fill("wire", 7);
    expect(parseLiveEvent("fill", "12", JSON.stringify(f))).toEqual({ type: "fill", id: "12", fill: f });
    expect(parseLiveEvent("revoke", "13", JSON.stringify({ signature: "s", slot: "7" }))).toEqual({ type: "revoke", id: "13", signature: "s", slot: "7" });
    expect(parseLiveEvent("reset", "", JSON.stringify({ reason: "too old" }))).toEqual({ type: "reset", id: "", reason: "too old" });
    expect(parseLiveEvent("offer", "14", JSON.stringify(offer("w", "1", 0)))?.type).toBe("offer");
    expect(parseLiveEvent("party", "15", "{}")).toBeNull();
    expect(parseLiveEvent("fill", "x1", JSON.stringify(f))).toBeNull();
    expect(parseLiveEvent("fill", "16", "{not json")).toBeNull();
    expect(parseLiveEvent("fill", "17", JSON.stringify({ hello: 1 }))).toBeNull();
  });

  it("builds the stream address with the filters, sorted types and the id to resume after", () => {
    expect(streamPath({})).toBe("/v1/stream");
    expect(streamPath({ tokenMint: TOKEN, types: ["revoke", "fill"] }, "42")).toBe(`/v1/stream?tokenMint=${TOKEN}&types=fill%2Crevoke&after=42`);
  });

  it("compares ids as integers past 2^53", () => {
    expect(idAfter("9007199254740993", "9007199254740992")).toBe(true);
    expect(idAfter("10", "9")).toBe(true);
    expect(idAfter("9", "10")).toBe(false);
    expect(idAfter("1", null)).toBe(true);
  });
});
