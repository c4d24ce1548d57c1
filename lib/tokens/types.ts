import type Redis from "ioredis";
import type { MintSafety } from "./mint-safety";

/** A mint's safety facts as of the slot of the chain read they come from. */
export type TokenSafety = MintSafety & { slot: number };

/** One entry of `/v1/tokens` (docs/api.md#resources, "Token"). */
export interface Token {
  mint: string;
  /** null when the provider does not recognize the mint. */
  symbol: string | null;
  name: string | null;
  /** From the provider, else from the chain; null only when the mint is not a mint account on chain (or no RPC is configured). */
  decimals: number | null;
  /** The provider's icon, or the app's placeholder image. */
  imageUrl: string;
  /** The provider's verified flag; null when the provider does not know the mint. */
  isVerified: boolean | null;
  /**
   * From the mint account on chain; null when no RPC is configured, the
   * address is not a mint, or (for a mint whose decimals the provider gave)
   * the chain did not answer in time.
   */
  safety: TokenSafety | null;
}

/**
 * One entry of `/v1/trending`. A numeric field the provider left out is null
 * rather than 0 or NaN: 0 would be a claim (no liquidity), NaN is not JSON.
 */
export interface TrendingItem {
  mint: string;
  symbol: string;
  name: string;
  imageUrl: string;
  priceUsd: number | null;
  change24h: number | null;
  volume24h: number | null;
  liquidityUsd: number | null;
  fdv: number | null;
  marketCap: number | null;
  holders: number | null;
  organicScore: number | null;
  isVerified: boolean;
  dexscreenerUrl: string;
}

export interface TrendingResult {
  items: TrendingItem[];
  /** Unix seconds of the upstream fetch that produced `items`. */
  fetchedAt: number;
  source: "cache" | "live";
  count: number;
}

export interface TokenServiceConfig {
  /** Provider base URL, e.g. https://api.jup.ag (no trailing path). */
  apiUrl: string;
  /** Sent as `x-api-key`; an empty string counts as unset. */
  apiKey?: string;
  /** Upstream calls allowed per budget window (default window: one minute). */
  rpm: number;
  /** The budget window; shortened only by tests. Default 60 000. */
  budgetWindowMs?: number;
  /** Calls that may go out back to back; the rest are spread evenly. Default rpm/6. */
  burst?: number;
  /** Calls allowed to wait for a slot; beyond it a call fails at once (and cache or chain answers). Default 100. */
  maxQueue?: number;
  /** Longest a call waits for a slot before giving up. Default 10 000. */
  maxQueueWaitMs?: number;
  /** Per upstream request. Default 5 000. */
  timeoutMs?: number;
  /** Shared cache and budget across instances; unset (and no `redis`) means in memory. */
  redisUrl?: string;
  /** An existing connection to use instead of `redisUrl`; the service does not close it. */
  redis?: Redis;
  /** Namespace of this service's Redis keys (tests isolate runs with it). Default "tokens:v1:". */
  redisKeyPrefix?: string;
  /** Solana JSON-RPC for decimals of mints the provider does not know; unset means no chain lookups. */
  rpcUrl?: string;
  /** Absolute or root-relative URL of the image used when the provider has no icon. */
  placeholderImageUrl: string;
  /** How many trending items to ask for (provider maximum 100). Default 50. */
  trendingLimit?: number;
  /** Cache lifetimes in ms: fresh known metadata (6 h), unknown mints (10 min), trending (60 s). */
  metadataTtlMs?: number;
  unknownTtlMs?: number;
  trendingTtlMs?: number;
  /** How long an expired entry is kept to answer while the provider is down. Default 7 days. */
  staleRetentionMs?: number;
  /** With a stale entry at hand, how long to wait for a refresh before answering from it. Default 1 000. */
  staleWaitMs?: number;
  /** How long lookups of different requests are collected into one call. Default 2. */
  batchWindowMs?: number;
  /** Back-off when a 429 names no reset time. Default 30 000. */
  defaultRateLimitBackoffMs?: number;
  /** The clock of cache freshness (tests move it to expire entries); the outbound budget always runs on real time. */
  now?: () => number;
  /** How long a mint's safety facts (authorities, fees) read from the chain are fresh; its decimals are kept for good. Default 600 000. */
  safetyTtlMs?: number;
  /** Longest the chain's decimals may take, retries included, before a request is answered 503. Default 4 000. */
  chainBudgetMs?: number;
  /** Longest one chain read may take (capped by `timeoutMs`). Default 1 500. */
  chainAttemptTimeoutMs?: number;
  /**
   * Told about failures (provider, chain, Redis), for logs: at most once per
   * context per `reportIntervalMs`, with how many were left out since the last.
   */
  onError?: (error: unknown, context: "provider" | "chain" | "redis", suppressed: number) => void;
  /** Default 30 000. */
  reportIntervalMs?: number;
  /** Redis answers again after an outage: the cache and budget are shared again. */
  onRecovered?: (what: "redis") => void;
  /** For metrics: each provider call's outcome, each cache consultation's result. No-ops by default. */
  observe?: {
    providerCall(outcome: "ok" | "error" | "rate_limited" | string): void;
    cache(result: "hit" | "miss" | "stale"): void;
  };
}

/** Counters since the service started, for tests, the bench and logs. */
export interface TokenServiceStats {
  /** Requests sent to the provider (every attempt, whatever its outcome). */
  upstreamCalls: number;
  upstreamSearchCalls: number;
  upstreamTrendingCalls: number;
  upstreamErrors: number;
  /** Provider answers of 429. */
  upstreamRateLimited: number;
  /** Calls refused by our own budget (queue full, wait too long, backing off). */
  budgetRefusals: number;
  /** Batched getMultipleAccounts requests sent to the RPC node (decimals and safety come from the same read). */
  chainCalls: number;
  /** Chain reads that failed for good (the request answered 503). */
  chainErrors: number;
  /** Chain reads that failed and were tried again. */
  chainRetries: number;
  /** Answers served from an expired entry because the provider failed. */
  staleServed: number;
}

export interface TokenService {
  /**
   * Metadata and safety for validated, de-duplicated mints, in the order
   * given. Throws UpstreamError when the provider fails and nothing cached
   * answers a mint, ChainUnavailable when a mint's decimals could not be read
   * from the chain in time (a mint the provider knows answers `safety: null` instead).
   */
  resolve(mints: readonly string[]): Promise<Token[]>;
  /**
   * Decimals only (null: nobody knows the mint), for amounts in whole tokens:
   * the chain is read only for mints the provider does not know, and any
   * cached read answers. Throws as `resolve` does.
   */
  decimals(mints: readonly string[]): Promise<Map<string, number | null>>;
  /** The provider's top organic tokens; throws UpstreamError when it fails and nothing cached can answer. */
  trending(): Promise<TrendingResult>;
  stats(): TokenServiceStats;
  close(): Promise<void>;
}
