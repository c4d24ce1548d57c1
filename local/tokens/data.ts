import { createHash } from "node:crypto";
import { Keypair } from "@solana/web3.js";
import { localIconPath } from "./icons";

// Token data in the shape of Jupiter's Tokens V2 API (`/tokens/v2/search`,
// `/tokens/v2/{category}/{interval}`). Figures are realistic snapshots, not
// live prices; the mints of the well-known tokens are their real mainnet mints.
// Icons are drawn and served by the stand-in itself (icons.ts): no network needed.

export const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
export const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";

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
    tokenProgram: spec.tokenProgram ?? TOKEN_PROGRAM,
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

export const WELL_KNOWN: TokenSpec[] = [
  {
    mint: "So11111111111111111111111111111111111111112",
    symbol: "SOL",
    name: "Wrapped SOL",
    decimals: 9,
    icon: localIconPath("So11111111111111111111111111111111111111112"),
    usdPrice: 185.21,
    circSupply: 545_312_000,
    totalSupply: 608_400_000,
    liquidity: 652_000_000,
    holderCount: 3_412_000,
    organicScore: 98.9,
    isVerified: true,
    tags: ["community", "strict", "verified"],
    change24h: 1.84,
    buyVolume24h: 1_204_000_000,
    sellVolume24h: 1_183_000_000,
    website: "https://solana.com",
  },
  {
    mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
    symbol: "USDC",
    name: "USD Coin",
    decimals: 6,
    icon: localIconPath("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"),
    usdPrice: 0.99985,
    circSupply: 8_912_000_000,
    totalSupply: 8_912_000_000,
    liquidity: 481_000_000,
    holderCount: 4_215_000,
    organicScore: 99.2,
    isVerified: true,
    tags: ["community", "strict", "verified", "stablecoin"],
    change24h: -0.004,
    buyVolume24h: 812_000_000,
    sellVolume24h: 806_000_000,
    website: "https://www.circle.com/usdc",
  },
  {
    // Devnet USDC, an accepted payment mint: named as the program's payment list names it (lib/program/constants.ts), one name everywhere.
    mint: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
    symbol: "USDC",
    name: "USD Coin (devnet)",
    decimals: 6,
    icon: localIconPath("4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU"),
    usdPrice: 1,
    isVerified: false,
    tags: ["stablecoin"],
  },
  {
    mint: "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB",
    symbol: "USDT",
    name: "USDT",
    decimals: 6,
    icon: localIconPath("Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"),
    usdPrice: 1.0003,
    circSupply: 2_394_000_000,
    totalSupply: 2_394_000_000,
    liquidity: 121_400_000,
    holderCount: 2_087_000,
    organicScore: 97.5,
    isVerified: true,
    tags: ["community", "strict", "verified", "stablecoin"],
    change24h: 0.01,
    buyVolume24h: 214_000_000,
    sellVolume24h: 209_500_000,
  },
  {
    mint: "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN",
    symbol: "JUP",
    name: "Jupiter",
    decimals: 6,
    icon: localIconPath("JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN"),
    usdPrice: 0.4217,
    circSupply: 3_104_000_000,
    totalSupply: 6_863_000_000,
    liquidity: 14_200_000,
    holderCount: 857_247,
    organicScore: 98.08,
    isVerified: true,
    tags: ["community", "strict", "verified"],
    change24h: 3.12,
    buyVolume24h: 38_400_000,
    sellVolume24h: 36_900_000,
    website: "https://jup.ag",
  },
  {
    mint: "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263",
    symbol: "Bonk",
    name: "Bonk",
    decimals: 5,
    icon: localIconPath("DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263"),
    usdPrice: 0.00001983,
    circSupply: 81_460_000_000_000,
    totalSupply: 88_870_000_000_000,
    liquidity: 22_800_000,
    holderCount: 962_300,
    organicScore: 96.1,
    isVerified: true,
    tags: ["community", "strict", "verified"],
    change24h: -2.47,
    buyVolume24h: 41_200_000,
    sellVolume24h: 43_700_000,
  },
  {
    mint: "EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm",
    symbol: "WIF",
    name: "dogwifhat",
    decimals: 6,
    icon: localIconPath("EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm"),
    usdPrice: 0.7234,
    circSupply: 998_840_000,
    totalSupply: 998_840_000,
    liquidity: 18_100_000,
    holderCount: 231_800,
    organicScore: 95.4,
    isVerified: true,
    tags: ["community", "strict", "verified"],
    change24h: 5.66,
    buyVolume24h: 52_300_000,
    sellVolume24h: 49_800_000,
  },
  {
    mint: "J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn",
    symbol: "JitoSOL",
    name: "Jito Staked SOL",
    decimals: 9,
    icon: localIconPath("J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn"),
    usdPrice: 228.64,
    circSupply: 13_950_000,
    totalSupply: 13_950_000,
    liquidity: 96_300_000,
    holderCount: 248_500,
    organicScore: 94.7,
    isVerified: true,
    tags: ["community", "strict", "verified", "lst"],
    change24h: 1.9,
    buyVolume24h: 61_000_000,
    sellVolume24h: 58_200_000,
  },
  {
    mint: "mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So",
    symbol: "mSOL",
    name: "Marinade staked SOL (mSOL)",
    decimals: 9,
    icon: localIconPath("mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So"),
    usdPrice: 240.12,
    circSupply: 3_212_000,
    totalSupply: 3_212_000,
    liquidity: 41_700_000,
    holderCount: 162_900,
    organicScore: 90.2,
    isVerified: true,
    tags: ["community", "strict", "verified", "lst"],
    change24h: 1.7,
    buyVolume24h: 9_800_000,
    sellVolume24h: 10_100_000,
  },
  {
    mint: "HZ1JovNiVvGrGNiiYvEozEVgZ58xaU3RKwX8eACQBCt3",
    symbol: "PYTH",
    name: "Pyth Network",
    decimals: 6,
    icon: localIconPath("HZ1JovNiVvGrGNiiYvEozEVgZ58xaU3RKwX8eACQBCt3"),
    usdPrice: 0.1236,
    circSupply: 5_749_000_000,
    totalSupply: 9_999_970_000,
    liquidity: 6_900_000,
    holderCount: 291_400,
    organicScore: 92.3,
    isVerified: true,
    tags: ["community", "strict", "verified"],
    change24h: -1.15,
    buyVolume24h: 7_300_000,
    sellVolume24h: 7_900_000,
  },
  {
    mint: "4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R",
    symbol: "RAY",
    name: "Raydium",
    decimals: 6,
    icon: localIconPath("4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R"),
    usdPrice: 2.318,
    circSupply: 268_400_000,
    totalSupply: 555_000_000,
    liquidity: 11_600_000,
    holderCount: 162_200,
    organicScore: 91.8,
    isVerified: true,
    tags: ["community", "strict", "verified"],
    change24h: 0.92,
    buyVolume24h: 12_400_000,
    sellVolume24h: 11_900_000,
  },
  {
    mint: "orcaEKTdK7LKz57vaAYr9QeNsVEPfiu6QeMU1kektZE",
    symbol: "ORCA",
    name: "Orca",
    decimals: 6,
    icon: localIconPath("orcaEKTdK7LKz57vaAYr9QeNsVEPfiu6QeMU1kektZE"),
    usdPrice: 1.94,
    circSupply: 60_110_000,
    totalSupply: 99_990_000,
    liquidity: 4_300_000,
    holderCount: 83_100,
    organicScore: 86.4,
    isVerified: true,
    tags: ["community", "strict", "verified"],
    change24h: -0.38,
    buyVolume24h: 3_100_000,
    sellVolume24h: 3_250_000,
  },
  {
    mint: "jtojtomepa8beP8AuQc6eXt5FriJwfFMwQx2v2f9mCL",
    symbol: "JTO",
    name: "JITO",
    decimals: 9,
    icon: localIconPath("jtojtomepa8beP8AuQc6eXt5FriJwfFMwQx2v2f9mCL"),
    usdPrice: 1.62,
    circSupply: 376_000_000,
    totalSupply: 1_000_000_000,
    liquidity: 5_400_000,
    holderCount: 97_800,
    organicScore: 89.7,
    isVerified: true,
    tags: ["community", "strict", "verified"],
    change24h: 2.05,
    buyVolume24h: 8_600_000,
    sellVolume24h: 8_100_000,
  },
  {
    mint: "2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo",
    symbol: "PYUSD",
    name: "PayPal USD",
    decimals: 6,
    icon: localIconPath("2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo"),
    usdPrice: 0.99991,
    circSupply: 512_000_000,
    totalSupply: 512_000_000,
    liquidity: 38_500_000,
    holderCount: 41_600,
    organicScore: 84.1,
    isVerified: true,
    tags: ["community", "strict", "verified", "stablecoin", "token-2022"],
    tokenProgram: TOKEN_2022_PROGRAM,
    change24h: 0.002,
    buyVolume24h: 21_000_000,
    sellVolume24h: 20_400_000,
  },
  {
    mint: "7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr",
    symbol: "POPCAT",
    name: "POPCAT",
    decimals: 9,
    icon: localIconPath("7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr"),
    usdPrice: 0.2147,
    circSupply: 979_970_000,
    totalSupply: 979_970_000,
    liquidity: 7_800_000,
    holderCount: 118_700,
    organicScore: 88.9,
    isVerified: true,
    tags: ["community", "strict", "verified"],
    change24h: 7.4,
    buyVolume24h: 16_900_000,
    sellVolume24h: 15_100_000,
  },
];

