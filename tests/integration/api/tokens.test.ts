import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTokenStandin, type TokenStandin, UNKNOWN_MINTS, WELL_KNOWN } from "../../../local/tokens/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { startWebServer, type WebServer } from "../../helpers/server";
import { startTestRpc, type TestRpc } from "../tokens/helpers/rpc-server";
import { AccountState } from "../../helpers/mint-account";

/** A port nothing listens on: taken from the OS, then released. */
async function closedPort(): Promise<number> {
  const { createServer } = await import("node:net");
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

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
    expect(headers.get("cache-control")).toMatch(/^public, max-age=\d+, s-maxage=\d+, stale-while-revalidate=\d+$/);
    expect(body.tokens.map((t: { mint: string }) => t.mint)).toEqual(mints);
    const usdc = (await server.json(`/v1/tokens?mints=${USDC.mint}`)).body.tokens[0];
    // No RPC configured here: nothing says what the mint account allows.
    expect(usdc).toEqual({ mint: USDC.mint, symbol: "USDC", name: USDC.name, decimals: 6, imageUrl: expect.stringMatching(/^https?:\/\//), isVerified: true, safety: null });
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
      { mint: unknown, symbol: null, name: null, decimals: null, imageUrl: `${server.baseUrl}/token-placeholder.svg`, isVerified: null, safety: null },
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

  it("answers 502 upstream_error with retry-after when the provider fails and nothing is cached", async () => {
    const fresh = await startWebServer({ DATABASE_URL: database.url, TOKEN_API_URL: provider.url });
    provider.setMode({ kind: "fail", status: 503 });
    try {
      const { status, body, headers } = await fresh.json("/v1/trending");
      expect(status).toBe(502);
      expect(body).toEqual({ error: expect.any(String), code: "upstream_error" });
      expect(Number(headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      provider.setMode("ok");
      await fresh.stop();
    }
  });
});

describe("provider outage on /v1/tokens", () => {
  it("is a 502 upstream_error with retry-after when nothing is cached, never nulls that read as an unknown mint", async () => {
    const fresh = await startWebServer({ DATABASE_URL: database.url, TOKEN_API_URL: provider.url });
    try {
      // Cached before the outage: still served (stale answers are kept through an outage).
      const cached = await fresh.json(`/v1/tokens?mints=${USDC.mint}`);
      expect(cached.body.tokens[0].symbol).toBe("USDC");
      provider.setMode({ kind: "fail", status: 503 });
      const usdt = WELL_KNOWN.find((t) => t.symbol === "USDT")!.mint;
      for (const mints of [usdt, `${USDC.mint},${usdt}`, UNKNOWN_MINTS[3]!]) {
        const { status, body, headers } = await fresh.json(`/v1/tokens?mints=${mints}`);
        expect(status).toBe(502);
        expect(body).toEqual({ error: expect.any(String), code: "upstream_error" });
        expect(Number(headers.get("retry-after"))).toBeGreaterThan(0);
        expect(headers.get("cache-control")).toBe("no-store");
      }
      expect((await fresh.json(`/v1/tokens?mints=${USDC.mint}`)).body.tokens[0].symbol).toBe("USDC");
    } finally {
      provider.setMode("ok");
      await fresh.stop();
    }
  });
});

describe("token safety from the mint accounts on chain", () => {
  let rpc: TestRpc;
  let web: WebServer;

  beforeAll(async () => {
    rpc = await startTestRpc();
    web = await startWebServer({ DATABASE_URL: database.url, TOKEN_API_URL: provider.url, TOKEN_API_RPM: "600", SOLANA_RPC_URL: rpc.url });
  });
  afterAll(async () => {
    await web?.stop();
    await rpc?.stop();
  });

  it("says who can mint and freeze, the token program, and the Token-2022 extensions a buyer must know, beside the provider's verified flag", async () => {
    const key = () => Keypair.generate().publicKey;
    const freezer = key();
    const feeSetter = key();
    const hook = key();
    rpc.addMint(6, { address: USDC.mint, program: "token", mint: { freezeAuthority: freezer } });
    const risky = rpc.addMint(9, {
      mint: {
        mintAuthority: null,
        freezeAuthority: freezer,
        transferFee: { authority: feeSetter, older: { epoch: 0n, basisPoints: 0, maximumFee: 0n }, newer: { epoch: 12n, basisPoints: 100, maximumFee: 5_000_000_000n } },
        transferHook: { programId: hook, authority: null },
        defaultState: AccountState.Frozen,
      },
    });
    const fixed = rpc.addMint(0, { program: "token", mint: { mintAuthority: null } });

    const { status, body } = await web.json(`/v1/tokens?mints=${USDC.mint},${risky},${fixed}`);
    expect(status).toBe(200);
    const [usdc, taxed, plain] = body.tokens;
    expect(usdc).toMatchObject({ symbol: "USDC", isVerified: true, safety: { tokenProgram: "spl-token", freezeAuthority: freezer.toBase58(), risks: ["mint_authority", "freeze_authority"] } });
    expect(taxed).toEqual({
      mint: risky,
      symbol: null,
      name: null,
      decimals: 9,
      imageUrl: `${web.baseUrl}/token-placeholder.svg`,
      isVerified: null,
      safety: {
        tokenProgram: "token-2022",
        mintAuthority: null,
        freezeAuthority: freezer.toBase58(),
        extensions: ["transferFeeConfig", "transferHook", "defaultAccountState"],
        transferFee: {
          authority: feeSetter.toBase58(),
          older: { epoch: "0", basisPoints: 0, maximumFee: "0" },
          newer: { epoch: "12", basisPoints: 100, maximumFee: "5000000000" },
        },
        permanentDelegate: null,
        transferHook: { programId: hook.toBase58(), authority: null },
        nonTransferable: false,
        defaultFrozen: true,
        pausable: null,
        risks: ["freeze_authority", "transfer_fee", "transfer_hook", "default_frozen"],
        slot: 1234,
      },
    });
    expect(plain.safety).toMatchObject({ tokenProgram: "spl-token", mintAuthority: null, freezeAuthority: null, extensions: [], risks: [] });
    // One read of the three accounts gave the decimals and the safety; the next request reads nothing.
    expect(rpc.calls).toEqual([3]);
    expect((await web.json(`/v1/tokens?mints=${risky}`)).body.tokens[0]).toEqual(taxed);
    expect(rpc.calls).toEqual([3]);
  });
});

describe("decimals from a flaky RPC, with Redis unreachable", () => {
  let rpc: TestRpc;
  let web: WebServer;

  beforeAll(async () => {
    rpc = await startTestRpc();
    web = await startWebServer({
      DATABASE_URL: database.url,
      TOKEN_API_URL: provider.url,
      TOKEN_API_RPM: "600",
      SOLANA_RPC_URL: rpc.url,
      REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
      LOG_LEVEL: "info",
      LOG_FORMAT: "json",
    });
  });
  afterAll(async () => {
    await web?.stop();
    await rpc?.stop();
  });

  it("answers every mint that exists with its decimals when one RPC request in five fails", async () => {
    const mints = Array.from({ length: 30 }, (_, i) => ({ mint: rpc.addMint(i % 10), decimals: i % 10 }));
    rpc.setFaults({ failEvery: 5, how: "http" });
    for (const { mint, decimals } of mints) {
      const { status, body } = await web.json(`/v1/tokens?mints=${mint}`);
      expect(status).toBe(200);
      expect(body.tokens[0]).toMatchObject({ mint, symbol: null, decimals });
    }
    expect(rpc.failures()).toBeGreaterThanOrEqual(5);
    rpc.setFaults({ failEvery: 0 });
  });

  it("answers 503 unavailable with retry-after when every RPC request fails, and the mint once the chain is back", async () => {
    const mint = rpc.addMint(7);
    rpc.setFaults({ failEvery: 1, how: "drop" });
    const { status, body, headers } = await web.json(`/v1/tokens?mints=${mint}`);
    expect(status).toBe(503);
    expect(body).toEqual({ error: expect.any(String), code: "unavailable" });
    expect(Number(headers.get("retry-after"))).toBeGreaterThan(0);
    rpc.setFaults({ failEvery: 0 });
    expect((await web.json(`/v1/tokens?mints=${mint}`)).body.tokens[0]).toMatchObject({ decimals: 7 });
  });

  it("serves tokens and trending as without Redis, logging a line or two rather than one per request", async () => {
    const before = web.output().split("\n").filter(Boolean).length;
    for (let i = 0; i < 150; i++) {
      const tokens = await web.json(`/v1/tokens?mints=${USDC.mint},${known[0]!.mint}`);
      expect(tokens.status).toBe(200);
      expect(tokens.body.tokens.map((t: { symbol: string }) => t.symbol)).toEqual(["USDC", known[0]!.symbol]);
      const trending = await web.json("/v1/trending");
      expect(trending.status).toBe(200);
      expect(trending.body.count).toBeGreaterThan(0);
    }
    const lines = web.output().split("\n").filter(Boolean);
    const added = lines.length - before;
    expect(added).toBeLessThanOrEqual(3);
    // From the start: the token service and the request budget each said once that Redis fails, without a stack.
    const redisLines = lines.filter((l) => /redis/i.test(l));
    expect(redisLines.length).toBeGreaterThanOrEqual(1);
    expect(redisLines.length).toBeLessThanOrEqual(4);
    expect(web.output()).not.toMatch(/\n\s+at /);
  });
});
