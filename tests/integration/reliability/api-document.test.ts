import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { startPrismProxy, type PrismProxy } from "../../helpers/prism";
import { documentRefusal } from "../../helpers/request-contract";
import { accepted, refused } from "../../helpers/request-table";
import { startWebServer, type WebServer } from "../../helpers/server";

// The OpenAPI document as strict as the server: Spectral (its OpenAPI rules
// and the OWASP API Security ruleset, .spectral.yaml) finds no error in the
// document the server serves, and a table of requests, both ways, is
// accepted by the document exactly when the server answers 2xx: by the suite's
// own check and by Prism as a validating proxy, which also checks every
// answer (errors included) against the document.

const ROOT = path.resolve(import.meta.dirname, "../../..");
let database: TestDatabase;
let server: WebServer;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startWebServer({ DATABASE_URL: database.url });
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

interface SpectralResult {
  code: string;
  severity: number;
  path: string[];
  message: string;
}

describe("Spectral with the OWASP ruleset", () => {
  it("finds no error in GET /v1/openapi.json", { timeout: 120_000 }, async () => {
    const { body } = await server.json("/v1/openapi.json");
    const dir = mkdtempSync(path.join(tmpdir(), "openapi-"));
    try {
      const file = path.join(dir, "openapi.json");
      writeFileSync(file, JSON.stringify(body));
      const spectral = path.join(ROOT, "node_modules/.bin/spectral");
      const run = await promisify(execFile)(spectral, ["lint", file, "--ruleset", path.join(ROOT, ".spectral.yaml"), "--format", "json", "--quiet"], {
        cwd: ROOT,
        maxBuffer: 64 << 20,
      }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" })); // exits 1 when it finds errors
      const results = JSON.parse(run.stdout || "[]") as SpectralResult[];
      const errors = results.filter((r) => r.severity === 0).map((r) => `${r.code} at ${r.path.join("/")}: ${r.message}`);
      expect(errors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the document and the server agree on what is accepted", () => {
  it.each(accepted)("accepted: %s", async (target) => {
    expect(documentRefusal(target)).toBeNull();
    const { status } = await server.json(target);
    expect(status).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(300);
  });

  it.each(refused)("refused: %s", async (target) => {
    expect(documentRefusal(target)).not.toBeNull();
    const response = await fetch(`${server.baseUrl}${target}`, { method: "HEAD" });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });

  it("the stream's Last-Event-ID is a documented header of the same pattern as after", async () => {
    expect(documentRefusal("/v1/stream", { "last-event-id": "12" })).toBeNull();
    expect(documentRefusal("/v1/stream", { "last-event-id": "x" })).not.toBeNull();
    const refusedHeader = await fetch(`${server.baseUrl}/v1/stream`, { method: "HEAD", headers: { "last-event-id": "x" } });
    expect(refusedHeader.status).toBe(400);
    const resumed = await fetch(`${server.baseUrl}/v1/stream?after=5`, { method: "HEAD", headers: { "last-event-id": "12" } });
    expect(resumed.status).toBe(200);
  });
});

describe("Prism as a validating proxy", () => {
  let prism: PrismProxy;

  beforeAll(async () => {
    const { body } = await server.json("/v1/openapi.json");
    prism = await startPrismProxy(body, server.baseUrl);
  }, 60_000);

  afterAll(async () => {
    await prism?.stop();
  });

  it.each(accepted)("finds no violation in the request or the 2xx answer: %s", async (target) => {
    const { status, violations } = await prism.get(target);
    expect(violations).toEqual([]);
    expect(status).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(300);
  });

  // Prism reads a query value as a number the way JavaScript does, so `1e3` is the integer 1000 to it; the
  // document's integers are decimal digits as OpenAPI serializes them, which the suite's own check above holds to.
  const refusedAsPrismReads = refused.filter((target) => !/=\d+e\d+/.test(target));

  // The stream's refusals are answered at once; its accepted requests stay open, which a buffering proxy cannot pass.
  it.each(refusedAsPrismReads)("refuses the request, and the server's 4xx answer matches the document: %s", async (target) => {
    const { status, violations } = await prism.get(target);
    expect(violations.filter((v) => v.location[0] === "request").length).toBeGreaterThan(0);
    expect(violations.filter((v) => v.location[0] === "response")).toEqual([]);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  });
});
