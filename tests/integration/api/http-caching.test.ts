import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendChanges, insertOffer, recordFill } from "../../../lib/db/writes/index";
import { REDIS_URL } from "../tokens/helpers/service";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, fillFixture, offerFixture } from "../../helpers/fixtures";
import { earlyInBudgetWindow, startWebServer, type WebServer } from "../../helpers/server";
import { waitFor } from "../../helpers/worker";

// ETags, 304s, CDN cache policies and the request budget's headers, over real
// HTTP to the production server.

let database: TestDatabase;
let server: WebServer;

const MAKER = addressOf("maker:etag");
const offer = offerFixture("etag-1", { maker: MAKER });

const JSON_ANSWERS = [
  "/v1",
  "/v1/stats",
  "/v1/offers",
  `/v1/offers/${offer.pda}`,
  `/v1/offers/${offer.pda}/fills`,
  "/v1/fills",
  `/v1/makers/${MAKER}/stats`,
  `/v1/makers/${MAKER}/offers`,
  "/v1/markets",
];

beforeAll(async () => {
  database = await createTestDatabase();
  await insertOffer(database.db.$client, offer);
  await recordFill(database.db.$client, fillFixture("etag-fill-1", offer.pda, { slot: 300n }));
  server = await startWebServer({ DATABASE_URL: database.url });
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe("ETag and If-None-Match", () => {
  it("sends a strong ETag on every /v1 JSON answer and 304 without a body when If-None-Match names it", async () => {
    for (const path of JSON_ANSWERS) {
      const first = await server.get(path);
      expect(first.status, path).toBe(200);
      const etag = first.headers.get("etag");
      expect(etag, path).toMatch(/^"[A-Za-z0-9_-]{20,}"$/); // quoted, no W/: strong
      await first.arrayBuffer();

      const again = await server.get(path, { headers: { "if-none-match": etag! } });
      expect(again.status, path).toBe(304);
      expect(await again.text(), path).toBe("");
      expect(again.headers.get("etag"), path).toBe(etag);
      expect(again.headers.get("cache-control"), path).toBe(first.headers.get("cache-control"));
      expect(again.headers.get("access-control-allow-origin"), path).toBe("*");
    }
  });

  it("answers HEAD with If-None-Match alike, and a list of tags or a weak form of the tag matches too", async () => {
    const { headers } = await server.json("/v1/stats");
    const etag = headers.get("etag")!;
    const head = await server.get("/v1/stats", { method: "HEAD", headers: { "if-none-match": etag } });
    expect(head.status).toBe(304);
    expect(head.headers.get("etag")).toBe(etag);
    const listed = await server.get("/v1/stats", { headers: { "if-none-match": `"other", W/${etag}` } });
    expect(listed.status).toBe(304);
    await listed.arrayBuffer();
  });

  it("answers 200 with the body when the tag no longer matches: a new fill changes the feed's ETag", async () => {
    const before = await server.json("/v1/fills");
    const etag = before.headers.get("etag")!;
    const fill = fillFixture("etag-fill-2", offer.pda, { slot: 301n });
    // As the worker writes: the fill and its live-feed event in one transaction.
    await database.db.$client.begin(async (tx) => {
      await recordFill(tx, fill);
      await appendChanges(tx, [{ kind: "fill", signature: fill.signature, ixIndex: fill.ixIndex }]);
    });
    // The feed's notification reaches the web process within milliseconds of the commit.
    await expect.poll(async () => (await server.get("/v1/fills", { headers: { "if-none-match": etag } })).status, { timeout: 3000 }).toBe(200);
    const after = await server.json("/v1/fills", { headers: { "if-none-match": etag } });
    expect(after.body.fills).toHaveLength(before.body.fills.length + 1);
    expect(after.headers.get("etag")).not.toBe(etag);
  });

  it("sends no ETag on errors, which are never stored", async () => {
    const response = await server.get("/v1/offers?limit=0");
    expect(response.status).toBe(400);
    expect(response.headers.get("etag")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("no-store");
    await response.arrayBuffer();
  });
});

describe("revalidation without running the route", () => {
  const maker = addressOf("maker:memo");
  const path = `/v1/makers/${maker}/offers`;

  /** The web process's feed listener (started by its first /v1 request) is connected. */
  const listening = async () =>
    Number((await database.db.$client`select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen%'`)[0]!.n) > 0;

  /**
   * Whether the process vouches from memory yet (its LISTEN confirmed, not only sent): an answer's tag,
   * then a row the feed is not told of, then a revalidation that the memo answers 304 without the route.
   */
  let probes = 0;
  const vouchesFromMemory = async () => {
    const probe = `/v1/makers/${addressOf("maker:memo-probe")}/offers`;
    const tag = (await server.get(probe)).headers.get("etag")!;
    await insertOffer(database.db.$client, offerFixture(`memo-probe-${probes++}`, { maker: addressOf("maker:memo-probe") }));
    return (await server.get(probe, { headers: { "if-none-match": tag } })).status === 304;
  };

  it("vouches for an unchanged answer from memory until the live feed announces a change", async () => {
    await server.get("/v1");
    await expect.poll(listening, { timeout: 60_000 }).toBe(true);
    await expect.poll(vouchesFromMemory, { timeout: 60_000, interval: 100 }).toBe(true);
    const first = await server.json(path);
    const etag = first.headers.get("etag")!;
    expect(first.body.offers).toEqual([]);

    // A row written without telling the feed (the worker never does this): the
    // answer made before it is still vouched for, so the route did not run.
    const unseen = offerFixture("memo-1", { maker });
    await insertOffer(database.db.$client, unseen);
    const remembered = await server.get(path, { headers: { "if-none-match": etag } });
    expect(remembered.status).toBe(304);
    expect(remembered.headers.get("etag")).toBe(etag);
    expect(remembered.headers.get("cache-control")).toBe(first.headers.get("cache-control"));
    expect(remembered.headers.get("ratelimit-limit")).not.toBeNull();

    // Without the tag the route runs, and sees the row.
    expect((await server.json(path)).body.offers.map((o: { pda: string }) => o.pda)).toEqual([unseen.pda]);

    // Once the feed announces a change, the next revalidation runs the route.
    const second = offerFixture("memo-2", { maker });
    await database.db.$client.begin(async (tx) => {
      await insertOffer(tx, second);
      await appendChanges(tx, [{ kind: "offer", pda: second.pda }]);
    });
    await expect.poll(async () => (await server.get(path, { headers: { "if-none-match": etag } })).status, { timeout: 60_000 }).toBe(200);
    expect((await server.json(path)).body.offers).toHaveLength(2);
  });
});

describe("cache-control a CDN can act on", () => {
  it("keeps public, max-age=10 on /v1/stats and adds s-maxage and stale-while-revalidate on the lists and markets", async () => {
    const policy = async (path: string) => {
      const response = await server.get(path);
      await response.arrayBuffer();
      return response.headers.get("cache-control");
    };
    expect(await policy("/v1/stats")).toBe("public, max-age=10");
    for (const path of ["/v1/offers", "/v1/fills", `/v1/offers/${offer.pda}`, "/v1/markets"]) {
      expect(await policy(path), path).toMatch(/^public, max-age=\d+, s-maxage=\d+, stale-while-revalidate=\d+$/);
    }
  });
});

describe("rate-limit headers", () => {
  const budgetOf = (headers: Headers) => ({
    limit: headers.get("ratelimit-limit"),
    remaining: Number(headers.get("ratelimit-remaining")),
    reset: Number(headers.get("ratelimit-reset")),
    policy: headers.get("ratelimit-policy"),
  });

  // (Methods other than GET, HEAD and OPTIONS are refused by the web launcher before any budget is spent.)
  it("are on every answer, errors and 304s included, and count down", async () => {
    const ok = await server.get("/v1/stats");
    await ok.arrayBuffer();
    const notFound = await server.get("/v1/orders");
    await notFound.arrayBuffer();
    const invalid = await server.get("/v1/offers?limit=0");
    await invalid.arrayBuffer();
    const notModified = await server.get("/v1/stats", { headers: { "if-none-match": ok.headers.get("etag")! } });
    const budgets = [ok, notFound, invalid, notModified].map((r) => budgetOf(r.headers));
    for (const budget of budgets) {
      expect(budget.limit).toBe("1200");
      expect(budget.policy).toBe("1200;w=60");
      expect(budget.reset).toBeGreaterThanOrEqual(1);
      expect(budget.reset).toBeLessThanOrEqual(60);
    }
    // Another suite's requests cannot share this client's budget: it counts down by one per request.
    if (budgets[3]!.reset <= budgets[0]!.reset) expect(budgets.map((b) => budgets[0]!.remaining - b.remaining)).toEqual([0, 1, 2, 3]);
  });

  async function expectBudgetEnds(limited: WebServer, client: string) {
    await earlyInBudgetWindow(); // a minute rollover would refill the budget mid-test
    const headers = { "x-forwarded-for": client };
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await limited.get("/v1/stats", { headers });
      expect(response.status).toBe(200);
      remaining.push(budgetOf(response.headers).remaining);
      await response.arrayBuffer();
    }
    expect(remaining).toEqual([2, 1, 0]);
    const refused = await limited.json("/v1/stats", { headers });
    expect(refused.status).toBe(429);
    const budget = budgetOf(refused.headers);
    expect(budget).toMatchObject({ limit: "3", remaining: 0, policy: "3;w=60" });
    expect(refused.headers.get("retry-after")).toBe(String(budget.reset));
  }

  it("in memory: remaining reaches 0, and the 429's retry-after is RateLimit-Reset", async () => {
    const limited = await startWebServer({ DATABASE_URL: database.url, RATE_LIMIT_RPM: "3", TRUST_PROXY: "true" });
    try {
      await expectBudgetEnds(limited, "203.0.113.21");
    } finally {
      await limited.stop();
    }
  });

  it("in Redis (shared by instances): the same headers from the shared count", async () => {
    const env = { DATABASE_URL: database.url, RATE_LIMIT_RPM: "3", TRUST_PROXY: "true", REDIS_URL };
    const [a, b] = await Promise.all([startWebServer(env), startWebServer(env)]);
    try {
      // A client address of its own, so budgets left in Redis by earlier runs do not count.
      const newClient = () => `198.51.100.${randomBytes(1)[0]! % 250}-${randomBytes(4).toString("hex")}`;
      // Each instance connects to Redis with its first request, and counts in memory until connected (a slow
      // machine can take longer than the limiter's first-connection wait): wait until both count in Redis.
      await waitFor(
        async () => {
          const probe = newClient();
          const remaining = [];
          for (const server of [a, b]) {
            const response = await server.get("/v1/stats", { headers: { "x-forwarded-for": probe } });
            await response.arrayBuffer();
            remaining.push(budgetOf(response.headers).remaining);
          }
          return remaining[1] === remaining[0]! - 1;
        },
        30_000,
        () => "the two instances never counted one budget in Redis",
      );
      const client = newClient();
      await earlyInBudgetWindow();
      const first = await a.get("/v1/stats", { headers: { "x-forwarded-for": client } });
      await first.arrayBuffer();
      expect(budgetOf(first.headers).remaining).toBe(2);
      const second = await b.get("/v1/stats", { headers: { "x-forwarded-for": client } });
      await second.arrayBuffer();
      expect(budgetOf(second.headers).remaining).toBe(1); // the other instance counted the first
      const third = await a.get("/v1/stats", { headers: { "x-forwarded-for": client } });
      await third.arrayBuffer();
      const refused = await b.json("/v1/stats", { headers: { "x-forwarded-for": client } });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("ratelimit-remaining")).toBe("0");
      expect(refused.headers.get("retry-after")).toBe(refused.headers.get("ratelimit-reset"));
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
