import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../platform/postgres/embedded";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { earlyInBudgetWindow, startWebServer, type WebServer } from "../../helpers/server";

let database: TestDatabase;
let server: WebServer;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startWebServer({ DATABASE_URL: database.url, RATE_LIMIT_RPM: "3" });
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

async function expectNotReady(web: WebServer, reason: RegExp) {
  const ready = await web.json("/health/ready");
  expect(ready.status).toBe(503);
  expect(ready.body).toMatchObject({ ready: false, code: "unavailable" });
  expect(ready.body.error).toMatch(reason);
  expect(Number(ready.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  // Liveness stays up: restarting the process would not bring the database back.
  expect((await web.json("/health")).status).toBe(200);
}

describe("liveness and readiness", () => {
  it("answers /health 200 and /health/ready 200 when the database is reachable and migrated", async () => {
    const live = await server.json("/health");
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ ok: true });
    const ready = await server.json("/health/ready");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ ready: true });
  });

  it("is not ready on a database without migrations, nor with the newest one missing", async () => {
    const bare = await createTestDatabase({ migrate: false });
    const partial = await createTestDatabase();
    await partial.db.$client.unsafe(
      "delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)",
    );
    const onBare = await startWebServer({ DATABASE_URL: bare.url });
    const onPartial = await startWebServer({ DATABASE_URL: partial.url });
    try {
      await expectNotReady(onBare, /no migrations applied/);
      await expectNotReady(onPartial, /migrations pending/);
    } finally {
      await Promise.all([onBare.stop(), onPartial.stop()]);
      await Promise.all([bare.drop(), partial.drop()]);
    }
  });

  it("is not ready when DATABASE_URL points at nothing", async () => {
    const orphan = await startWebServer({ DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/none` });
    try {
      await expectNotReady(orphan, /unreachable/);
      const metrics = await orphan.get("/metrics");
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/^offer_book_db_up 0$/m);
    } finally {
      await orphan.stop();
    }
  });
});

describe("/metrics", () => {
  it("counts /v1 requests by route pattern and status, refusals and the database pool, in Prometheus text", async () => {
    const pda = "11111111111111111111111111111111";
    await earlyInBudgetWindow();
    // The budget (3 a minute) is shared with the start-up probe: serve until the first refusal.
    let served = 0;
    while (served < 10 && (await server.get("/v1/stats")).status === 200) served++;
    expect(served).toBeGreaterThan(0);
    expect((await server.get(`/v1/offers/${pda}`)).status).toBe(429);
    expect((await server.get("/v1/stats", { method: "PUT" })).status).toBe(405);
    const metrics = await server.get("/metrics");
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await metrics.text();
    const count = (route: string, status: number) =>
      Number(new RegExp(`^offer_book_http_request_duration_seconds_count\\{route="${route.replace(/[[\]().]/g, "\\$&")}",status="${status}"\\} (\\d+)$`, "m").exec(text)?.[1]);
    expect(count("/v1/stats", 200)).toBe(served);
    expect(count("/v1/stats", 429)).toBe(1);
    expect(count("/v1/offers/[pda]", 429)).toBe(1);
    // What the launcher refuses before Next routes it is counted too.
    expect(count("(before routing)", 405)).toBe(1);
    expect(text).toMatch(/^offer_book_rate_limited_total 2$/m);
    expect(text).toMatch(/^offer_book_db_up 1$/m);
    expect(text).toMatch(/^offer_book_db_connections\{state="active"\} \d+$/m);
    expect(text).toMatch(/^offer_book_db_pool_max 10$/m);
    expect(text).toContain("# TYPE offer_book_token_provider_calls_total counter");
    expect(text).toContain("# TYPE offer_book_token_cache_lookups_total counter");
    // A route with a parameter is labelled by its pattern, never the raw path.
    expect(text).not.toContain(pda);
  });
});
