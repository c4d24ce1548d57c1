import { describe, expect, it } from "vitest";
import { takeableNearMarket } from "../../local/cluster/near-market";

/**
 * The demo takers' rule: offers near the market only, so a newcomer's far
 * offer stays open to be cancelled (on a local cluster:
 * tests/integration/cluster/demo-near-market.test.ts).
 */

describe("takeableNearMarket", () => {
  it("takes asks up to 5% above the mid and bids down to 5% below, and anything better for the taker", () => {
    expect(takeableNearMarket("sell", 104, 100)).toBe(true);
    expect(takeableNearMarket("sell", 50, 100)).toBe(true);
    expect(takeableNearMarket("sell", 106, 100)).toBe(false);
    expect(takeableNearMarket("buy", 96, 100)).toBe(true);
    expect(takeableNearMarket("buy", 160, 100)).toBe(true);
    // A bid 60% below the market, as in the report: left for its maker.
    expect(takeableNearMarket("buy", 40, 100)).toBe(false);
    expect(takeableNearMarket("buy", 100, 0)).toBe(false);
    expect(takeableNearMarket("sell", Number.NaN, 100)).toBe(false);
  });
});
