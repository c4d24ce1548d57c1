import { TOKEN_PROGRAM_ADDRESS } from "../../lib/program/constants";

// One token as Jupiter's Tokens V2 API (`/tokens/v2/search`,
// `/tokens/v2/{category}/{interval}`) returns it, filled in plausibly from
// the few figures a TokenSpec gives. The tokens themselves are in catalog.ts.

export interface WindowStats {
  priceChange?: number;
  holderChange?: number;
  liquidityChange?: number;
  volumeChange?: number;
  buyVolume?: number;
  sellVolume?: number;
  buyOrganicVolume?: number;
  sellOrganicVolume?: number;
  numBuys?: number;
  numSells?: number;
  numTraders?: number;
  numOrganicBuyers?: number;
  numNetBuyers?: number;
}

/** One token as Jupiter Tokens V2 returns it. Optional fields are omitted for young or thin tokens, as upstream does. */
export interface JupiterToken {
  id: string;
  name: string;
  symbol: string;
  icon?: string | null;
  decimals: number;
  twitter?: string;
  website?: string;
  dev?: string;
  circSupply?: number;
  totalSupply?: number;
  tokenProgram: string;
  firstPool?: { id: string; createdAt: string };
  holderCount?: number;
  audit?: { mintAuthorityDisabled?: boolean; freezeAuthorityDisabled?: boolean; topHoldersPercentage?: number };
  organicScore: number;
  organicScoreLabel: "high" | "medium" | "low";
  isVerified?: boolean;
  cexes?: string[];
  tags?: string[];
  fdv?: number;
  mcap?: number;
  usdPrice?: number;
  priceBlockId?: number;
  liquidity?: number;
  stats5m?: WindowStats;
  stats1h?: WindowStats;
  stats6h?: WindowStats;
  stats24h?: WindowStats;
  ctLikes?: number;
  smartCtLikes?: number;
  updatedAt: string;
}

/** What a caller (e.g. `npm start` for the local cluster's mints) supplies; the rest is filled in plausibly. */
export interface TokenSpec {
  mint: string;
  symbol: string;
  name: string;
  decimals: number;
  icon?: string | null;
  usdPrice?: number;
  circSupply?: number;
  totalSupply?: number;
  liquidity?: number;
  holderCount?: number;
  organicScore?: number;
  isVerified?: boolean;
  tags?: string[];
  tokenProgram?: string;
  /** 24 h figures; omit to leave stats24h out (a token too young to have any). */
  change24h?: number;
  buyVolume24h?: number;
  sellVolume24h?: number;
  website?: string;
  twitter?: string;
}

const UPDATED_AT = "2025-10-01T12:00:00.000Z";

function label(score: number): JupiterToken["organicScoreLabel"] {
  return score >= 70 ? "high" : score >= 30 ? "medium" : "low";
}

/** A window's stats scaled down from the 24 h figures, so shorter windows look proportionate. */
function windowStats(spec: TokenSpec, share: number): WindowStats | undefined {
  if (spec.buyVolume24h === undefined || spec.sellVolume24h === undefined) return undefined;
  const buyVolume = spec.buyVolume24h * share;
  const sellVolume = spec.sellVolume24h * share;
  const avgTrade = Math.max(50, (spec.usdPrice ?? 1) * 10);
  const numBuys = Math.round(buyVolume / avgTrade);
  const numSells = Math.round(sellVolume / avgTrade);
  return {
    priceChange: (spec.change24h ?? 0) * share,
    holderChange: 0.01 * share,
    liquidityChange: 0.2 * share,
    volumeChange: 3 * share,
    buyVolume,
    sellVolume,
    buyOrganicVolume: buyVolume * 0.35,
    sellOrganicVolume: sellVolume * 0.33,
    numBuys,
    numSells,
    numTraders: Math.round((numBuys + numSells) * 0.4),
    numOrganicBuyers: Math.round(numBuys * 0.05),
    numNetBuyers: Math.round((numBuys - numSells) * 0.1),
  };
}

export function jupiterToken(spec: TokenSpec): JupiterToken {
  const organicScore = spec.organicScore ?? 50;
  const token: JupiterToken = {
    id: spec.mint,
    name: spec.name,
    symbol: spec.symbol,
    decimals: spec.decimals,
    tokenProgram: spec.tokenProgram ?? TOKEN_PROGRAM_ADDRESS,
    organicScore,
    organicScoreLabel: label(organicScore),
    isVerified: spec.isVerified ?? false,
    tags: spec.tags ?? (spec.isVerified ? ["verified"] : []),
    updatedAt: UPDATED_AT,
  };
  if (spec.icon !== undefined) token.icon = spec.icon;
  if (spec.website) token.website = spec.website;
  if (spec.twitter) token.twitter = spec.twitter;
  if (spec.circSupply !== undefined) token.circSupply = spec.circSupply;
  if (spec.totalSupply !== undefined) token.totalSupply = spec.totalSupply;
  if (spec.holderCount !== undefined) token.holderCount = spec.holderCount;
  if (spec.usdPrice !== undefined) {
    token.usdPrice = spec.usdPrice;
    token.priceBlockId = 370_000_000;
    if (spec.circSupply !== undefined) token.mcap = spec.usdPrice * spec.circSupply;
    if (spec.totalSupply !== undefined) token.fdv = spec.usdPrice * spec.totalSupply;
  }
  if (spec.liquidity !== undefined) token.liquidity = spec.liquidity;
  token.audit = { mintAuthorityDisabled: true, freezeAuthorityDisabled: true, topHoldersPercentage: 12.5 };
  const windows = [
    ["stats5m", 5 / 1440],
    ["stats1h", 1 / 24],
    ["stats6h", 1 / 4],
    ["stats24h", 1],
  ] as const;
  for (const [field, share] of windows) {
    const stats = windowStats(spec, share);
    if (stats) token[field] = stats;
  }
  return token;
}
