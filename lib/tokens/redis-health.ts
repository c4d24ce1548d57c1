import type Redis from "ioredis";

/**
 * False once a connection is known broken (between reconnect attempts, or
 * closed). Commands then fail at once instead of each waiting out the command
 * timeout in the offline queue; while the first connection is still being
 * made they are let through, so a fresh instance does not start cacheless.
 */
export function redisUsable(redis: Redis): boolean {
  return redis.status !== "reconnecting" && redis.status !== "close" && redis.status !== "end";
}

export class RedisUnavailable extends Error {
  override name = "RedisUnavailable";
  constructor() {
    super("redis is not connected");
  }
}
