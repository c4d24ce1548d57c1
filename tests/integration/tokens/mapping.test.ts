import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jupiterToken, startTokenStandin, THIN_TOKENS, UNKNOWN_MINTS, WELL_KNOWN, type TokenStandin } from "../../../local/tokens/index";
import { UpstreamError } from "../../../lib/tokens/index";
import { PLACEHOLDER, testService } from "./helpers/service";

const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const BONK = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";
const SOL = "So11111111111111111111111111111111111111112";
const [FRESH, ICONLESS] = THIN_TOKENS.map((t) => t.mint) as [string, string];

let standin: TokenStandin;

beforeAll(async () => {
  // The young token is put on the trending list so its missing figures go through the trending mapping.
  standin = await startTokenStandin({ limit: 10_000, trending: [SOL, USDC, BONK, FRESH, ICONLESS] });
});
afterAll(() => standin.stop());

// The field mapping itself is pinned by tests/unit/token-mapping.test.ts; here
// the service's answers over HTTP from the stand-in.

describe("trending through the service", () => {
  it("answers the provider's list in its order, live, stamped with the fetch's time, icons as the provider serves them", async () => {
    const service = testService(standin.url);
    const before = Math.floor(Date.now() / 1000);
    const result = await service.trending();
    const after = Math.ceil(Date.now() / 1000);
    await service.close();

    expect(result.source).toBe("live");
    expect(result.count).toBe(5);
    expect(result.items.map((i) => i.mint)).toEqual([SOL, USDC, BONK, FRESH, ICONLESS]);
    expect(Number.isInteger(result.fetchedAt)).toBe(true);
    expect(result.fetchedAt).toBeGreaterThanOrEqual(before);
    expect(result.fetchedAt).toBeLessThanOrEqual(after);
    const upstream = jupiterToken(WELL_KNOWN.find((t) => t.mint === BONK)!);
    expect(result.items[2]).toMatchObject({ symbol: upstream.symbol, imageUrl: `${standin.url}${upstream.icon}` }); // the stand-in serves its icons itself
    expect(result.items.find((i) => i.mint === FRESH)).toMatchObject({ imageUrl: PLACEHOLDER, priceUsd: null });
  });

  it("serves the second ask from cache with the first fetch's time", async () => {
    const service = testService(standin.url);
    const live = await service.trending();
    const cached = await service.trending();
    expect(cached.source).toBe("cache");
    expect(cached.fetchedAt).toBe(live.fetchedAt);
    expect(cached.items).toEqual(live.items);
    expect(service.stats().upstreamTrendingCalls).toBe(1);
    await service.close();
  });
});

describe("token mapping", () => {
  it("answers in the order asked, known and unknown mints alike", async () => {
    const service = testService(standin.url);
    const order = [BONK, UNKNOWN_MINTS[3]!, SOL, ICONLESS, USDC];
    const tokens = await service.resolve(order);
    await service.close();

    expect(tokens.map((t) => t.mint)).toEqual(order);
    expect(tokens.map((t) => t.symbol)).toEqual(["Bonk", null, "SOL", "NOICON", "USDC"]);
    const bonk = jupiterToken(WELL_KNOWN.find((t) => t.mint === BONK)!);
    expect(tokens[0]!.imageUrl).toBe(`${standin.url}${bonk.icon}`);
  });

  it("returns an unknown mint with null symbol and name (and, without a chain, null decimals)", async () => {
    const service = testService(standin.url);
    const tokens = await service.resolve(UNKNOWN_MINTS);
    await service.close();
    for (const [i, token] of tokens.entries()) {
      expect(token).toEqual({ mint: UNKNOWN_MINTS[i], symbol: null, name: null, decimals: null, imageUrl: PLACEHOLDER, isVerified: null, safety: null });
    }
  });

  it("caches unknown mints negatively: asking again makes no upstream call", async () => {
    const service = testService(standin.url);
    await service.resolve([UNKNOWN_MINTS[4]!]);
    await service.resolve([UNKNOWN_MINTS[4]!]);
    expect(service.stats().upstreamSearchCalls).toBe(1);
    service.clock.advance(11 * 60_000); // past the 10-minute negative TTL
    await service.resolve([UNKNOWN_MINTS[4]!]);
    expect(service.stats().upstreamSearchCalls).toBe(2);
    await service.close();
  });

  it("folds duplicate mints into one upstream query and still answers every position", async () => {
    standin.reset();
    const service = testService(standin.url);
    const tokens = await service.resolve([USDC, BONK, USDC]);
    await service.close();
    expect(tokens.map((t) => t.symbol)).toEqual(["USDC", "Bonk", "USDC"]);
    const searches = standin.stats().log.filter((r) => r.path.startsWith("/tokens/v2/search"));
    expect(searches).toHaveLength(1);
    expect(searches[0]!.mints).toBe(2);
  });
});

describe("provider requests", () => {
  it("uses the documented paths and sends x-api-key only when a key is configured", async () => {
    const keyed = await startTokenStandin({ apiKey: "secret-key", limit: 1_000 });
    const withKey = testService(keyed.url, { apiKey: "secret-key" });
    await withKey.resolve([USDC]);
    await withKey.trending();
    await withKey.close();
    const paths = keyed.stats().log.map((r) => r.path);
    expect(paths[0]).toBe(`/tokens/v2/search?query=${USDC}`);
    expect(paths[1]).toBe("/tokens/v2/toporganicscore/24h?limit=50");
    expect(keyed.stats().log.every((r) => r.apiKey === "secret-key" && r.status === 200)).toBe(true);
    await keyed.stop();

    standin.reset();
    const keyless = testService(standin.url, { apiKey: "" });
    await keyless.resolve([SOL]);
    await keyless.close();
    // An empty header would be a bad key to the gateway (the stand-in answers 401 to one).
    expect(standin.stats().log[0]).toMatchObject({ status: 200, apiKey: undefined });
  });

  it("treats a malformed body as an upstream error", async () => {
    const service = testService(standin.url);
    standin.setMode("malformed");
    try {
      await expect(service.trending()).rejects.toBeInstanceOf(UpstreamError);
      // Never answered as an unknown mint (nulls): the provider said nothing usable.
      await expect(service.resolve([USDC])).rejects.toMatchObject({ name: "UpstreamError", failure: "malformed" });
      expect(service.stats().upstreamErrors).toBe(2);
    } finally {
      standin.setMode("ok");
      await service.close();
    }
  });
});
