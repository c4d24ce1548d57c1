import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf } from "../../helpers/fixtures";
import { documentRefusal } from "../../helpers/request-contract";
import { startWebServer, type WebServer } from "../../helpers/server";

// The OpenAPI document as strict as the server: Spectral (its OpenAPI rules
// and the OWASP API Security ruleset, .spectral.yaml) finds no error in the
// document the server serves, and a table of requests, both ways, is
// accepted by the document exactly when the server answers 2xx.

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

const A = addressOf("token");
const B = addressOf("payment");
const M = addressOf("maker");

/** Requests the document accepts: the server answers each 2xx. */
const accepted = [
  "/v1",
  "/v1/openapi.json",
  "/v1/stats",
  "/v1/markets",
  "/v1/offers",
  "/v1/offers?limit=1",
  "/v1/offers?limit=200",
  "/v1/offers?limit=5000",
  "/v1/offers?offset=100000",
  "/v1/offers?status=cancelled&side=buy",
  `/v1/offers?sort=price&tokenMint=${A}&paymentMint=${B}`,
  `/v1/offers?maker=${M}&unknown=ignored`,
  `/v1/offers?maker=${"1".repeat(32)}`,
  "/v1/fills?fromTime=0&toTime=253402300799",
  `/v1/fills?taker=${M}&limit=10`,
  `/v1/makers/${M}/stats`,
  `/v1/makers/${M}/stats?window=24h`,
  "/v1/makers",
  "/v1/makers?window=7d&sort=offers&limit=5",
  `/v1/makers?window=all&sort=volume&paymentMint=${B}`,
  "/v1/fills?format=json",
  `/v1/makers/${M}/offers?status=open&limit=5`,
  `/v1/candles?tokenMint=${A}&paymentMint=${B}&resolution=1h&limit=1500`,
  `/v1/candles?tokenMint=${A}&paymentMint=${B}&resolution=1d&fromTime=0`,
];

/** Requests the document refuses: the server answers each 4xx. */
const refused = [
  "/v1/offers?limit=0",
  "/v1/offers?limit=-1",
  "/v1/offers?limit=1.5",
  "/v1/offers?limit=1e3",
  "/v1/offers?offset=-1",
  "/v1/offers?offset=100001",
  "/v1/offers?status=bogus",
  "/v1/offers?side=ask",
  "/v1/offers?sort=size",
  `/v1/offers?maker=${"1".repeat(31)}`,
  `/v1/offers?maker=${M}0`,
  "/v1/offers?tokenMint=0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl",
  `/v1/offers?cursor=${"a".repeat(201)}`,
  "/v1/offers?cursor=a=b",
  "/v1/fills?fromTime=-5",
  "/v1/fills?toTime=253402300800",
  "/v1/makers/short/stats",
  "/v1/makers?window=1y",
  "/v1/makers?sort=price",
  `/v1/makers/${M}/stats?window=week`,
  "/v1/fills?format=xml",
  `/v1/candles?tokenMint=${A}&paymentMint=${B}&resolution=2h`,
  `/v1/candles?paymentMint=${B}&resolution=1h`,
  `/v1/candles?tokenMint=${A}&paymentMint=${B}&resolution=1h&limit=0`,
  "/v1/tokens?mints=notamint",
  `/v1/tokens?mints=${A};${B}`,
  "/v1/stream?types=fills",
  "/v1/stream?after=-1",
  `/v1/stream?after=${"9".repeat(20)}`,
];

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
