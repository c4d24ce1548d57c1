import type Redis from "ioredis";
import type { BucketShape, SlotSource } from "./budget";

// The same bucket as budget-memory.ts, kept in one Redis hash so every web
// instance draws on one budget. Redis's own clock is the only clock, so
// instances with skewed clocks still agree.
const SCRIPT = `
if redis.replicate_commands then redis.replicate_commands() end -- TIME before writes (Redis < 5)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local h = redis.call('HMGET', KEYS[1], 'tokens', 'last', 'paused')
local tokens = tonumber(h[1]) or capacity
local last = tonumber(h[2]) or now
local paused = tonumber(h[3]) or 0
if now > last then
  tokens = math.min(capacity, tokens + (now - last) * rate)
  last = now
end
local result
if ARGV[3] == 'pause' then
  local untilMs = now + tonumber(ARGV[4])
  if untilMs > paused then
    paused = untilMs
    tokens = math.min(tokens, 1)
    last = untilMs
  end
  result = 0
elseif now < paused then
  result = paused - now
elseif tokens >= 1 then
  tokens = tokens - 1
  result = -1
else
  result = math.ceil((1 - tokens) / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'last', tostring(last), 'paused', tostring(paused))
local idle = math.ceil(capacity / rate)
if paused > now then idle = idle + (paused - now) end
redis.call('PEXPIRE', KEYS[1], idle + 1000)
return result
`;

export function redisSlotSource(redis: Redis, key: string, { capacity, refillPerMs }: BucketShape): SlotSource {
  const run = (mode: "take" | "pause", delayMs = 0) =>
    redis.eval(SCRIPT, 1, key, String(capacity), String(refillPerMs), mode, String(Math.ceil(delayMs))) as Promise<number>;

  return {
    async take() {
      const result = await run("take");
      return result < 0 ? { ok: true } : { ok: false, waitMs: Math.max(1, result) };
    },
    async pause(delayMs) {
      await run("pause", delayMs);
    },
  };
}
