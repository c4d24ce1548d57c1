import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { earlyInBudgetWindow, startWebServer, type WebServer } from "../../helpers/server";

// The request budget keys on the real client (issue 9, item 9): a client that
// names itself in forwarding headers must not get a fresh budget.

let database: TestDatabase;
const BUDGET = 5;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
});

const fakeAddress = (i: number) => `198.51.100.${i % 250}`;

/** Every header a client might use to name itself, each with a new address per request. */
const spoofedHeaders = (i: number): Record<string, string> => ({
  "x-forwarded-for": `${fakeAddress(i)}, ${fakeAddress(i + 1)}`,
  "x-real-ip": fakeAddress(i + 2),
  forwarded: `for=${fakeAddress(i + 3)}`,
  "x-offer-book-client": fakeAddress(i + 4), // the launcher's own header, sent by the client
  "true-client-ip": fakeAddress(i + 5),
});

async function statusOf(server: WebServer, headers: Record<string, string>): Promise<number> {
  const response = await server.get("/v1/stats", { headers });
  await response.arrayBuffer();
  return response.status;
}

describe("without TRUST_PROXY the client is the socket's address", () => {
  let server: WebServer;
  beforeAll(async () => {
    server = await startWebServer({ DATABASE_URL: database.url, RATE_LIMIT_RPM: String(BUDGET) });
  });
  afterAll(async () => server?.stop());

  it("keeps refusing the real address however the forwarding headers rotate", async () => {
    await earlyInBudgetWindow();
    // The start-up probe spent one request of this address's budget, unless a new window began since.
    let served = 0;
    while (served < 100 && (await statusOf(server, spoofedHeaders(served))) === 200) served++;
    expect([BUDGET - 1, BUDGET]).toContain(served);
    const statuses = [];
    for (let i = 0; i < 60; i++) statuses.push(await statusOf(server, spoofedHeaders(100 + i)));
    expect(statuses.filter((s) => s !== 429)).toEqual([]);
    expect(await statusOf(server, {})).toBe(429);
  });
});

describe("with TRUST_PROXY the hop the proxy appended is the client", () => {
  let server: WebServer;
  beforeAll(async () => {
    server = await startWebServer({ DATABASE_URL: database.url, RATE_LIMIT_RPM: String(BUDGET), TRUST_PROXY: "true" });
  });
  afterAll(async () => server?.stop());

  it("refuses the proxy-appended address whatever earlier hops the client made up, and serves another", async () => {
    await earlyInBudgetWindow();
    const viaProxy = (clientSaid: string, appended: string) => ({ "x-forwarded-for": `${clientSaid}, ${appended}` });
    for (let i = 0; i < BUDGET; i++) expect(await statusOf(server, viaProxy(fakeAddress(i), "203.0.113.7"))).toBe(200);
    for (let i = 0; i < 20; i++) {
      expect(await statusOf(server, { ...viaProxy(fakeAddress(50 + i), "203.0.113.7"), "x-real-ip": fakeAddress(i) })).toBe(429);
    }
    expect(await statusOf(server, { "x-forwarded-for": "203.0.113.7" })).toBe(429);
    expect(await statusOf(server, viaProxy("203.0.113.7", "203.0.113.8"))).toBe(200);
  });
});
