import type Redis from "ioredis";

/**
 * Whether Redis can be used right now, kept from the connection's events: up
 * once ready, down from its first error or close until it is ready again.
 * Before the first connection is made it counts as usable, so a fresh instance
 * does not start cacheless; after that, a reconnect attempt in progress does
 * not count (commands would only wait out their timeout in the offline queue).
 */
export interface RedisHealth {
  usable(): boolean;
  close(): void;
}

export function trackRedis(redis: Redis, on: { down(error: unknown): void; up(): void }): RedisHealth {
  let state: "pending" | "up" | "down" = redis.status === "ready" ? "up" : "pending";
  const ready = () => {
    const wasDown = state === "down";
    state = "up";
    if (wasDown) on.up();
  };
  const failed = (error: unknown) => {
    state = "down";
    on.down(error);
  };
  const closed = () => {
    if (state !== "down") failed(new RedisUnavailable());
  };
  redis.on("ready", ready);
  redis.on("error", failed);
  redis.on("close", closed);
  return {
    usable: () => state !== "down" && redis.status !== "end",
    close() {
      redis.off("ready", ready);
      redis.off("error", failed);
      redis.off("close", closed);
    },
  };
}

export class RedisUnavailable extends Error {
  override name = "RedisUnavailable";
  constructor() {
    super("redis is not connected");
  }
}
