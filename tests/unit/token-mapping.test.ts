import { describe, expect, it } from "vitest";
import { jupiterToken, THIN_TOKENS, WELL_KNOWN, type TokenSpec } from "../../local/tokens/index";
import { toMetadata, toToken, toTrendingItem } from "../../lib/tokens/mapping";
import { providerTokenListSchema, type ProviderToken } from "../../lib/tokens/provider-schema";

// The provider's token (as the stand-in answers it, read through the same
// schema the client reads it with) mapped to the contract's Token and
// TrendingItem. The service's calls, caching and order are the integration
// tier's (tests/integration/tokens/mapping.test.ts).

const PLACEHOLDER = "/token-placeholder.svg";
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const BONK = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";
const SOL = "So11111111111111111111111111111111111111112";
const [FRESH, ICONLESS] = THIN_TOKENS as [TokenSpec, TokenSpec];

const spec = (mint: string) => WELL_KNOWN.find((t) => t.mint === mint)!;
/** The token as the provider client holds it after parsing the answer. */
const provided = (token: TokenSpec): ProviderToken => providerTokenListSchema.parse([jupiterToken(token)])[0]!;

describe("trending item", () => {
  it("maps every contract field from the provider's token", () => {
    const upstream = jupiterToken(spec(BONK));
    expect(toTrendingItem(provided(spec(BONK)), PLACEHOLDER)).toEqual({
      mint: BONK,
      symbol: upstream.symbol,
      name: upstream.name,
      imageUrl: upstream.icon,
      priceUsd: upstream.usdPrice,
      change24h: upstream.stats24h!.priceChange,
      volume24h: upstream.stats24h!.buyVolume! + upstream.stats24h!.sellVolume!,
      liquidityUsd: upstream.liquidity,
      fdv: upstream.fdv,
      marketCap: upstream.mcap,
      holders: upstream.holderCount,
      organicScore: upstream.organicScore,
      isVerified: true,
      dexscreenerUrl: `https://dexscreener.com/solana/${BONK}`,
    });
  });

  it("turns missing figures into null, never NaN or 0, and a missing icon into the placeholder", () => {
    const fresh = toTrendingItem(provided(FRESH), PLACEHOLDER);
    expect(fresh).toMatchObject({
      symbol: "NEWB",
      imageUrl: PLACEHOLDER,
      priceUsd: null,
      change24h: null,
      volume24h: null,
      liquidityUsd: null,
      fdv: null,
      marketCap: null,
      holders: 41,
      organicScore: 3.2,
      isVerified: false,
    });
    const iconless = toTrendingItem(provided(ICONLESS), PLACEHOLDER);
    expect(iconless.imageUrl).toBe(PLACEHOLDER);
    expect(iconless.volume24h).toBe(45_000 + 61_000);
    for (const item of [fresh, iconless]) {
      expect(JSON.stringify(item)).not.toContain("NaN");
      for (const value of Object.values(item)) expect(Number.isNaN(value)).toBe(false);
    }
  });
});

describe("token", () => {
  const NO_CHAIN = { decimals: null, safety: null };

  it("maps symbol, name, decimals, icon and the verified flag", () => {
    const bonk = jupiterToken(spec(BONK));
    expect(toToken(BONK, toMetadata(provided(spec(BONK))), NO_CHAIN, PLACEHOLDER)).toEqual({
      mint: BONK,
      symbol: "Bonk",
      name: "Bonk",
      decimals: 5,
      imageUrl: bonk.icon,
      isVerified: true,
      safety: null,
    });
    expect(toToken(SOL, toMetadata(provided(spec(SOL))), NO_CHAIN, PLACEHOLDER)).toMatchObject({ symbol: "SOL", name: "Wrapped SOL", decimals: 9 });
    expect(toToken(USDC, toMetadata(provided(spec(USDC))), NO_CHAIN, PLACEHOLDER)).toMatchObject({ symbol: "USDC", decimals: 6 });
    expect(toToken(ICONLESS.mint, toMetadata(provided(ICONLESS)), NO_CHAIN, PLACEHOLDER)).toEqual({
      mint: ICONLESS.mint,
      symbol: "NOICON",
      name: "Iconless Token",
      decimals: 8,
      imageUrl: PLACEHOLDER,
      isVerified: false,
      safety: null,
    });
  });

  it("answers a mint the provider does not know with null symbol, name and verified flag, and the chain's decimals when it has them", () => {
    expect(toToken(BONK, null, NO_CHAIN, PLACEHOLDER)).toEqual({ mint: BONK, symbol: null, name: null, decimals: null, imageUrl: PLACEHOLDER, isVerified: null, safety: null });
    expect(toToken(BONK, null, { decimals: 7, safety: null }, PLACEHOLDER)).toMatchObject({ decimals: 7, isVerified: null });
  });

  it("prefers the provider's decimals to the chain's", () => {
    expect(toToken(USDC, toMetadata(provided(spec(USDC))), { decimals: 9, safety: null }, PLACEHOLDER).decimals).toBe(6);
  });

  it("reads a metadata entry cached before the verified flag was kept as not knowing it", () => {
    const { isVerified: _dropped, ...older } = toMetadata(provided(spec(USDC)));
    expect(toToken(USDC, older, NO_CHAIN, PLACEHOLDER).isVerified).toBeNull();
  });
});
