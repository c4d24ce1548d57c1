import type { ProviderToken } from "./provider-schema";
import type { Token, TokenSafety, TrendingItem } from "./types";

/** What the service keeps of a known mint: the Token fields that come from the provider. */
export interface TokenMetadata {
  symbol: string;
  name: string;
  decimals: number;
  /** null when the provider has no usable icon; the placeholder is chosen at answer time. */
  icon: string | null;
  /** Absent in entries cached before the flag was kept: unknown until they are refreshed. */
  isVerified?: boolean;
}

const usableIcon = (icon: string | null | undefined): string | null =>
  typeof icon === "string" && icon.trim() !== "" ? icon : null;

const orNull = (value: number | null | undefined): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;

export function toMetadata(token: ProviderToken): TokenMetadata {
  return { symbol: token.symbol, name: token.name, decimals: token.decimals, icon: usableIcon(token.icon), isVerified: token.isVerified === true };
}

export function toToken(
  mint: string,
  metadata: TokenMetadata | null,
  chain: { decimals: number | null; safety: TokenSafety | null },
  placeholder: string,
): Token {
  return {
    mint,
    symbol: metadata?.symbol ?? null,
    name: metadata?.name ?? null,
    decimals: metadata?.decimals ?? chain.decimals,
    imageUrl: metadata?.icon ?? placeholder,
    isVerified: metadata?.isVerified ?? null,
    safety: chain.safety,
  };
}

export const dexscreenerUrl = (mint: string): string => `https://dexscreener.com/solana/${mint}`;

/** 24 h volume is buys plus sells; with either side missing the sum would understate it, so it is unknown. */
function volume24h(stats: ProviderToken["stats24h"]): number | null {
  const buy = orNull(stats?.buyVolume);
  const sell = orNull(stats?.sellVolume);
  return buy === null || sell === null ? null : buy + sell;
}

export function toTrendingItem(token: ProviderToken, placeholder: string): TrendingItem {
  return {
    mint: token.id,
    symbol: token.symbol,
    name: token.name,
    imageUrl: usableIcon(token.icon) ?? placeholder,
    priceUsd: orNull(token.usdPrice),
    change24h: orNull(token.stats24h?.priceChange),
    volume24h: volume24h(token.stats24h),
    liquidityUsd: orNull(token.liquidity),
    fdv: orNull(token.fdv),
    marketCap: orNull(token.mcap),
    holders: orNull(token.holderCount),
    organicScore: orNull(token.organicScore),
    isVerified: token.isVerified === true,
    dexscreenerUrl: dexscreenerUrl(token.id),
  };
}
