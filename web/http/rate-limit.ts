import type Redis from "ioredis";

/** One request's standing in its client's budget: what the RateLimit-* headers and a 429 tell. */
export interface RateDecision {
  allowed: boolean;
  /** The budget: requests per window. */
  limit: number;
  /** Requests left in this window after this one (0 when refused). */
  remaining: number;
  /** Whole seconds until the window rolls over and the budget refills (at least 1); a 429's retry-after. */
  reset: number;
  /** The window's length in seconds (RateLimit-Policy). */
  windowSeconds: number;
}

/** A per-client request budget: `limit` requests in each window of `windowSeconds`. */
export interface RateLimiter {
  /** The decision, or undefined when no budget applies (RATE_LIMIT_RPM=0). */
  take(key: string): Promise<RateDecision | undefined>;
}

export interface RateLimitOptions {
  limit: number;
  windowSeconds: number;
  now?: () => number;
}

/** Fixed windows: the current window's start in seconds, and the decision once the count is known. */
function fixedWindow({ limit, windowSeconds }: RateLimitOptions, t: number) {
  const start = Math.floor(t / 1000 / windowSeconds) * windowSeconds;
  const decide = (used: number): RateDecision => ({
    allowed: used <= limit,
    limit,
    remaining: Math.max(0, limit - used),
    reset: Math.max(1, Math.ceil(start + windowSeconds - t / 1000)),
    windowSeconds,
  });
  return { start, decide };
}

/** Fixed windows in this process's memory; the map is swept as windows roll over. */
export function memoryRateLimiter(options: RateLimitOptions): RateLimiter {
  const now = options.now ?? Date.now;
  let windowStart = 0;
  let counts = new Map<string, number>();
  return {
    async take(key) {
      const { start, decide } = fixedWindow(options, now());
      if (start !== windowStart) {
        windowStart = start;
        counts = new Map();
      }
      const used = (counts.get(key) ?? 0) + 1;
      counts.set(key, used);
      return decide(used);
    },
  };
}

const SETTLING_EVENTS = ["ready", "error", "end"] as const;

/**
 * Resolves once the client is first ready, or after `ms`: the client is made
 * with the first request, and without the offline queue a command sent while
 * it still connects fails at once, which would count a fresh instance's first
 * requests in memory, apart from the shared budget. A refused connection
 * settles it too: then the memory budget answers without waiting.
 */
function firstConnection(redis: Redis, ms: number): Promise<void> {
  if (redis.status === "ready") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const event of SETTLING_EVENTS) redis.off(event, done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const event of SETTLING_EVENTS) redis.on(event, done);
  });
}

/** The same windows in Redis, so every instance behind a balancer shares one budget per client. */
export function redisRateLimiter(redis: Redis, options: RateLimitOptions & { firstConnectMs?: number }): RateLimiter {
  const now = options.now ?? Date.now;
  const connected = firstConnection(redis, options.firstConnectMs ?? 1000);
  return {
    async take(key) {
      await connected;
      const { start, decide } = fixedWindow(options, now());
      const redisKey = `ratelimit:v1:${start}:${key}`;
      const [[, used]] = (await redis.multi().incr(redisKey).expire(redisKey, options.windowSeconds + 1).exec()) as [
        [Error | null, number],
      ];
      return decide(used);
    },
  };
}

export const unlimited: RateLimiter = { take: async () => undefined };

/**
 * The shared (Redis) budget while it answers, this process's otherwise: with
 * Redis down each instance still keeps a budget per client, and the request is
 * neither refused nor slowed. `onFallback` hears every failure (throttle it).
 */
export function fallbackRateLimiter(shared: RateLimiter, local: RateLimiter, onFallback: (error: unknown) => void): RateLimiter {
  return {
    async take(key) {
      try {
        return await shared.take(key);
      } catch (error) {
        onFallback(error);
        return local.take(key);
      }
    },
  };
}

/**
 * The budget as headers on every answer (draft-ietf-httpapi-ratelimit-headers-07,
 * the form most clients read): limit, requests left, seconds until the window
 * refills, and the policy. A 429's retry-after is the same `reset`.
 */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    "ratelimit-limit": String(decision.limit),
    "ratelimit-remaining": String(decision.remaining),
    "ratelimit-reset": String(decision.reset),
    "ratelimit-policy": `${decision.limit};w=${decision.windowSeconds}`,
  };
}
