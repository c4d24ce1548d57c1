import { Validator } from "@seriousme/openapi-schema-validator";
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { checkContract } from "../../helpers/contract";
import { startWebServer, type WebServer } from "../../helpers/server";

// GET /v1/openapi.json and /docs over real HTTP: a valid OpenAPI 3.1 document
// with every route of app/v1, and the contract check failing on a body the
// document does not allow.

let database: TestDatabase;
let server: WebServer;

const APP_V1 = path.resolve(import.meta.dirname, "../../../app/v1");

/** Every route handler under app/v1 as an OpenAPI path template (catch-all left out). */
function routeTemplates(dir = APP_V1, prefix = "/v1"): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name === "route.ts") found.push(prefix);
    if (!entry.isDirectory() || entry.name.startsWith("[...")) continue;
    const segment = entry.name.replace(/^\[(.+)\]$/, "{$1}");
    found.push(...routeTemplates(path.join(dir, entry.name), `${prefix}/${segment}`));
  }
  return found;
}

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startWebServer({ DATABASE_URL: database.url });
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe("GET /v1/openapi.json", () => {
  it("is an OpenAPI 3.1 document that passes the schema validator", async () => {
    const { status, headers, body } = await server.json("/v1/openapi.json");
    expect(status).toBe(200);
    expect(headers.get("etag")).toMatch(/^"/);
    expect(body.openapi).toBe("3.1.0");
    const result = await new Validator().validate(body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("describes every route of app/v1 and the stream, with every error status's body and examples", async () => {
    const { body } = await server.json("/v1/openapi.json");
    const documented = Object.keys(body.paths);
    for (const template of [...routeTemplates(), "/v1/stream"]) expect(documented, template).toContain(template);
    for (const [template, item] of Object.entries<any>(body.paths)) {
      const responses = item.get.responses;
      // The DEXTools adapter's errors are ours with its `message` beside (docs/api.md#dextools-http-adapter).
      const error = template.startsWith("/v1/dextools/") ? "DexToolsError" : "Error";
      for (const status of ["429", "503"]) expect(responses[status]?.content?.["application/json"]?.schema, `${template} ${status}`).toEqual({ $ref: `#/components/schemas/${error}` });
    }
    const candles = body.paths["/v1/candles"].get;
    expect(candles.parameters.map((p: any) => [p.name, p.required ?? false])).toEqual([
      ["tokenMint", true],
      ["paymentMint", true],
      ["resolution", true],
      ["fromTime", false],
      ["toTime", false],
      ["limit", false],
      ["units", false],
      ["invert", false],
      ["includeEmpty", false],
    ]);
    expect(candles.responses["200"].content["application/json"].example.candles[0]).toMatchObject({ open: expect.any(String) });
    expect(candles.responses["400"].content["application/json"].example).toMatchObject({ code: "invalid_parameter" });
    const stream = body.paths["/v1/stream"].get;
    expect(Object.keys(stream.responses["200"].content)).toEqual(["text/event-stream"]);
    expect(stream.parameters.map((p: any) => p.name)).toEqual(["tokenMint", "paymentMint", "maker", "offerPda", "types", "after", "last-event-id"]);
  });
});

describe("the contract check the API suites run on every answer", () => {
  it("passes the answers of this server and fails a body the document does not allow", async () => {
    const stats = await server.json("/v1/stats"); // checked inside json()
    expect(() => checkContract("/v1/stats", 200, { ...stats.body, totalFills: "0" })).toThrow(/totalFills|must be/);
    expect(() => checkContract("/v1/candles", 200, { candles: [{ time: 1, open: "2.50" }] })).toThrow(/contract/);
    expect(() => checkContract("/v1/stats", 418, {})).toThrow(/does not list/);
    expect(() => checkContract("/v1/nowhere", 404, { error: "x", code: "not_found" })).not.toThrow();
  });
});

describe("/docs", () => {
  /** The src and href of every script and stylesheet the page references. */
  const referencedAssets = (html: string) => [
    ...[...html.matchAll(/<script\b[^>]*\bsrc="([^"]*)"/g)].map((m) => m[1]!),
    ...[...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]*)"/g)].map((m) => m[1]!),
  ];

  it("references only scripts and styles of its own origin, and names /v1/openapi.json", async () => {
    const docs = await server.get("/docs");
    expect(docs.status).toBe(200);
    expect(docs.headers.get("content-type")).toMatch(/^text\/html/);
    expect(docs.headers.get("content-security-policy")).toMatch(/script-src 'self';/);
    const html = await docs.text();
    expect(html).toContain("/v1/openapi.json");
    const assets = referencedAssets(html);
    expect(assets.length).toBeGreaterThanOrEqual(3); // the renderer, its stylesheet, the page's own start-up
    for (const asset of assets) expect(asset, "a path on this origin").toMatch(/^\/(?!\/)/);
  });

  it("serves the renderer's script and stylesheet itself, cacheable until its version changes", async () => {
    const html = await (await server.get("/docs")).text();
    const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]*)"/g)].map((m) => m[1]!);
    expect(scripts.some((s) => s.includes("swagger-ui-bundle.js"))).toBe(true);
    for (const src of scripts) {
      const response = await server.get(src);
      expect(response.status, src).toBe(200);
      expect(response.headers.get("content-type"), src).toMatch(/^text\/javascript/);
      expect(response.headers.get("cache-control")).toContain("immutable");
      const body = await response.text();
      expect(body.length).toBeGreaterThan(100);
      expect(() => new Function(body), `${src} parses as JavaScript`).not.toThrow();
      const again = await server.get(src, { headers: { "if-none-match": response.headers.get("etag")! } });
      expect(again.status).toBe(304);
    }
    const css = html.match(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]*)"/)![1]!;
    const style = await server.get(css);
    expect(style.status).toBe(200);
    expect(style.headers.get("content-type")).toMatch(/^text\/css/);
  });

  it("serves no other file from its asset folder", async () => {
    for (const name of ["package.json", "index.js", "..%2Fpackage.json", "swagger-initializer.js"]) {
      expect((await server.get(`/docs/assets/${name}`)).status, name).toBe(404);
    }
  });

  it("keeps the renderer off the explorer's pages", async () => {
    const home = await (await server.get("/")).text();
    expect(home).not.toMatch(/swagger/i);
  });
});
