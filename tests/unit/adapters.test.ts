import { describe, expect, it } from "vitest";
import { parseTickerId, tickerId } from "../../lib/adapters/coingecko";
import { dexPairId, parseDexPairId } from "../../lib/adapters/dextools";
import { humanPriceOf, pairDecimals, wholeUnits } from "../../lib/adapters/pair-units";
import { operationTarget, type ReadOperation } from "../../web/agents/read-operations";
import { levelsPerSide } from "../../web/http/adapter-query-schemas";

// The aggregator adapters' pure parts: ids both ways, whole-token figures
// exact, the standard's depth as levels per side, and a tool call's request.

const pair = { tokenMint: "So11111111111111111111111111111111111111112", paymentMint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" };

describe("adapter ids", () => {
  it("joins and splits a pair both ways, and refuses anything but two parts", () => {
    expect(parseTickerId(tickerId(pair))).toEqual(pair);
    expect(parseDexPairId(dexPairId(pair))).toEqual(pair);
    for (const id of ["", "a", "a_", "_b", "a_b_c"]) expect(parseTickerId(id)).toBeNull();
    for (const id of ["", "a", "a:", ":b", "a:b:c"]) expect(parseDexPairId(id)).toBeNull();
  });
});

describe("whole-token figures", () => {
  const d = { token: 9, payment: 6 };
  it("shifts prices by the token's decimals less the payment's, and amounts by their own, exactly", () => {
    expect(humanPriceOf("0.185", d)).toBe("185");
    expect(humanPriceOf("0.0000000000000000001", d)).toBe("0.0000000000000001");
    expect(wholeUnits("18446744073709551615", 9)).toBe("18446744073.709551615");
    expect(wholeUnits("0", 6)).toBe("0");
  });
  it("needs both mints' decimals", () => {
    expect(pairDecimals(new Map([[pair.tokenMint, 9]]), pair)).toBeNull();
    expect(pairDecimals(new Map([[pair.tokenMint, 9], [pair.paymentMint, 0]]), pair)).toEqual({ token: 9, payment: 0 });
  });
  it("reads the standard's depth as both sides together, 0 the whole book", () => {
    expect([levelsPerSide(0), levelsPerSide(1), levelsPerSide(100), levelsPerSide(101)]).toEqual([500, 1, 50, 51]);
  });
});

describe("a tool call's request", () => {
  const operation: ReadOperation = {
    name: "listOfferFills",
    path: "/v1/offers/{pda}/fills",
    summary: "",
    description: "",
    parameters: [
      { name: "pda", in: "path", required: true, description: "", schema: {} },
      { name: "limit", in: "query", required: false, description: "", schema: {} },
      { name: "cursor", in: "query", required: false, description: "", schema: {} },
    ],
  };
  it("puts path parameters in place and the rest in the query, numbers as text, unknown arguments dropped", () => {
    expect(operationTarget(operation, { pda: "abc", limit: 5, other: "x" })).toEqual({ target: "/v1/offers/abc/fills?limit=5", pathParams: { pda: "abc" } });
    expect(operationTarget(operation, { pda: "a/b" }).target).toBe("/v1/offers/a%2Fb/fills");
  });
});