/**
 * Tokens the stand-in knows only thinly: one launched minutes ago (no price,
 * no liquidity, no stats yet, as upstream omits them) and one without an icon.
 * Their mints are arbitrary keys, not mainnet tokens.
 */
export const THIN_TOKENS: TokenSpec[] = [
  {
    mint: "CpKBivjCQmKC5NFQE8s3X4stKaMZ3Ecn4UG637Gtp4Av",
    symbol: "NEWB",
    name: "Fresh Launch",
    decimals: 6,
    organicScore: 3.2,
    holderCount: 41,
  },
  {
    mint: "CNQKSkihsV6STf2QrGDidAYChvtGodT3daL6CKjxEamr",
    symbol: "NOICON",
    name: "Iconless Token",
    decimals: 8,
    icon: null,
    usdPrice: 0.0412,
    circSupply: 50_000_000,
    totalSupply: 100_000_000,
    liquidity: 88_000,
    holderCount: 1_930,
    organicScore: 22.5,
    change24h: -12.8,
    buyVolume24h: 45_000,
    sellVolume24h: 61_000,
  },
];

/**
 * Valid 32-byte addresses the stand-in does not know: the Rent sysvar, the
 * System and Token programs (accounts, not mints), and two arbitrary keys.
 */
export const UNKNOWN_MINTS = [
  "SysvarRent111111111111111111111111111111111",
  "11111111111111111111111111111111",
  TOKEN_PROGRAM,
  "4yWud1WHV5ADJvVMPXnJShS5oWbxFa6Jo3hmyBkzsguy",
  "7iNRzt9zAutPM1tBD5ChQLmvf17RAqeyqVfBU1hWMLt5",
];

/**
 * `count` made-up but well-formed tokens with deterministic mints (from a
 * seed), for benches and demos that need more known mints than the real list.
 */
export function syntheticTokens(count: number, seed = "bench"): TokenSpec[] {
  return Array.from({ length: count }, (_, i) => {
    const digest = createHash("sha256").update(`${seed}:${i}`).digest();
    const mint = Keypair.fromSeed(digest).publicKey.toBase58();
    const price = 0.001 * (i + 1) ** 1.5;
    return {
      mint,
      symbol: `SYN${i}`,
      name: `Synthetic Token ${i}`,
      decimals: [6, 9, 8, 5][i % 4]!,
      icon: localIconPath(mint),
      usdPrice: price,
      circSupply: 1_000_000_000,
      totalSupply: 1_000_000_000,
      liquidity: 50_000 + i * 10_000,
      holderCount: 500 + i * 37,
      organicScore: 20 + ((i * 7) % 70),
      change24h: ((i % 11) - 5) * 1.3,
      buyVolume24h: 10_000 + i * 1_000,
      sellVolume24h: 9_000 + i * 1_100,
    };
  });
}
