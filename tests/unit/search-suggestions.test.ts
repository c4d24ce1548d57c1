import { describe, expect, it } from "vitest";
import { suggest, type SuggestMarket, type SuggestToken } from "../../client/search-suggestions";

const ORCA = "orcaEKTdK7LKz57vaAYr9QeNsVEPfiu6QeMU1kektZE";
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const SOL = "So11111111111111111111111111111111111111112";
const JUP = "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN";

const tokens = new Map<string, SuggestToken>([
  [ORCA, { mint: ORCA, symbol: "ORCA", name: "Orca", decimals: 6 }],
  [USDC, { mint: USDC, symbol: "USDC", name: "USD Coin", decimals: 6 }],
  [SOL, { mint: SOL, symbol: "SOL", name: "Wrapped SOL", decimals: 9 }],
  [JUP, { mint: JUP, symbol: "JUP", name: "Jupiter", decimals: 6 }],
]);
// ORCA/SOL comes first in the list (as /v1/markets may order it), ORCA/USDC is busier.
const markets: SuggestMarket[] = [
  { tokenMint: ORCA, paymentMint: SOL, fills24h: 4, volume24h: "900000000000" },
  { tokenMint: JUP, paymentMint: USDC, fills24h: 50, volume24h: "1000" },
  { tokenMint: ORCA, paymentMint: USDC, fills24h: 40, volume24h: "5000000000" },
];

describe("search suggestions", () => {
  it("puts the busiest market of a symbol first", () => {
    const found = suggest("orca", markets, tokens);
    expect(found.map((s) => s.label)).toEqual(["ORCA / USDC", "ORCA / SOL"]);
    expect(found[0]?.href).toBe(`/book/${ORCA}/${USDC}`);
  });

  it("matches pairs typed with a slash, and payment symbols after token symbols", () => {
    expect(suggest("orca/so", markets, tokens).map((s) => s.label)).toEqual(["ORCA / SOL"]);
    expect(suggest("usdc", markets, tokens).map((s) => s.label)).toEqual(["JUP / USDC", "ORCA / USDC"]);
    expect(suggest("jupi", markets, tokens).map((s) => s.label)).toEqual(["JUP / USDC"]);
    expect(suggest("nothing", markets, tokens)).toEqual([]);
  });

  it("offers a mint's pairs, busiest first, and otherwise a wallet's pages for a full address", () => {
    expect(suggest(USDC, markets, tokens).map((s) => s.label)).toEqual(["JUP / USDC", "ORCA / USDC"]);
    const wallet = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
    const found = suggest(wallet, markets, tokens);
    expect(found.map((s) => s.kind)).toEqual(["wallet", "wallet", "offer"]);
    expect(found[0]?.href).toBe(`/makers/${wallet}`);
  });
});
