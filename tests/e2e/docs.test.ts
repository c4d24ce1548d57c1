import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { startWebServer, type WebServer } from "../helpers/server";
import { DESKTOP, isolate, launchChromium, watchConsole, watchRequests } from "./browser";

// /docs in Debian's Chromium on a machine that reaches nothing but itself:
// the reference renders the API's operations from /v1/openapi.json, and
// every request the page makes stays on localhost.

const SHOTS = path.resolve(import.meta.dirname, "../../test-results/e2e");

let database: TestDatabase;
let server: WebServer;
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
  database = await createTestDatabase();
  server = await startWebServer({ DATABASE_URL: database.url, RATE_LIMIT_RPM: "0" });
  mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await database?.drop();
});

describe("/docs offline", () => {
  it("renders every operation of the document from this origin alone", async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const external = await isolate(context, server.baseUrl);
    const page = await context.newPage();
    const errors = watchConsole(page);
    const failed = watchRequests(page);
    const requested: string[] = [];
    page.on("request", (r) => requested.push(r.url()));

    await page.goto(`${server.baseUrl}/docs`);
    // The summary of GET /v1/stats in web/http/openapi/document.ts, as the reference shows it.
    await page.getByText("Protocol totals").first().waitFor({ timeout: 60_000 });
    const document = (await (await server.get("/v1/openapi.json")).json()) as { paths: Record<string, { get?: { summary?: string } }> };
    const summaries = Object.values(document.paths).flatMap((item) => (item.get?.summary ? [item.get.summary] : []));
    expect(summaries.length).toBeGreaterThan(10);
    const shown = await page.locator("#reference").innerText();
    for (const summary of summaries) expect(shown, `the summary "${summary}"`).toContain(summary);
    await page.screenshot({ path: path.join(SHOTS, "docs-desktop.png") });
    await context.close();

    expect(external, "requests that left localhost").toEqual([]);
    for (const url of requested.filter((u) => /^https?:/.test(u))) expect(new URL(url).origin, url).toBe(server.baseUrl);
    expect(requested.some((url) => url.includes("/v1/openapi.json"))).toBe(true);
    expect(failed, "failed requests").toEqual([]);
    expect(errors, "console errors").toEqual([]);
  });
});
