import type Redis from "ioredis";

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the client may try again, when refused. */
  retryAfter: number;
}

/** A per-client request budget: `limit` requests in each window of `windowSeconds`. */
export interface RateLimiter {
  take(key: string): Promise<RateDecision>;
}

export interface RateLimitOptions {
  limit: number;
  windowSeconds: number;
  now?: () => number;
}

const ALLOW: RateDecision = { allowed: true, retryAfter: 0 };

/** Fixed windows in this process's memory; the map is swept as windows roll over. */
export function memoryRateLimiter({ limit, windowSeconds, now = Date.now }: RateLimitOptions): RateLimiter {
  let windowStart = 0;
  let counts = new Map<string, number>();
  return {
    async take(key) {
      const t = now();
      const start = Math.floor(t / 1000 / windowSeconds) * windowSeconds;
      if (start !== windowStart) {
        windowStart = start;
        counts = new Map();
      }
      const used = (counts.get(key) ?? 0) + 1;
      counts.set(key, used);
      if (used <= limit) return ALLOW;
      return { allowed: false, retryAfter: Math.max(1, Math.ceil(start + windowSeconds - t / 1000)) };
    },
  };
}

/** The same windows in Redis, so every instance behind a balancer shares one budget per client. */
export function redisRateLimiter(redis: Redis, { limit, windowSeconds, now = Date.now }: RateLimitOptions): RateLimiter {
  return {
    async take(key) {
      const t = now();
      const start = Math.floor(t / 1000 / windowSeconds) * windowSeconds;
      const redisKey = `ratelimit:v1:${start}:${key}`;
      const [[, used]] = (await redis.multi().incr(redisKey).expire(redisKey, windowSeconds + 1).exec()) as [
        [Error | null, number],
      ];
      if (used <= limit) return ALLOW;
      return { allowed: false, retryAfter: Math.max(1, Math.ceil(start + windowSeconds - t / 1000)) };
    },
  };
}

export const unlimited: RateLimiter = { take: async () => ALLOW };

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
