import { describe, expect, it } from "vitest";
import {
  EXPIRY_BOUNTY_LAMPORTS,
  EXPIRY_PRESETS,
  expiresAtForPreset,
  MAX_EXPIRY_SECONDS,
  newOfferNonce,
  offerActions,
  previewCreate,
  previewTake,
  previewTakeRaw,
  scaledPriceForTotal,
  takeBounds,
  U64_MAX,
  type CreateOfferInput,
  type TakeTerms,
} from "../../lib/program";

const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const TOKEN = "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN";
const NOW = 1_700_000_000n;

function offer(over: Partial<TakeTerms> = {}): TakeTerms {
  return {
    side: "sell",
    state: "active",
    expiresAt: NOW + 3600n,
    remainingSize: 10_000_000n,
    minFill: 1_000_000n,
    pricePerToken: 125n,
    priceScale: 2, // 1.25 raw payment per raw token
    tokenMint: TOKEN,
    paymentMint: USDC,
    ...over,
  };
}

describe("take preview", () => {
  it("a sell offer's taker pays the gross, the maker gets it less the fee, rounded as the program rounds", () => {
    const p = previewTake(offer(), "1.5", 6, NOW);
    if (!p.ok) throw new Error(p.reason);
    expect(p.fillAmount).toBe(1_500_000n);
    expect(p.takerPays).toEqual({ mint: USDC, amount: 1_875_000n });
    expect(p.fee).toEqual({ mint: USDC, amount: 3_750n }); // 1_875_000 * 20 / 10_000 exactly
    expect(p.makerReceives).toEqual({ mint: USDC, amount: 1_871_250n });
    expect(p.takerReceives).toEqual({ mint: TOKEN, amount: 1_500_000n });
  });

  it("a buy offer's taker delivers tokens and receives the net; the fee rounds up", () => {
    const p = previewTakeRaw(offer({ side: "buy", minFill: 0n, pricePerToken: 1n, priceScale: 0 }), 1n, NOW);
    if (!p.ok) throw new Error(p.reason);
    expect(p.amounts.paymentAmount).toBe(1n);
    expect(p.fee.amount).toBe(1n); // ceil(1 * 20 / 10000)
    expect(p.takerReceives.amount).toBe(0n);
    expect(p.takerPays).toEqual({ mint: TOKEN, amount: 1n });
    expect(p.makerReceives).toEqual({ mint: TOKEN, amount: 1n });
  });

  it("floors the payment at scale 18", () => {
    const p = previewTakeRaw(offer({ minFill: 0n, pricePerToken: 999_999_999_999_999_999n, priceScale: 18 }), 3n, NOW);
    if (!p.ok) throw new Error(p.reason);
    expect(p.amounts.paymentAmount).toBe(2n); // 2.999999999999999997
  });

  it("computes at the u64 limits without overflowing", () => {
    const p = previewTakeRaw(offer({ remainingSize: U64_MAX, minFill: 0n, pricePerToken: 1n, priceScale: 0 }), U64_MAX, NOW);
    if (!p.ok) throw new Error(p.reason);
    expect(p.amounts.paymentAmount).toBe(U64_MAX);
    expect(p.fee.amount).toBe((U64_MAX * 20n + 9_999n) / 10_000n);
    expect(p.completes).toBe(true);
    const over = previewTakeRaw(offer({ remainingSize: U64_MAX, minFill: 0n, pricePerToken: 2n, priceScale: 0 }), U64_MAX, NOW);
    expect(over).toMatchObject({ ok: false, error: "ArithmeticOverflow" });
  });

  it("refuses below the minimum and above the remainder, saying the range", () => {
    expect(previewTake(offer(), "0.5", 6, NOW)).toMatchObject({ ok: false, error: "FillBelowMinimum", reason: expect.stringContaining("between 1 and 10") });
    expect(previewTake(offer(), "10.000001", 6, NOW)).toMatchObject({ ok: false, error: "FillExceedsRemaining" });
    expect(previewTake(offer(), "1.0000001", 6, NOW)).toMatchObject({ ok: false, reason: expect.stringContaining("at most 6 decimals") });
    expect(previewTake(offer(), "0", 6, NOW)).toMatchObject({ ok: false });
    expect(previewTake(offer(), "abc", 6, NOW)).toMatchObject({ ok: false });
  });

  it("accepts exactly the remainder below the minimum as the final dust fill, and nothing else", () => {
    const dust = offer({ remainingSize: 400_000n });
    expect(takeBounds(dust)).toEqual({ min: 400_000n, max: 400_000n, remainderOnly: true });
    const p = previewTake(dust, "0.4", 6, NOW);
    expect(p).toMatchObject({ ok: true, completes: true, leavesDust: false });
    expect(previewTake(dust, "0.3", 6, NOW)).toMatchObject({ ok: false, error: "FillBelowMinimum", reason: expect.stringContaining("only the whole remainder, 0.4") });
  });

  it("flags a fill that leaves dust for the next taker", () => {
    expect(previewTake(offer(), "9.5", 6, NOW)).toMatchObject({ ok: true, completes: false, leavesDust: true });
    expect(previewTake(offer(), "9", 6, NOW)).toMatchObject({ ok: true, leavesDust: false });
  });

  it("refuses an offer that is no longer takeable", () => {
    expect(previewTake(offer({ expiresAt: NOW }), "1", 6, NOW)).toMatchObject({ ok: false, error: "OfferExpired" });
    expect(previewTake(offer({ state: "filled" }), "1", 6, NOW)).toMatchObject({ ok: false, error: "OfferNotActive" });
  });
});

