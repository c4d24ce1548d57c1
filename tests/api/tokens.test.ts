import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTokenStandin, type TokenStandin, UNKNOWN_MINTS, WELL_KNOWN } from "../../local/tokens";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { startWebServer, type WebServer } from "../helpers/server";

// /v1/tokens and /v1/trending over real HTTP: next start in front of the
// Jupiter-compatible stand-in. The proxy's caching and budgets have their own
// suite (tests/tokens); this one pins the routes' contract.

let database: TestDatabase;
let provider: TokenStandin;
let server: WebServer;

const known = WELL_KNOWN.slice(0, 3);
const USDC = WELL_KNOWN.find((t) => t.symbol === "USDC")!;

beforeAll(async () => {
  database = await createTestDatabase();
  provider = await startTokenStandin({ port: 0, limit: 1000 });
  server = await startWebServer({ DATABASE_URL: database.url, TOKEN_API_URL: provider.url, TOKEN_API_RPM: "600" });
});

afterAll(async () => {
  await server?.stop();
  await provider?.stop();
  await database?.drop();
});

describe("GET /v1/tokens", () => {
  it("resolves each mint with symbol, name, decimals and imageUrl, in the order asked", async () => {
    const mints = [known[2]!.mint, known[0]!.mint, known[1]!.mint];
    const { status, body, headers } = await server.json(`/v1/tokens?mints=${mints.join(",")}`);
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
    expect(body.tokens.map((t: { mint: string }) => t.mint)).toEqual(mints);
    const usdc = (await server.json(`/v1/tokens?mints=${USDC.mint}`)).body.tokens[0];
    expect(usdc).toEqual({ mint: USDC.mint, symbol: "USDC", name: USDC.name, decimals: 6, imageUrl: expect.stringMatching(/^https?:\/\//) });
  });

  it("folds duplicate mints", async () => {
    const { body } = await server.json(`/v1/tokens?mints=${USDC.mint},${known[0]!.mint},${USDC.mint}`);
    expect(body.tokens.map((t: { mint: string }) => t.mint)).toEqual([USDC.mint, known[0]!.mint]);
  });

  it("still returns a mint the provider does not know, with null symbol and name and the placeholder image", async () => {
    const unknown = UNKNOWN_MINTS[3]!;
    const { status, body } = await server.json(`/v1/tokens?mints=${unknown}`);
    expect(status).toBe(200);
    expect(body.tokens).toEqual([
      { mint: unknown, symbol: null, name: null, decimals: null, imageUrl: `${server.baseUrl}/token-placeholder.svg` },
    ]);
    const image = await server.get("/token-placeholder.svg");
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toContain("svg");
    await image.arrayBuffer();
  });

  it("answers 400 missing_parameter without mints, and invalid_parameter for a bad mint or more than 100", async () => {
    for (const query of ["", "?mints=", "?mints=,,"]) {
      const { status, body } = await server.json(`/v1/tokens${query}`);
      expect(status).toBe(400);
      expect(body).toEqual({ error: expect.any(String), code: "missing_parameter", param: "mints" });
    }
    const bad = await server.json(`/v1/tokens?mints=${USDC.mint},not-a-mint`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: expect.stringContaining("not-a-mint"), code: "invalid_parameter", param: "mints" });
    const many = Array.from({ length: 101 }, (_, i) => Buffer.alloc(32, i + 1)).map((b) => b.toString("hex"));
    const { default: bs58 } = await import("bs58");
    const tooMany = await server.json(`/v1/tokens?mints=${many.map((h) => bs58.encode(Buffer.from(h, "hex"))).join(",")}`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.param).toBe("mints");
  });
});

describe("GET /v1/trending", () => {
  it("answers the envelope: items, fetchedAt in unix seconds, source live then cache, count", async () => {
    const first = await server.json("/v1/trending");
    expect(first.status).toBe(200);
    expect(first.body.source).toBe("live");
    expect(first.body.count).toBe(first.body.items.length);
    expect(first.body.count).toBeGreaterThan(0);
    expect(Math.abs(first.body.fetchedAt - Date.now() / 1000)).toBeLessThan(60);
    const item = first.body.items[0];
    expect(Object.keys(item).sort()).toEqual(
      ["mint", "symbol", "name", "imageUrl", "priceUsd", "change24h", "volume24h", "liquidityUsd", "fdv", "marketCap", "holders", "organicScore", "isVerified", "dexscreenerUrl"].sort(),
    );
    expect(item.dexscreenerUrl).toBe(`https://dexscreener.com/solana/${item.mint}`);
    const second = await server.json("/v1/trending");
    expect(second.body.source).toBe("cache");
    expect(second.body.fetchedAt).toBe(first.body.fetchedAt);
  });

  it("answers 502 upstream_error when the provider fails and nothing is cached", async () => {
    const fresh = await startWebServer({ DATABASE_URL: database.url, TOKEN_API_URL: provider.url });
    provider.setMode({ kind: "fail", status: 503 });
    try {
      const { status, body } = await fresh.json("/v1/trending");
      expect(status).toBe(502);
      expect(body).toEqual({ error: expect.any(String), code: "upstream_error" });
    } finally {
      provider.setMode("ok");
      await fresh.stop();
    }
  });
});
