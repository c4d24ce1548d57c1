import Redis from "ioredis";
import { createBatcher, singleFlight } from "./batcher";
import { bucketShape, queuedBudget } from "./budget";
import { memorySlotSource } from "./budget-memory";
import { redisSlotSource } from "./budget-redis";
import { typedCache, type Entry } from "./cache";
import { memoryStore, redisStore, tieredStore, type CacheStore } from "./cache-store";
import { fallbackSlotSource, fallbackStore } from "./redis-fallback";
import { trackRedis, type RedisHealth } from "./redis-health";
import { throttledReport } from "../resilience";
import { chainMintKey, lookUpChainMints, type CachedChainMint, type ChainAnswer } from "./chain-lookup";
import { createChainMintReader, MAX_ACCOUNTS_PER_CALL } from "./chain-mints";
import { ChainUnavailable, UpstreamError } from "./errors";
import { toMetadata, toToken, toTrendingItem } from "./mapping";
import { lookUpMetadata, metadataKey, type CachedMetadata } from "./metadata";
import { createProviderClient, MAX_MINTS_PER_SEARCH } from "./provider-client";
import { readTrending, trendingKey } from "./trending";
import type { TokenService, TokenServiceConfig, TokenServiceStats, TrendingItem } from "./types";

const HOUR = 3_600_000;
/** How long an instance trusts its own copy of a Redis entry. */
const NEAR_CACHE_MS = 2_000;

type ErrorContext = "provider" | "chain" | "redis";

const asUpstreamError = (error: unknown): UpstreamError =>
  error instanceof UpstreamError ? error : new UpstreamError("network", `token provider unavailable: ${String(error)}`, undefined, { cause: error });

/** A mint whose decimals only the chain can give, and the chain could not: the request fails (never `decimals: null`, which means "not a mint"). */
const chainFailure = (answer: Extract<ChainAnswer, { kind: "unavailable" }>): ChainUnavailable =>
  answer.error instanceof ChainUnavailable ? answer.error : new ChainUnavailable(`the chain did not answer: ${String(answer.error)}`, { cause: answer.error });

function settingsOf(config: TokenServiceConfig) {
  const unknownTtlMs = config.unknownTtlMs ?? 10 * 60_000;
  return {
    now: config.now ?? Date.now,
    windowMs: config.budgetWindowMs ?? 60_000,
    maxQueue: config.maxQueue ?? 100,
    maxQueueWaitMs: config.maxQueueWaitMs ?? 10_000,
    timeoutMs: config.timeoutMs ?? 5_000,
    trendingLimit: Math.min(Math.max(1, config.trendingLimit ?? 50), 100),
    metadataTtlMs: config.metadataTtlMs ?? 6 * HOUR,
    unknownTtlMs,
    // Unknown mints are cheap to ask about again and an attacker can invent endless ones: keep them briefly.
    unknownRetentionMs: Math.max(unknownTtlMs, HOUR),
    trendingTtlMs: config.trendingTtlMs ?? 60_000,
    staleRetentionMs: config.staleRetentionMs ?? 7 * 24 * HOUR,
    staleWaitMs: config.staleWaitMs ?? 1_000,
    batchWindowMs: config.batchWindowMs ?? 2,
    defaultBackoffMs: config.defaultRateLimitBackoffMs ?? 30_000,
    prefix: config.redisKeyPrefix ?? "tokens:v1:",
    safetyTtlMs: config.safetyTtlMs ?? 10 * 60_000,
    chainBudgetMs: config.chainBudgetMs ?? 4_000,
    chainAttemptTimeoutMs: Math.min(config.timeoutMs ?? 5_000, config.chainAttemptTimeoutMs ?? 1_500),
    // A dependency that is down fails on every request: one report per context per interval says it all.
    onError: throttledReport<ErrorContext>(config.reportIntervalMs ?? 30_000, (error, context, suppressed) =>
      config.onError?.(error, context, suppressed),
    ),
    observe: {
      providerCall: config.observe?.providerCall ?? (() => {}),
      cache: config.observe?.cache ?? (() => {}),
    },
  };
}

function connectRedis(config: TokenServiceConfig): { redis?: Redis; owned: boolean } {
  if (config.redis) return { redis: config.redis, owned: false };
  if (!config.redisUrl) return { owned: false };
  // Bounded commands: a Redis that hangs must degrade the cache, not hang the request.
  // Errors are heard by trackRedis (an "error" listener is what keeps ioredis from printing each one).
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 1_000 });
  return { redis, owned: true };
}

