import Redis from "ioredis";
import type postgres from "postgres";
import { connect, type Database } from "../lib/db/client";
import { embeddedDatabaseUrl } from "../platform/postgres/embedded-url";
import { env } from "../platform/env";
import { ClientSlots } from "../lib/feed/client-slots";
import { FeedHub } from "../lib/feed/hub";
import { fallbackRateLimiter, memoryRateLimiter, redisRateLimiter, unlimited, type RateLimiter } from "./http/rate-limit";
import { createApi } from "./http/api";
import { createTokenService, type TokenService } from "../lib/tokens";
import { createLogger } from "../platform/log";
import { isDatabaseUnreachable, isDeadlineExceeded, throttledReport } from "../lib/resilience";
import { requestObserver, webMetrics } from "../platform/metrics";
import { readReplicas, type ReadReplicas } from "./read-replicas";

/** Served from public/; the API answers it as an absolute URL on the request's origin. */
export const PLACEHOLDER_IMAGE_PATH = "/token-placeholder.svg";

// The web process's shared objects, made on first use and kept on globalThis
// so that development hot reloads reuse one pool instead of leaking them.

interface Services {
  db?: Database;
  tokens?: TokenService;
  limiter?: RateLimiter;
  redis?: Redis;
  feed?: ProcessFeed;
  replicas?: ReadReplicas;
  direct?: Database;
}

/** The process's one live-feed hub (one LISTEN connection) and its per-client stream count. */
interface ProcessFeed {
  hub: FeedHub;
  slots: ClientSlots;
}

const globalServices = globalThis as typeof globalThis & { __offerBookRuntime?: Services };
const runtime: Services = (globalServices.__offerBookRuntime ??= {});

export const logger = createLogger("web");

/** The pool's name in pg_stat_activity (the metrics count connections by it). */
export const WEB_APPLICATION_NAME = "offer-book-web";

/** The primary's pool (through the pooler when DATABASE_POOL_MODE=transaction). */
function primaryDatabase(): Database {
  if (!runtime.db) {
    const url = env().DATABASE_URL ?? embeddedDatabaseUrl();
    // Unset and no embedded cluster: answered as 503 until one is configured.
    if (!url) throw Object.assign(new Error("DATABASE_URL is not set and no embedded database runs"), { code: "ECONNREFUSED" });
    runtime.db = connect(url, {
      max: env().DATABASE_POOL_SIZE,
      applicationName: WEB_APPLICATION_NAME,
      statementTimeoutMs: 10_000,
      connectTimeoutSeconds: 3,
      pooled: env().DATABASE_POOL_MODE === "transaction",
    });
  }
  return runtime.db;
}

function replicas(): ReadReplicas {
  return (runtime.replicas ??= readReplicas(primaryDatabase(), env(), () => runtime.feed?.hub.newest() ?? null, logger));
}

/** What the routes read from: a replica at or past this process's feed watermark, else the primary (web/read-replicas.ts). */
export function database(): Database {
  return replicas().reads;
}

/** A stream's backlog: a replica once it reaches the announced id, or the primary after REPLICA_WAIT_MS. */
export function streamBacklog(): postgres.Sql {
  return replicas().backlog;
}

/** The primary without the pooler, for LISTEN (a transaction-mode pooler cannot hold one); the pool when no DATABASE_DIRECT_URL. */
function directDatabase(): Database {
  const url = env().DATABASE_DIRECT_URL;
  if (!url) return primaryDatabase();
  return (runtime.direct ??= connect(url, { max: 2, applicationName: WEB_APPLICATION_NAME, statementTimeoutMs: 10_000, connectTimeoutSeconds: 3 }));
}

export function redis(): Redis | undefined {
  const url = env().REDIS_URL;
  if (!url) return undefined;
  if (!runtime.redis) {
    runtime.redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    // Without a listener ioredis prints every reconnect failure with its stack; the limiter reports them, throttled.
    runtime.redis.on("error", () => {});
  }
  return runtime.redis;
}

