import { describe, expect, it } from "vitest";
import { priceString } from "../../lib/program/pricing";
import { PRICE_CASES } from "../helpers/price-cases";

// The price a candle carries: pricePerToken / 10^priceScale as an exact
// decimal string. tests/integration/api/candles.test.ts checks PostgreSQL's fill_price
// writes the same strings for these cases.

describe("priceString: a fill's price as an exact decimal string", () => {
  it.each(PRICE_CASES)("%s / 10^%s is %s (no trailing zeros, no exponent, no float)", (pricePerToken, priceScale, expected) => {
    expect(priceString(pricePerToken, priceScale)).toBe(expected);
  });
});