describe("create preview", () => {
  const input = (over: Partial<CreateOfferInput> = {}): CreateOfferInput => ({
    side: "sell",
    tokenMint: TOKEN,
    tokenDecimals: 6,
    paymentMint: USDC,
    paymentDecimals: 6,
    size: "100",
    total: "125",
    minFill: "10",
    expiry: "7d",
    now: NOW,
    nonce: 42n,
    ...over,
  });

  it("finds the smallest exact scale: 0, fractional, and 18", () => {
    expect(scaledPriceForTotal(100n, 300n)).toEqual({ ok: true, price: { pricePerToken: 3n, priceScale: 0 } });
    expect(scaledPriceForTotal(8n, 1n)).toEqual({ ok: true, price: { pricePerToken: 125n, priceScale: 3 } });
    expect(scaledPriceForTotal(10n ** 18n, 1n)).toEqual({ ok: true, price: { pricePerToken: 1n, priceScale: 18 } });
    expect(scaledPriceForTotal(2n ** 60n, 1n)).toEqual({ ok: false, reason: "no-exact-scale" }); // needs 60 decimals
    expect(scaledPriceForTotal(3n, 1n)).toEqual({ ok: false, reason: "no-exact-scale" });
    expect(scaledPriceForTotal(1n, U64_MAX)).toEqual({ ok: true, price: { pricePerToken: U64_MAX, priceScale: 0 } });
    expect(scaledPriceForTotal(1n, U64_MAX + 1n)).toEqual({ ok: false, reason: "price-overflow" });
  });

  it("turns human size and total into the program's arguments and a book line", () => {
    const p = previewCreate(input());
    if (!p.ok) throw new Error(p.reason);
    expect(p.args).toEqual({ side: "sell", nonce: 42n, size: 100_000_000n, pricePerToken: 125n, priceScale: 2, minFill: 10_000_000n, expiresAt: NOW + 604_800n });
    expect(p.bookLine).toMatchObject({ humanPrice: "1.25", size: 100_000_000n, total: 125_000_000n });
    expect(p.escrow).toEqual({ mint: TOKEN, amount: 100_000_000n });
    const buy = previewCreate(input({ side: "buy" }));
    expect(buy.ok && buy.escrow).toEqual({ mint: USDC, amount: 125_000_000n });
  });

  it("says so when no exact scale exists, and refuses what the program refuses", () => {
    expect(previewCreate(input({ size: "0.000003", total: "0.000001" }))).toMatchObject({ ok: false, field: "total", reason: expect.stringContaining("No exact price") });
    expect(previewCreate(input({ minFill: "101" }))).toMatchObject({ ok: false, field: "minFill" });
    expect(previewCreate(input({ paymentMint: TOKEN }))).toMatchObject({ ok: false, field: "paymentMint" });
    expect(previewCreate(input({ size: "0" }))).toMatchObject({ ok: false, field: "size" });
    expect(previewCreate(input({ total: "1.0000001" }))).toMatchObject({ ok: false, field: "total" });
  });

  it("never sets an expiry beyond 30 days", () => {
    for (const { label } of EXPIRY_PRESETS) {
      const at = expiresAtForPreset(NOW, label);
      expect(at > NOW && at <= NOW + MAX_EXPIRY_SECONDS).toBe(true);
    }
    expect(expiresAtForPreset(NOW, "1d")).toBe(NOW + 86_400n);
    expect(previewCreate(input({ expiry: "30d" })).ok).toBe(true);
  });

  it("makes distinct, growing nonces", () => {
    expect(newOfferNonce(1000, 0.5)).toBe(1_000_500n);
    expect(newOfferNonce(1001, 0)).toBeGreaterThan(newOfferNonce(1000, 0.999));
  });
});

describe("offer actions", () => {
  const maker = "Maker1111111111111111111111111111111111111";
  const other = "Other1111111111111111111111111111111111111";
  it("cancel for the maker of an active offer (lapsed too); close once it is not active; expire for anyone once lapsed", () => {
    expect(offerActions({ maker, state: "active", expiresAt: NOW + 1n }, maker, NOW)).toEqual({ cancel: true, close: false, expire: null, take: true });
    expect(offerActions({ maker, state: "active", expiresAt: NOW }, other, NOW)).toEqual({ cancel: false, close: false, expire: { bountyLamports: EXPIRY_BOUNTY_LAMPORTS }, take: false });
    expect(offerActions({ maker, state: "active", expiresAt: NOW }, maker, NOW)).toMatchObject({ cancel: true, close: false });
    expect(offerActions({ maker, state: "filled", expiresAt: NOW + 1n }, maker, NOW)).toEqual({ cancel: false, close: true, expire: null, take: false });
    expect(offerActions({ maker, state: "filled", expiresAt: NOW + 1n }, other, NOW)).toMatchObject({ close: false });
    expect(offerActions({ maker, state: "active", expiresAt: NOW }, null, NOW).expire).toBeNull();
  });
});
