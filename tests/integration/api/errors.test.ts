import bs58 from "bs58";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../platform/postgres/embedded";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf } from "../../helpers/fixtures";
import { earlyInBudgetWindow, startWebServer, type WebServer } from "../../helpers/server";

let database: TestDatabase;
let server: WebServer;

const VALID = addressOf("valid");
const SHORT_KEY = bs58.encode(new Uint8Array(31).fill(7)); // base58, but 31 bytes
const NOT_BASE58 = "0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl"; // 0, O, I and l are not in the alphabet

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startWebServer({ DATABASE_URL: database.url });
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

async function expectError(path: string, status: number, code: string, param?: string) {
  const response = await server.json(path);
  expect(response.status, path).toBe(status);
  expect(response.body, path).toEqual(param ? { error: expect.any(String), code, param } : { error: expect.any(String), code });
  expect(response.body.error, path).not.toMatch(/\n\s+at /); // no stack trace
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return response;
}

describe("invalid parameters answer 400 invalid_parameter naming the parameter", () => {
  const lists = ["/v1/offers", "/v1/fills", `/v1/makers/${VALID}/offers`, `/v1/offers/${VALID}/fills`];

  it.each(["0", "-1", "abc", "1.5", "1e2", "0x10", " 5"])("limit=%s", async (value) => {
    for (const list of lists) await expectError(`${list}?limit=${encodeURIComponent(value)}`, 400, "invalid_parameter", "limit");
  });

  it.each(["-1", "abc", "2.5", "100001"])("offset=%s", async (value) => {
    for (const list of lists) await expectError(`${list}?offset=${value}`, 400, "invalid_parameter", "offset");
  });

  it.each(["OPEN", "closed", "all"])("status=%s", async (value) => {
    await expectError(`/v1/offers?status=${value}`, 400, "invalid_parameter", "status");
    await expectError(`/v1/makers/${VALID}/offers?status=${value}`, 400, "invalid_parameter", "status");
  });

  it("side other than sell or buy", async () => {
    await expectError("/v1/offers?side=ask", 400, "invalid_parameter", "side");
  });

  it.each([
    ["/v1/offers", ["maker", "tokenMint", "paymentMint"]],
    ["/v1/fills", ["taker", "maker", "offerPda", "tokenMint", "paymentMint"]],
  ] as const)("addresses on %s that are not base58 or not 32 bytes", async (path, params) => {
    for (const param of params) {
      for (const bad of [NOT_BASE58, SHORT_KEY, "x".repeat(5000)]) {
        await expectError(`${path}?${param}=${bad}`, 400, "invalid_parameter", param);
      }
    }
  });

  it("path addresses that are not base58 or not 32 bytes", async () => {
    for (const bad of [NOT_BASE58, SHORT_KEY, "%F0%9F%92%A9"]) {
      await expectError(`/v1/offers/${bad}`, 400, "invalid_parameter", "pda");
      await expectError(`/v1/offers/${bad}/fills`, 400, "invalid_parameter", "pda");
      await expectError(`/v1/makers/${bad}/stats`, 400, "invalid_parameter", "maker");
      await expectError(`/v1/makers/${bad}/offers`, 400, "invalid_parameter", "maker");
    }
  });

  it.each(["yesterday", "1.5", "-5", "99999999999999"])("fromTime and toTime=%s", async (value) => {
    await expectError(`/v1/fills?fromTime=${value}`, 400, "invalid_parameter", "fromTime");
    await expectError(`/v1/fills?toTime=${value}`, 400, "invalid_parameter", "toTime");
  });

  it("fromTime after toTime", async () => {
    await expectError("/v1/fills?fromTime=1000&toTime=999", 400, "invalid_parameter", "fromTime");
  });

  it("a cursor that no page issued, or a cursor with an offset", async () => {
    await expectError("/v1/offers?cursor=bm90LWEtY3Vyc29y", 400, "invalid_parameter", "cursor");
    await expectError("/v1/fills?cursor=%24%24", 400, "invalid_parameter", "cursor");
    const cursor = Buffer.from(`1767225600:${VALID}`).toString("base64url");
    await expectError(`/v1/offers?cursor=${cursor}&offset=5`, 400, "invalid_parameter", "offset");
  });

  it("sort other than created or price, and sort=price without one book", async () => {
    await expectError("/v1/offers?sort=cheapest", 400, "invalid_parameter", "sort");
    await expectError(`/v1/offers?sort=price&tokenMint=${VALID}`, 400, "invalid_parameter", "paymentMint");
  });
});

describe("everything else", () => {
  it("ignores unknown query parameters and treats empty values as absent", async () => {
    const { status, body } = await server.json("/v1/offers?foo=bar&limit=&status=");
    expect(status).toBe(200);
    expect(body).toMatchObject({ limit: 50, offset: 0, offers: [] });
  });

  it("answers 404 not_found for an unknown path under /v1", async () => {
    await expectError("/v1/orders", 404, "not_found");
    await expectError("/v1/offers/a/b/c", 404, "not_found");
  });

  it("answers 405 with an allow header to any method but GET, HEAD and OPTIONS", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const response = await server.get("/v1/offers", { method });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      expect(await response.json()).toEqual({ error: expect.any(String), code: "method_not_allowed" });
    }
  });

  it("answers CORS preflight and marks every answer readable from any origin", async () => {
    const preflight = await server.get("/v1/fills", {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "GET" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("GET");
    const error = await server.get("/v1/offers?limit=0", { headers: { origin: "https://app.example" } });
    expect(error.headers.get("access-control-allow-origin")).toBe("*");
    await error.arrayBuffer();
  });

  it("answers HEAD with the headers of GET and no body", async () => {
    const response = await server.get("/v1/stats", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=10");
    expect(await response.text()).toBe("");
  });
});

describe("request budget and an unreachable database", () => {
  it("answers 429 rate_limited with retry-after once a client is over its budget, and other clients still pass", async () => {
    // Behind a trusted proxy the hop it appended is the client (tests/integration/reliability/client-address.test.ts pins the rest).
    const limited = await startWebServer({ DATABASE_URL: database.url, RATE_LIMIT_RPM: "5", TRUST_PROXY: "true" });
    try {
      await earlyInBudgetWindow(); // a minute rollover would refill the budget mid-test
      const client = { "x-forwarded-for": "203.0.113.7" };
      for (let i = 0; i < 5; i++) expect((await limited.get("/v1/stats", { headers: client })).status).toBe(200);
      const refused = await limited.json("/v1/stats", { headers: client });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: expect.any(String), code: "rate_limited" });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect((await limited.get("/v1/stats", { headers: { "x-forwarded-for": "203.0.113.8" } })).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });

  it("answers 503 unavailable when the database cannot be reached", async () => {
    const closedPort = await freePort();
    const orphan = await startWebServer({ DATABASE_URL: `postgres://postgres@127.0.0.1:${closedPort}/none` });
    try {
      const response = await orphan.json("/v1/offers");
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ error: expect.any(String), code: "unavailable" });
    } finally {
      await orphan.stop();
    }
  });
});
