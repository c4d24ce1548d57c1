import { randomBytes } from "node:crypto";
import bs58 from "bs58";
import { createTokenService, type TokenService, type TokenServiceConfig } from "../../../../lib/tokens/index";

export const PLACEHOLDER = "/token-placeholder.svg";

/** A service with test-friendly defaults; the clock is settable so TTLs pass without waiting. */
export function testService(
  apiUrl: string,
  overrides: Partial<TokenServiceConfig> = {},
): TokenService & { clock: { offsetMs: number; advance(ms: number): void } } {
  const clock = {
    offsetMs: 0,
    advance(ms: number) {
      this.offsetMs += ms;
    },
  };
  const service = createTokenService({
    apiUrl,
    rpm: 6_000,
    placeholderImageUrl: PLACEHOLDER,
    timeoutMs: 2_000,
    now: () => Date.now() + clock.offsetMs,
    ...overrides,
  });
  return Object.assign(service, { clock });
}

/** Random 32-byte addresses: valid mints as far as any check here goes, and unknown to everyone. */
export const randomMints = (n: number): string[] => Array.from({ length: n }, () => bs58.encode(randomBytes(32)));

/** A Redis key prefix of its own per test, so suites running side by side never share a budget or cache by accident. */
export const uniquePrefix = (label: string) => `test:tokens:${label}:${process.pid}:${Date.now()}:${Math.random().toString(36).slice(2, 8)}:`;

export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
