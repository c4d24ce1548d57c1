import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { LiveCache } from "../../components/live/live-cache";
import { emptyNoticeState, noteFill, noteOffer, noticeText, rememberOffers } from "../../client/offer-notices";
import type { Fill, FillList, Offer, OfferList } from "../../client/types";
import { addressOf, signatureOf, USDC } from "../helpers/fixtures";

// What a wallet is told about its own offers, and the stream's events applied
// to a real React Query cache the way the pages hold it.

const MAKER = addressOf("notice:maker");
const TOKEN = addressOf("notice:token");

const offer = (extra: Partial<Offer> = {}): Offer => ({
  pda: addressOf("notice:offer"),
  maker: MAKER,
  tokenMint: TOKEN,
  paymentMint: USDC,
  side: "sell",
  nonce: "1",
  originalSize: "1000",
  remainingSize: "1000",
  pricePerToken: "85",
  priceScale: 2,
  minFill: "1",
  createdAt: "2026-11-23T10:00:00.000Z",
  expiresAt: "2099-01-01T00:00:00.000Z",
  status: "open",
  lastSlot: "10",
  indexedAt: "2026-11-23T10:00:01.000Z",
  ...extra,
});

const fill = (extra: Partial<Fill> = {}): Fill => ({
  signature: signatureOf("notice:fill"),
  ixIndex: 0,
  offerPda: offer().pda,
  maker: MAKER,
  taker: addressOf("notice:taker"),
  fillAmount: "300",
  paymentAmount: "255",
  feeAmount: "1",
  blockTime: "2026-11-23T10:05:00.000Z",
  slot: "20",
  tokenMint: TOKEN,
  paymentMint: USDC,
  side: "sell",
  ...extra,
});

describe("notices about a wallet's own offers", () => {
  it("a known open offer taken in part says partly filled, with the amount taken and what remains", () => {
    const state = rememberOffers(emptyNoticeState(), [offer()]);
    const { notice } = noteOffer(noteFill(state, fill()), offer({ remainingSize: "700" }));
    expect(notice?.kind).toBe("partly-filled");
    expect(notice?.takenAmount).toBe("300");
    expect(noticeText(notice!, (raw) => `${raw} T`)).toEqual({ title: "Your sell offer was partly filled", body: "300 T taken; 700 T remains." });
  });

  it("the rest taken says filled; cancelled and expired say so once", () => {
    let state = rememberOffers(emptyNoticeState(), [offer({ remainingSize: "700" })]);
    const filled = noteOffer(state, offer({ remainingSize: "0", status: "filled" }));
    expect([filled.notice?.kind, filled.notice?.takenAmount]).toEqual(["filled", "700"]);
    for (const status of ["cancelled", "expired"] as const) {
      state = rememberOffers(emptyNoticeState(), [offer()]);
      const first = noteOffer(state, offer({ status }));
      expect(first.notice?.kind).toBe(status);
      expect(noteOffer(first.state, offer({ status })).notice).toBeNull();
    }
  });

  it("an unknown open offer tells nothing unless a fill of it was heard; a new offer and a restored row tell nothing", () => {
    expect(noteOffer(emptyNoticeState(), offer({ remainingSize: "700" })).notice).toBeNull();
    expect(noteOffer(noteFill(emptyNoticeState(), fill()), offer({ remainingSize: "700" })).notice?.kind).toBe("partly-filled");
    expect(noteOffer(emptyNoticeState(), offer()).notice).toBeNull();
    // A rollback: the row comes back with more remaining than last known.
    const state = rememberOffers(emptyNoticeState(), [offer({ remainingSize: "700" })]);
    expect(noteOffer(state, offer({ remainingSize: "1000" })).notice).toBeNull();
  });
});

describe("the stream's events in the query cache", () => {
  const filled = { fills: [], limit: 50, offset: 0, nextCursor: null } satisfies FillList;

  function cacheWith() {
    const client = new QueryClient();
    client.setQueryData(["fills", { limit: 50 }], filled);
    client.setQueryData(["fills", { tokenMint: addressOf("elsewhere"), limit: 50 }], filled);
    client.setQueryData(["fills", { limit: 50, cursor: "older" }], filled);
    client.setQueryData(["book", TOKEN, USDC, "sell"], { offers: [offer()], limit: 200, offset: 0, nextCursor: null } satisfies OfferList);
    client.setQueryData(["offer", offer().pda], offer());
    client.setQueryData(["maker-offers", MAKER, "open", null], { offers: [offer()], limit: 50, offset: 0, nextCursor: null } satisfies OfferList);
    client.setQueryData(["maker-offers", MAKER, "filled", null], { offers: [], limit: 50, offset: 0, nextCursor: null } satisfies OfferList);
    return { client, cache: new LiveCache(client) };
  }

  it("a fill reaches the newest pages whose filters it matches, not older pages or other pairs; revoke takes it back", () => {
    const { client, cache } = cacheWith();
    cache.apply({ type: "fill", id: "1", fill: fill() });
    expect(client.getQueryData<FillList>(["fills", { limit: 50 }])?.fills).toHaveLength(1);
    expect(client.getQueryData<FillList>(["fills", { tokenMint: addressOf("elsewhere"), limit: 50 }])?.fills).toHaveLength(0);
    expect(client.getQueryData<FillList>(["fills", { limit: 50, cursor: "older" }])?.fills).toHaveLength(0);
    cache.apply({ type: "revoke", id: "2", signature: fill().signature, slot: "20" });
    expect(client.getQueryData<FillList>(["fills", { limit: 50 }])?.fills).toHaveLength(0);
    cache.dispose();
  });

  it("an offer's new row replaces the offer page's, leaves the book when filled and moves between the maker's tabs", () => {
    const { client, cache } = cacheWith();
    const done = offer({ remainingSize: "0", status: "filled" });
    cache.apply({ type: "offer", id: "3", offer: done });
    expect(client.getQueryData(["offer", done.pda])).toEqual(done);
    expect(client.getQueryData<OfferList>(["book", TOKEN, USDC, "sell"])?.offers).toEqual([]);
    expect(client.getQueryData<OfferList>(["maker-offers", MAKER, "open", null])?.offers).toEqual([]);
    expect(client.getQueryData<OfferList>(["maker-offers", MAKER, "filled", null])?.offers).toEqual([done]);
    cache.dispose();
  });
});
