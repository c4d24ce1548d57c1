import { describe, expect, it } from "vitest";
import { fillForPayment, isExactOfferTotal, nearestExactPrice, percentFrom, priceOrder, rawPriceRatio } from "../../lib/program";

const six = { tokenDecimals: 6, paymentDecimals: 6 };

describe("order entry by price", () => {
  it("3 ORCA for 10 USDC: the nearest exact price, never a refusal", () => {
    const order = priceOrder({ ...six, price: "3.3333333333", mode: "amount", quantity: "3" });
    expect(order).toMatchObject({ ok: true, size: 3_000_000n, humanPrice: "3.333333", total: 9_999_999n, adjusted: true });
    if (!order.ok) throw new Error("refused");
    expect(isExactOfferTotal(order.size, order.price.pricePerToken, order.price.priceScale)).toBe(true);
  });

  it("keeps a price that is already exact", () => {
    expect(priceOrder({ ...six, price: "2", mode: "amount", quantity: "10" })).toMatchObject({ ok: true, size: 10_000_000n, total: 20_000_000n, humanPrice: "2", adjusted: false });
  });

  it("spend mode: the size the total buys, priced exactly", () => {
    const order = priceOrder({ ...six, price: "3.3333333333", mode: "total", quantity: "10" });
    expect(order.ok).toBe(true);
    if (!order.ok) return;
    expect(order.size).toBe(3_000_000n);
    expect(isExactOfferTotal(order.size, order.price.pricePerToken, order.price.priceScale)).toBe(true);
  });

  it("moves to the nearest grid point for any size (odd sizes, other decimals)", () => {
    for (const [size, price] of [
      [7n, "0.123456789"],
      [123_456_789n, "17.5"],
      [1n, "0.4"],
      [999_999_937n, "3.14159"],
    ] as const) {
      const target = rawPriceRatio(price, 9, 6)!;
      const scaled = nearestExactPrice(size, target)!;
      expect(isExactOfferTotal(size, scaled.pricePerToken, scaled.priceScale)).toBe(true);
      expect(scaled.pricePerToken).toBeGreaterThan(0n);
    }
  });

  it("refuses only what has no meaning, with the reason and the field", () => {
    expect(priceOrder({ ...six, price: "", mode: "amount", quantity: "1" })).toMatchObject({ ok: false, field: "price" });
    expect(priceOrder({ ...six, price: "abc", mode: "amount", quantity: "1" })).toMatchObject({ ok: false, field: "price" });
    expect(priceOrder({ ...six, price: "0", mode: "amount", quantity: "1" })).toMatchObject({ ok: false, field: "price" });
    expect(priceOrder({ ...six, price: "1", mode: "amount", quantity: "1.0000001" })).toMatchObject({ ok: false, field: "amount" });
    expect(priceOrder({ ...six, price: "1000000", mode: "total", quantity: "0.000001" })).toMatchObject({ ok: false, field: "amount" });
  });

  it("says how far a price lies from the best price", () => {
    expect(percentFrom({ pricePerToken: 11n, priceScale: 1 }, "1")).toBeCloseTo(10);
    expect(percentFrom({ pricePerToken: 9n, priceScale: 1 }, "1")).toBeCloseTo(-10);
  });
});

describe("take by payment amount", () => {
  const terms = { pricePerToken: 25n, priceScale: 1, remaining: 1_000_000n };
  it("the largest fill whose gross payment fits", () => {
    const fill = fillForPayment(terms, 1000n, "gross");
    expect((fill * 25n) / 10n).toBeLessThanOrEqual(1000n);
    expect(((fill + 1n) * 25n) / 10n).toBeGreaterThan(1000n);
  });
  it("the largest fill whose net (after the fee) fits, capped at the remainder", () => {
    const fill = fillForPayment(terms, 1000n, "net");
    expect(fill).toBeGreaterThan(fillForPayment(terms, 1000n, "gross"));
    expect(fillForPayment(terms, 10n ** 12n, "net")).toBe(1_000_000n);
  });
});

describe("odd sizes keep the price close", () => {
  it("rounds an odd amount rather than move the price to a whole raw unit", () => {
    const order = priceOrder({ ...six, price: "3.33", mode: "amount", quantity: "3.141593" });
    expect(order.ok).toBe(true);
    if (!order.ok) return;
    expect(Math.abs(Number(order.humanPrice) - 3.33) / 3.33).toBeLessThan(1e-4);
    expect(Math.abs(Number(order.size) - 3_141_593) / 3_141_593).toBeLessThan(1e-4);
    expect(isExactOfferTotal(order.size, order.price.pricePerToken, order.price.priceScale)).toBe(true);
  });

  it("spending never totals more than the amount typed", () => {
    for (const [price, spend] of [["3.3333333333", "10"], ["0.7777", "123.456789"], ["17.25", "999.999999"]] as const) {
      const order = priceOrder({ ...six, price, mode: "total", quantity: spend });
      expect(order.ok).toBe(true);
      if (!order.ok) continue;
      expect(order.total).toBeLessThanOrEqual(BigInt(Math.round(Number(spend) * 1e6)));
      expect(Math.abs(Number(order.humanPrice) - Number(price)) / Number(price)).toBeLessThan(1e-3);
    }
  });
});