/** Token metadata and trending, proxied from the provider with one cache and one budget per process (or Redis). */
export function tokenService(): TokenService {
  if (!runtime.tokens) {
    const config = env();
    runtime.tokens = createTokenService({
      apiUrl: config.TOKEN_API_URL,
      apiKey: config.TOKEN_API_KEY,
      rpm: config.TOKEN_API_RPM,
      redisUrl: config.REDIS_URL,
      rpcUrl: config.SOLANA_RPC_URL,
      placeholderImageUrl: PLACEHOLDER_IMAGE_PATH,
      // Already at most one per context per 30 s; a message, not a stack: the cause is a dependency, not this code.
      onError: (error, context, suppressed) =>
        logger.warn({ context, error: (error as Error)?.message ?? String(error), suppressed }, `token service: ${context} failing`),
      onRecovered: (what) => logger.info(`token service: ${what} reachable again, cache and budget shared again`),
      observe: {
        providerCall: (outcome) => webMetrics().providerCalls.inc({ outcome }),
        cache: (result) => webMetrics().tokenCache.inc({ result }),
      },
    });
  }
  return runtime.tokens;
}

function limiter(): RateLimiter {
  if (!runtime.limiter) {
    const rpm = env().RATE_LIMIT_RPM;
    const shared = redis();
    const options = { limit: rpm, windowSeconds: 60 };
    const fallback = throttledReport<"redis">(30_000, (error, _, suppressed) =>
      logger.warn({ error: (error as Error)?.message ?? String(error), suppressed }, "request budget: redis failing, counting in memory"),
    );
    runtime.limiter =
      rpm === 0
        ? unlimited
        : shared
          ? fallbackRateLimiter(redisRateLimiter(shared, options), memoryRateLimiter(options), (error) => fallback(error, "redis"))
          : memoryRateLimiter(options);
  }
  return runtime.limiter;
}

const reportFeedReadFailure = throttledReport(30_000, (error: unknown, _context: "feed", suppressed: number) =>
  logger.warn({ error: (error as Error)?.message ?? String(error), suppressed }, "live feed: reading the event log failed; retrying"),
);

export function processFeed(): ProcessFeed {
  return (runtime.feed ??= {
    hub: new FeedHub(directDatabase().$client, { onError: (error) => reportFeedReadFailure(error, "feed") }),
    slots: new ClientSlots(env().STREAM_MAX_PER_CLIENT),
  });
}

/** An outage fails every request alike: one line per interval says it, not a stack per request. */
const reportUnavailable = throttledReport(30_000, (error: unknown, _context: "database", suppressed: number) =>
  logger.warn({ error: (error as Error)?.message ?? String(error), suppressed }, "database unreachable: answering 503 until it is back"),
);

/** A database that takes statements but answers none: one line per interval (the error names the route). */
const reportOverdue = throttledReport(30_000, (error: unknown, _context: "deadline", suppressed: number) =>
  logger.warn({ error: (error as Error).message, suppressed }, "database not answering: requests past their deadline answered 503"),
);

let nextFeedStart = 0;

/**
 * The live feed's change count, which lets a revalidation of an unchanged
 * answer skip the route (web/http/revalidation.ts). The first call starts the
 * process's feed listener (the one the streams share); until it listens, and
 * every 5 s while it cannot, null: the routes run as they would without it.
 */
function feedChanges(): number | null {
  const hub = processFeed().hub;
  const changes = hub.changeCount();
  if (changes === null && Date.now() >= nextFeedStart) {
    nextFeedStart = Date.now() + 5000;
    hub.start().catch(() => {}); // the streams report the feed's failures; the routes just run
  }
  return changes;
}

export const { serve, spend: spendBudget } = createApi({
  limiter,
  trustProxy: () => env().TRUST_PROXY,
  log: (error, url) =>
    isDatabaseUnreachable(error)
      ? reportUnavailable(error, "database")
      : isDeadlineExceeded(error)
        ? reportOverdue(error, "deadline")
        : logger.error({ err: error, url }, "request failed"),
  observe: requestObserver(),
  rateLimited: () => webMetrics().rateLimited.inc(),
  feedChanges,
});
