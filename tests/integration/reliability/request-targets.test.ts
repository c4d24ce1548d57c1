import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { rawRequest, type RawAnswer } from "../../helpers/raw-http";
import { startWebServer, type WebServer } from "../../helpers/server";
import { waitFor } from "../../helpers/worker";

// Request targets beside the malformed-request kinds (./malformed-requests.test.ts):
// `*`, absolute-form, doubled and trailing slashes, targets and headers over
// the parser's limit; CORS's exposed headers; an ETag per content coding,
// and revalidation through a compressing proxy; and what a client's bytes can
// make the framework print (one log line per kind per interval, no stack).

let database: TestDatabase;
let server: WebServer;
let port: number;

beforeAll(async () => {
  database = await createTestDatabase();
  // Warnings and errors logged, as JSON lines: the log-flood check below reads them.
  server = await startWebServer({ DATABASE_URL: database.url, LOG_LEVEL: "warn", LOG_FORMAT: "json" });
  port = Number(new URL(server.baseUrl).port);
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

const CRLF = "\r\n";
function request(method: string, target: string, headers: Record<string, string> = {}): string {
  const all: Record<string, string> = { host: "127.0.0.1", connection: "close", ...headers };
  return `${method} ${target} HTTP/1.1${CRLF}${Object.entries(all).map(([k, v]) => `${k}: ${v}`).join(CRLF)}${CRLF}${CRLF}`;
}

function expectJsonError(answer: RawAnswer, status: number) {
  expect(answer.status, answer.body.slice(0, 200)).toBe(status);
  expect(answer.headers["content-type"]).toMatch(/^application\/json/);
  expect(answer.headers["access-control-allow-origin"]).toBe("*");
  expect(JSON.parse(answer.body)).toEqual(expect.objectContaining({ error: expect.any(String), code: expect.any(String) }));
}

describe("request targets", () => {
  it("OPTIONS * is answered for the server", async () => {
    const answer = await rawRequest(port, request("OPTIONS", "*"));
    expect(answer.status).toBe(204);
    expect(answer.headers.allow).toBe("GET, HEAD, OPTIONS");
    expect(answer.headers["access-control-allow-origin"]).toBe("*");
  });

  it.each(["GET", "HEAD", "DELETE"])("%s * is a JSON 400", async (method) => {
    const answer = await rawRequest(port, request(method, "*"));
    if (method === "HEAD") return expect(answer.status).toBe(400);
    expectJsonError(answer, 400);
  });

  it("an absolute-form target is served as its path, never redirected to the host it names", async () => {
    const ok = await rawRequest(port, request("GET", "http://evil.example/v1/stats"));
    expect(ok.status).toBe(200);
    expect(ok.headers.location).toBeUndefined();
    const refused = await rawRequest(port, request("GET", "http://evil.example/v1/offers?limit=0"));
    expectJsonError(refused, 400);
    expect(JSON.parse(refused.body).param).toBe("limit");
    const page = await rawRequest(port, request("GET", "http://127.0.0.1/"));
    expect(page.headers.location ?? "").not.toMatch(/evil|^http/);
  });

  it("a target that is neither a path nor an http URL is a JSON 400", async () => {
    expectJsonError(await rawRequest(port, request("GET", "ftp://x/v1/stats")), 400);
  });

  it.each([
    ["/v1//offers", "/v1/offers"],
    ["/v1/offers/", "/v1/offers"],
    ["/v1/offers//?limit=2", "/v1/offers?limit=2"],
    ["/v1/", "/v1"],
  ])("%s is a 308 to %s on the same origin, with a JSON body and CORS, in one step", async (target, location) => {
    const answer = await rawRequest(port, request("GET", target));
    expect(answer.status).toBe(308);
    expect(answer.headers.location).toBe(location);
    expect(answer.headers["access-control-allow-origin"]).toBe("*");
    expect(JSON.parse(answer.body)).toEqual(expect.objectContaining({ code: "moved_permanently", location }));
    const followed = await rawRequest(port, request("GET", location));
    expect(followed.status).toBe(200);
  });

  it("a request line over the parser's limit is a JSON 414 with CORS", async () => {
    expectJsonError(await rawRequest(port, request("GET", `/v1/offers?maker=${"1".repeat(20_000)}`)), 414);
  });

  it("headers over the parser's limit are a JSON 431 with CORS", async () => {
    expectJsonError(await rawRequest(port, request("GET", "/v1/stats", { "x-big": "a".repeat(20_000) })), 431);
  });

  it("a request the parser cannot read is a JSON 400", async () => {
    expectJsonError(await rawRequest(port, request("get", "/v1/stats")), 400);
  });

  it("none of them left a stack trace in the log", () => {
    expect(server.output()).not.toMatch(/\n\s+at |TypeError/);
  });
});

describe("CORS", () => {
  it.each([["/v1/stats"], ["/v1/offers?limit=0"]])("%s exposes the validator and the budget's headers", async (path) => {
    const response = await fetch(`${server.baseUrl}${path}`, { headers: { origin: "https://elsewhere.example" } });
    const exposed = (response.headers.get("access-control-expose-headers") ?? "").split(/\s*,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(["etag", "retry-after", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "ratelimit-policy"]));
  });
});

describe("an ETag per content coding", () => {
  // The endpoint list is over the 1 KB below which Next does not compress.
  const PATH = "/v1/openapi.json";

  it("the gzip body's tag is the identity tag marked -gzip; If-None-Match matches either form", async () => {
    const identity = await rawRequest(port, request("GET", PATH, { "accept-encoding": "identity" }));
    const gzip = await rawRequest(port, request("GET", PATH, { "accept-encoding": "gzip" }));
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(identity.headers["content-encoding"]).toBeUndefined();
    const tag = identity.headers.etag!;
    expect(tag).toMatch(/^"[^"]+"$/);
    expect(gzip.headers.etag).toBe(`${tag.slice(0, -1)}-gzip"`);
    expect(gzip.body).toBe(identity.body);

    const gzipRevalidated = await rawRequest(port, request("GET", PATH, { "accept-encoding": "gzip", "if-none-match": gzip.headers.etag! }));
    expect(gzipRevalidated.status).toBe(304);
    expect(gzipRevalidated.headers.etag).toBe(gzip.headers.etag);
    const identityRevalidated = await rawRequest(port, request("GET", PATH, { "accept-encoding": "identity", "if-none-match": tag }));
    expect(identityRevalidated.status).toBe(304);
    expect(identityRevalidated.headers.etag).toBe(tag);
    const other = await rawRequest(port, request("GET", PATH, { "accept-encoding": "gzip", "if-none-match": '"other-gzip"' }));
    expect(other.status).toBe(200);
  });

  it("304s keep working behind a proxy that compresses (and weakens the tag, as nginx does)", async () => {
    const upstream = new URL(server.baseUrl);
    const proxy = http.createServer((req, res) => {
      const headers = { ...req.headers, host: upstream.host, "accept-encoding": "identity" };
      const forward = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (c: Buffer) => chunks.push(c));
        answer.on("end", () => {
          const out = { ...answer.headers };
          delete out["content-length"];
          if (typeof out.etag === "string" && !out.etag.startsWith("W/")) out.etag = `W/${out.etag}`;
          const body = Buffer.concat(chunks);
          if (answer.statusCode === 200 && /gzip/.test(String(req.headers["accept-encoding"]))) {
            res.writeHead(200, { ...out, "content-encoding": "gzip" }).end(gzipSync(body));
          } else res.writeHead(answer.statusCode ?? 502, out).end(body);
        });
      });
      forward.end();
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const proxyPort = (proxy.address() as AddressInfo).port;
      const first = await rawRequest(proxyPort, request("GET", PATH, { "accept-encoding": "gzip" }));
      expect(first.status).toBe(200);
      expect(first.headers.etag).toMatch(/^W\/"/);
      const again = await rawRequest(proxyPort, request("GET", PATH, { "accept-encoding": "gzip", "if-none-match": first.headers.etag! }));
      expect(again.status).toBe(304);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});

describe("the log a client can reach", () => {
  const post = (action: string) =>
    fetch(`${server.baseUrl}/trending`, { method: "POST", headers: { "next-action": action, "content-type": "text/plain" }, body: "x" }).then((r) => r.arrayBuffer());

  it("made-up Next-Action headers print one line for many requests and never a stack", async () => {
    const from = server.output().length;
    // Next prints each of these as an error with a stack ("Failed to find Server Action").
    for (let i = 0; i < 20; i++) await post(`${String(i).padStart(2, "0")}${"ab".repeat(20)}`);
    // Another kind, sent last: once its line is read, every line before it has been too (one pipe, in order).
    await post("not-hex");
    await waitFor(async () => /Server Reference ID/.test(server.output().slice(from)), 10_000, () => server.output().slice(from));
    const log = server.output().slice(from);
    expect(log.match(/Failed to find Server Action/g)).toHaveLength(1);
    expect(log).not.toMatch(/^\s+at /m);
    for (const line of log.split("\n").filter((l) => /Server/.test(l))) expect(JSON.parse(line)).toMatchObject({ level: expect.any(Number), source: "console" });
  });
});
