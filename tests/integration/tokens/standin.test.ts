import { afterEach, describe, expect, it } from "vitest";
import { startTokenStandin, UNKNOWN_MINTS, WELL_KNOWN, type TokenStandin } from "../../../local/tokens/index";
import { providerTokenListSchema } from "../../../lib/tokens/provider-schema";

const JUP = "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN";
let standin: TokenStandin | undefined;
afterEach(async () => {
  await standin?.stop();
  standin = undefined;
});

describe("local Jupiter stand-in", () => {
  it("answers search and toporganicscore in the Tokens V2 shape, unknown mints absent", async () => {
    standin = await startTokenStandin();
    const search = await fetch(`${standin.url}/tokens/v2/search?query=${JUP},${UNKNOWN_MINTS[0]}`).then((r) => r.json());
    expect(providerTokenListSchema.parse(search).map((t) => t.id)).toEqual([JUP]);
    expect(search[0]).toMatchObject({ organicScoreLabel: "high", tokenProgram: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA" });
    expect(search[0].stats24h).toEqual(expect.objectContaining({ buyVolume: expect.any(Number), numTraders: expect.any(Number) }));

    const top = await fetch(`${standin.url}/tokens/v2/toporganicscore/24h?limit=5`).then((r) => r.json());
    expect(top).toHaveLength(5);
    const scores = providerTokenListSchema.parse(top).map((t) => t.organicScore!);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect((await fetch(`${standin.url}/tokens/v2/toporganicscore/2d`)).status).toBe(404);
  });

  it("takes extra tokens (the local cluster's mints), refining known ones and listing new ones", async () => {
    const local = { mint: UNKNOWN_MINTS[3]!, symbol: "LOC", name: "Local Token", decimals: 4, usdPrice: 2, trending: true };
    standin = await startTokenStandin({ extraTokens: [local, { mint: JUP, symbol: "JUP", name: "Jupiter", decimals: 6, usdPrice: 0.85 }] });
    const [loc, jup] = await fetch(`${standin.url}/tokens/v2/search?query=${local.mint},${JUP}`).then((r) => r.json());
    expect(loc).toMatchObject({ id: local.mint, symbol: "LOC", decimals: 4, usdPrice: 2 });
    expect(jup).toMatchObject({ usdPrice: 0.85, holderCount: 857_247 });
    const top = (await fetch(`${standin.url}/tokens/v2/toporganicscore/24h?limit=100`).then((r) => r.json())) as Array<{ id: string }>;
    expect(top.map((t) => t.id)).toContain(local.mint);
    expect(top).toHaveLength(WELL_KNOWN.length + 1);
  });

  it("serves its own icons (no outside host), uncounted; an extra token without one gets one drawn", async () => {
    const local = { mint: UNKNOWN_MINTS[3]!, symbol: "LOC", name: "Local Token", decimals: 4, trending: true };
    standin = await startTokenStandin({ limit: 1, extraTokens: [local] });
    const top = (await fetch(`${standin.url}/tokens/v2/toporganicscore/24h?limit=100`).then((r) => r.json())) as Array<{ id: string; icon?: string | null }>;
    const icons = top.map((t) => t.icon).filter((i): i is string => typeof i === "string");
    expect(icons.length).toBe(top.length);
    expect(top.find((t) => t.id === local.mint)?.icon).toBe(`${standin.url}/icons/${local.mint}.svg`);
    for (const icon of icons) {
      expect(icon.startsWith(`${standin.url}/icons/`)).toBe(true);
      const image = await fetch(icon);
      expect(image.status).toBe(200);
      expect(image.headers.get("content-type")).toBe("image/svg+xml");
      expect(await image.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*>.*<text[^>]*>[A-Z0-9]{1,4}<\/text><\/svg>$/);
    }
    expect((await fetch(`${standin.url}/icons/${UNKNOWN_MINTS[4]}.svg`)).status).toBe(404);
    // One API request against a limit of one: the icons were neither counted nor refused.
    expect(standin.stats()).toMatchObject({ requests: 1, overLimit: 0 });
  });

  it("enforces its own sliding-window limit with retry-after and x-ratelimit-reset, counting refused requests", async () => {
    standin = await startTokenStandin({ limit: 3, windowMs: 60_000 });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await fetch(`${standin.url}/tokens/v2/search?query=${JUP}`)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const refused = await fetch(`${standin.url}/tokens/v2/search?query=${JUP}`);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(59);
    expect(Number(refused.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 + 50);
    expect(standin.stats()).toMatchObject({ requests: 6, overLimit: 3, maxInWindow: 6 });
  });

  it("refuses an empty x-api-key, and a wrong one when a key is required", async () => {
    standin = await startTokenStandin({ apiKey: "k" });
    const ask = (key?: string) =>
      fetch(`${standin!.url}/tokens/v2/search?query=${JUP}`, { headers: key === undefined ? {} : { "x-api-key": key } }).then((r) => r.status);
    expect(await ask("")).toBe(401);
    expect(await ask("nope")).toBe(401);
    expect(await ask()).toBe(401);
    expect(await ask("k")).toBe(200);
  });

  it("is controlled over HTTP: mode, stats and reset under /_admin", async () => {
    standin = await startTokenStandin();
    const post = (path: string, body?: unknown) =>
      fetch(`${standin!.url}${path}`, { method: "POST", body: body === undefined ? undefined : JSON.stringify(body) });
    expect((await post("/_admin/mode", { kind: "fail", status: 502 })).status).toBe(200);
    expect((await fetch(`${standin.url}/tokens/v2/search?query=${JUP}`)).status).toBe(502);
    await post("/_admin/mode", { kind: "malformed" });
    const malformed = await fetch(`${standin.url}/tokens/v2/search?query=${JUP}`).then((r) => r.json());
    expect(providerTokenListSchema.safeParse(malformed).success).toBe(false);
    await post("/_admin/mode", { kind: "rate-limit", retryAfterSeconds: 7 });
    const limited = await fetch(`${standin.url}/tokens/v2/toporganicscore/24h`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    const stats = await fetch(`${standin.url}/_admin/stats`).then((r) => r.json());
    expect(stats).toMatchObject({ requests: 3, failed: 1, rateLimited: 1 });
    await post("/_admin/reset");
    await post("/_admin/mode", { kind: "ok" });
    expect(await fetch(`${standin.url}/_admin/stats`).then((r) => r.json())).toMatchObject({ requests: 0 });
  });
});