export function createTokenService(config: TokenServiceConfig): TokenService {
  const s = settingsOf(config);
  const counters: TokenServiceStats = {
    upstreamCalls: 0,
    upstreamSearchCalls: 0,
    upstreamTrendingCalls: 0,
    upstreamErrors: 0,
    upstreamRateLimited: 0,
    budgetRefusals: 0,
    chainCalls: 0,
    chainErrors: 0,
    chainRetries: 0,
    staleServed: 0,
  };
  const onStale = () => void counters.staleServed++;

  const { redis, owned } = connectRedis(config);
  const health: RedisHealth | undefined = redis
    ? trackRedis(redis, {
        down: (error) => s.onError(error, "redis"),
        up: () => config.onRecovered?.("redis"),
      })
    : undefined;
  const local = memoryStore({ now: s.now });
  const store: CacheStore =
    redis && health
      ? fallbackStore(
          tieredStore(memoryStore({ now: s.now, maxEntries: 20_000 }), redisStore(redis, s.prefix, (e) => s.onError(e, "redis")), NEAR_CACHE_MS),
          local,
          health.usable,
        )
      : local;
  const cache = typedCache(store, s.now);

  const shape = bucketShape(config.rpm, s.windowMs, config.burst);
  // The budget runs on real time whatever `now` says: it paces real requests against the provider's real window.
  const localSlots = memorySlotSource(shape, Date.now);
  const slots = redis && health ? fallbackSlotSource(redisSlotSource(redis, `${s.prefix}budget`, shape), localSlots, health.usable) : localSlots;
  const budget = queuedBudget(slots, { maxQueue: s.maxQueue, maxWaitMs: s.maxQueueWaitMs, now: Date.now, msPerSlot: 1 / shape.refillPerMs });

  const provider = createProviderClient({
    apiUrl: config.apiUrl,
    apiKey: config.apiKey,
    timeoutMs: s.timeoutMs,
    budget,
    defaultBackoffMs: s.defaultBackoffMs,
    now: s.now,
    onOutcome: (outcome) => s.observe.providerCall(outcome),
    onCall(kind) {
      counters.upstreamCalls++;
      if (kind === "search") counters.upstreamSearchCalls++;
      else counters.upstreamTrendingCalls++;
    },
    onFailure(_kind, error) {
      counters.upstreamErrors++;
      if (error.failure === "rate_limited") counters.upstreamRateLimited++;
      s.onError(error, "provider");
    },
  });

  const metadataBatcher = createBatcher<CachedMetadata>({
    maxBatch: MAX_MINTS_PER_SEARCH,
    windowMs: s.batchWindowMs,
    async fetch(mints) {
      const out = new Map<string, CachedMetadata>();
      // Another request (or instance) may have stored these between our read and this call.
      const again = await cache.read<CachedMetadata>(mints.map(metadataKey));
      const missing = mints.filter((mint, i) => {
        const lookup = again[i]!;
        if (lookup.state === "fresh") out.set(mint, lookup.entry.value);
        return lookup.state !== "fresh";
      });
      if (missing.length === 0) return out;
      let found;
      try {
        found = await provider.searchMints(missing);
      } catch (error) {
        if (error instanceof UpstreamError && error.failure === "budget") counters.budgetRefusals++;
        throw error;
      }
      const fetched = missing.map((mint) => {
        const token = found.get(mint);
        return { mint, value: token ? toMetadata(token) : null };
      });
      await cache.write(
        fetched.map(({ mint, value }) => ({
          key: metadataKey(mint),
          value,
          freshMs: value ? s.metadataTtlMs : s.unknownTtlMs,
          keepMs: value ? s.staleRetentionMs : s.unknownRetentionMs,
        })),
      );
      for (const { mint, value } of fetched) out.set(mint, value);
      return out;
    },
  });

  const chain = config.rpcUrl
    ? createChainMintReader(config.rpcUrl, {
        timeoutMs: s.chainAttemptTimeoutMs,
        onCall: () => void counters.chainCalls++,
        onRetry: (error) => {
          counters.chainRetries++;
          s.onError(error, "chain");
        },
      })
    : undefined;
  const chainBatcher = chain
    ? createBatcher<CachedChainMint>({
        maxBatch: MAX_ACCOUNTS_PER_CALL,
        windowMs: s.batchWindowMs,
        async fetch(mints) {
          let read;
          try {
            // Retried with back-off within the budget; what is not read by then is not cached and fails the request.
            read = await chain.read(mints, { deadlineAt: Date.now() + s.chainBudgetMs });
          } catch (error) {
            counters.chainErrors++;
            s.onError(error, "chain");
            throw new ChainUnavailable(`the chain did not answer within ${s.chainBudgetMs} ms: ${(error as Error).message}`, { cause: error });
          }
          // A mint is kept for good (its decimals never change), fresh as long as its safety facts are trusted.
          await cache.write(
            [...read].map(([mint, value]) => ({
              key: chainMintKey(mint),
              value,
              freshMs: value === null ? s.unknownTtlMs : s.safetyTtlMs,
              keepMs: value === null ? s.unknownTtlMs : undefined,
            })),
          );
          return read;
        },
      })
    : undefined;
  const chainDeps = { cache, batcher: chainBatcher, staleWaitMs: s.staleWaitMs, onStale, onCache: s.observe.cache };
  const metadataDeps = { cache, batcher: metadataBatcher, staleWaitMs: s.staleWaitMs, onStale, onCache: s.observe.cache };

  /** The provider's answers; an outage is an error (502), since nulls would read as "nobody knows this mint". */
  async function providerMetadata(mints: readonly string[]) {
    const metadata = await lookUpMetadata(mints, metadataDeps);
    const outage = [...metadata.values()].find((answer) => answer.kind === "unavailable");
    if (outage?.kind === "unavailable") throw asUpstreamError(outage.error);
    return metadata;
  }

  const key = trendingKey(s.trendingLimit);
  const flight = singleFlight<{ entry: Entry<TrendingItem[]>; source: "cache" | "live" }>();
  const refreshTrending = () =>
    flight(key, async () => {
      const [again] = await cache.read<TrendingItem[]>([key]);
      if (again?.state === "fresh") return { entry: again.entry, source: "cache" as const };
      let tokens;
      try {
        tokens = await provider.topOrganic24h(s.trendingLimit);
      } catch (error) {
        if (error instanceof UpstreamError && error.failure === "budget") counters.budgetRefusals++;
        throw error;
      }
      const fetchedAt = s.now();
      const items = tokens.map((t) => toTrendingItem(t, config.placeholderImageUrl));
      await cache.write([{ key, value: items, freshMs: s.trendingTtlMs, keepMs: s.staleRetentionMs, fetchedAt }]);
      return { entry: { value: items, fetchedAt, freshUntil: fetchedAt + s.trendingTtlMs }, source: "live" as const };
    });

  return {
    async resolve(mints) {
      // The provider first: when it fails the answer is an error, and the chain has nothing to add.
      const metadata = await providerMetadata(mints);
      // Every mint's account is read (its safety), whatever the provider says.
      const accounts = await lookUpChainMints(mints, "safety", chainDeps);
      return mints.map((mint) => {
        const answer = metadata.get(mint)!;
        const known = answer.kind === "known" ? answer.metadata : null;
        const account = accounts.get(mint)!;
        if (account.kind === "unavailable") {
          if (!known) throw chainFailure(account);
          return toToken(mint, known, { decimals: null, safety: null }, config.placeholderImageUrl);
        }
        return toToken(mint, known, { decimals: account.mint?.decimals ?? null, safety: account.mint?.safety ?? null }, config.placeholderImageUrl);
      });
    },

    async decimals(mints) {
      const metadata = await providerMetadata(mints);
      const fromChain = mints.filter((mint) => metadata.get(mint)!.kind !== "known");
      const accounts = await lookUpChainMints(fromChain, "decimals", chainDeps);
      return new Map(
        mints.map((mint) => {
          const answer = metadata.get(mint)!;
          if (answer.kind === "known") return [mint, answer.metadata.decimals];
          const account = accounts.get(mint)!;
          if (account.kind === "unavailable") throw chainFailure(account);
          return [mint, account.mint?.decimals ?? null];
        }),
      );
    },

    trending: () => readTrending({ cache, key, refresh: refreshTrending, staleWaitMs: s.staleWaitMs, onStale, onCache: s.observe.cache }),

    stats: () => ({ ...counters }),

    async close() {
      budget.close();
      health?.close();
      if (redis && owned) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
