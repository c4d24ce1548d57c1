import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf } from "../../helpers/fixtures";
import { rawRequest, type RawAnswer } from "../../helpers/raw-http";
import { startWebServer, type WebServer } from "../../helpers/server";

// Malformed requests against the real web server over real sockets (issue 9,
// item 12). Each is answered by the app as a 4xx in the API's JSON error
// shape, or refused by Node's HTTP parser before the app sees it; never a
// 5xx, a hang or a stack trace.

let database: TestDatabase;
let server: WebServer;
let port: number;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startWebServer({ DATABASE_URL: database.url });
  port = Number(new URL(server.baseUrl).port);
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

const VALID = addressOf("valid");
const CRLF = "\r\n";

/** One HTTP/1.1 request as text; `headers` may replace host or add anything. */
function request(method: string, target: string, headers: Record<string, string> = {}, body = ""): string {
  const all: Record<string, string> = { host: "127.0.0.1", connection: "close", ...headers };
  const lines = Object.entries(all).map(([k, v]) => `${k}: ${v}`);
  return `${method} ${target} HTTP/1.1${CRLF}${lines.join(CRLF)}${CRLF}${CRLF}${body}`;
}

/** The app's answer: a 4xx JSON error of the documented shape. */
const APP = "app";
/** Node's parser refuses it before the app: a bare 4xx, or the connection closed. */
const PARSER = "parser";

type Case = [name: string, bytes: string, expected: typeof APP | typeof PARSER, status?: number];

const BAD = "/v1/offers?limit=0"; // a request the app refuses (400 limit): odd extras must not change that

const cases: Case[] = [
  // Methods
  ["TRACE", request("TRACE", "/v1/stats"), APP, 405],
  ["PROPFIND", request("PROPFIND", "/v1/stats"), APP, 405],
  ["MKCOL", request("MKCOL", "/v1/offers"), APP, 405],
  ["PURGE", request("PURGE", "/v1"), APP, 405],
  ["SEARCH with a body", request("SEARCH", "/v1/fills", { "content-length": "2" }, "{}"), APP, 405],
  ["M-SEARCH", request("M-SEARCH", "/v1/stats"), APP, 405],
  ["POST with a JSON body", request("POST", "/v1/offers", { "content-type": "application/json", "content-length": "2" }, "{}"), APP, 405],
  ["DELETE an offer", request("DELETE", `/v1/offers/${VALID}`), APP, 405],
  ["PATCH an unknown path", request("PATCH", "/v1/nowhere"), APP, 405],
  ["TRACE on an unknown path", request("TRACE", "/v1/a/b/c"), APP, 405],
  ["CONNECT to a host", request("CONNECT", "127.0.0.1:443"), PARSER],
  ["CONNECT to an API path", request("CONNECT", "/v1/stats"), PARSER],
  ["a lowercase method", request("get", "/v1/stats"), PARSER],
  ["a made-up method", request("FROBNICATE", "/v1/stats"), PARSER],
  // Paths
  ["an unknown endpoint", request("GET", "/v1/orders"), APP, 404],
  ["too many segments", request("GET", "/v1/offers/a/b/c/d"), APP, 404],
  ["an encoded slash in a path parameter", request("GET", "/v1/offers/abc%2F..%2Fstats"), APP, 400],
  ["three dots for a parameter", request("GET", "/v1/offers/.../fills"), APP, 400],
  ["an encoded backslash climbing up", request("GET", "/v1/offers/..%5C..%5Cstats"), APP, 400],
  ["an overlong parameter", request("GET", `/v1/offers/${"A".repeat(8000)}`), APP, 400],
  ["a NUL in the path", request("GET", "/v1/offers/%00"), APP],
  ["percent junk in the path", request("GET", "/v1/offers/%ZZ%"), APP, 400],
  ["truncated UTF-8 in the path", request("GET", "/v1/makers/%E0%A4%A/stats"), APP, 400],
  ["percent junk right after /v1/", request("GET", "/v1/%"), APP, 400],
  ["unicode in a parameter", request("GET", `/v1/makers/${encodeURIComponent("ünïcødé€")}/stats`), APP, 400],
  ["raw UTF-8 bytes in the path", request("GET", "/v1/offers/\u00ff\u00fe"), PARSER],
  // Query strings
  ["a repeated parameter, bad first", request("GET", "/v1/offers?limit=abc&limit=5"), APP, 400],
  ["a negative limit", request("GET", "/v1/fills?limit=-1"), APP, 400],
  ["a negative overflowing limit", request("GET", "/v1/offers?limit=-99999999999999999999999999"), APP, 400],
  ["a limit with trailing junk", request("GET", "/v1/offers?limit=200abc"), APP, 400],
  ["an overflowing offset", request("GET", "/v1/offers?offset=1e400"), APP, 400],
  ["a NaN limit", request("GET", "/v1/offers?limit=NaN"), APP, 400],
  ["a bad cursor", request("GET", "/v1/offers?cursor=garbage"), APP, 400],
  ["a cursor of base64 junk", request("GET", `/v1/fills?cursor=${Buffer.from('{"x":1}').toString("base64url")}`), APP, 400],
  ["invalid base58", request("GET", "/v1/offers?maker=0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl"), APP, 400],
  ["a huge value", request("GET", `/v1/fills?tokenMint=${"x".repeat(7000)}`), APP, 400],
  ["percent junk in the query", request("GET", "/v1/offers?limit=%ZZ"), APP, 400],
  ["a NUL in the query", request("GET", "/v1/offers?status=%00"), APP, 400],
  ["an unknown parameter beside a bad one", request("GET", "/v1/offers?colour=blue&side=ask"), APP, 400],
  ["fromTime after toTime", request("GET", "/v1/fills?fromTime=10&toTime=1"), APP, 400],
  ["tokens without mints", request("GET", "/v1/tokens?mints="), APP, 400],
  ["tokens with 101 mints", request("GET", `/v1/tokens?mints=${Array.from({ length: 101 }, (_, i) => addressOf(`m${i}`)).join(",")}`), APP, 400],
  ["a query of bare separators", request("GET", "/v1/offers?&&&=&=&limit=0"), APP, 400],
  // Headers
  ["a header over the parser's limit", request("GET", "/v1/stats", { "x-big": "a".repeat(20_000) }), APP, 431],
  ["a target over the parser's limit", request("GET", `/v1/offers?maker=${"1".repeat(20_000)}`), APP, 414],
  ["a control character in a header", request("GET", "/v1/stats", { "x-bad": "a\u0001b" }), PARSER],
  ["no Host header", `GET /v1/stats HTTP/1.1${CRLF}connection: close${CRLF}${CRLF}`, PARSER, 400],
  ["an unknown HTTP version", `GET /v1/stats HTTP/3.7${CRLF}host: x${CRLF}connection: close${CRLF}${CRLF}`, PARSER],
  ["content-length and transfer-encoding both", request("GET", BAD, { "content-length": "1", "transfer-encoding": "chunked" }, "0\r\n\r\n"), PARSER, 400],
  ["a content-length that is not a number", request("GET", BAD, { "content-length": "abc" }), PARSER, 400],
  ["an expectation nobody meets", request("GET", BAD, { expect: "teapot" }), PARSER, 417],
  ["spoofed forwarding headers", request("GET", BAD, { "x-forwarded-for": "1.2.3.4, , ,junk", "x-real-ip": "::1", forwarded: 'for="[::1]";proto=gopher', "x-forwarded-host": "evil.example" }), APP, 400],
  ["a forwarded-for list of 1,000 hops", request("GET", BAD, { "x-forwarded-for": Array.from({ length: 1000 }, (_, i) => `10.0.${i >> 8}.${i & 255}`).join(",") }), APP, 400],
  ["the launcher's own header, sent by the client", request("GET", BAD, { "x-offer-book-client": "203.0.113.99" }), APP, 400],
  ["an Accept of HTML", request("GET", BAD, { accept: "text/html" }), APP, 400],
  ["an Accept nothing meets", request("GET", BAD, { accept: "application/xml;q=1, */*;q=0" }), APP, 400],
  ["an XML content-type and a body on GET", request("GET", BAD, { "content-type": "application/xml", "content-length": "7" }, "<a></a>"), APP, 400],
  ["a chunked body on GET", request("GET", BAD, { "transfer-encoding": "chunked" }, "5\r\nhello\r\n0\r\n\r\n"), APP, 400],
  ["a junk accept-encoding", request("GET", BAD, { "accept-encoding": "gzip;q=nope, br;q=-1, *;q=2" }), APP, 400],
  ["a range header", request("GET", BAD, { range: "bytes=5-1" }), APP, 400],
  ["a junk if-none-match", request("GET", BAD, { "if-none-match": '"unterminated' }), APP, 400],
  ["an HTTP/1.0 request", `GET ${BAD} HTTP/1.0${CRLF}${CRLF}`, APP, 400],
];

function expectNoLeak(name: string, answer: RawAnswer) {
  expect(answer.body, name).not.toMatch(/\n\s+at |node_modules|webpack|turbopack/i);
}

describe(`${cases.length} kinds of malformed request`, () => {
  it("has at least 40 kinds", () => expect(cases.length).toBeGreaterThanOrEqual(40));

  it.each(cases)("%s", async (name, bytes, expected, status) => {
    const answer = await rawRequest(port, bytes);
    expectNoLeak(name, answer);
    if (answer.status !== undefined) expect(answer.status, `${name}: ${answer.body.slice(0, 200)}`).toBeLessThan(500);
    if (expected === APP) {
      expect(answer.status, `${name}: ${answer.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      if (status) expect(answer.status, name).toBe(status);
      expect(answer.headers["content-type"], name).toMatch(/^application\/json/);
      const body = JSON.parse(answer.body);
      expect(Object.keys(body).filter((k) => !["error", "code", "param"].includes(k)), name).toEqual([]);
      expect(body, name).toEqual(expect.objectContaining({ error: expect.any(String), code: expect.any(String) }));
      if (answer.status === 405) expect(answer.headers.allow, name).toBe("GET, HEAD, OPTIONS");
    } else {
      // Refused before the app: a bare status from Node, or the connection closed.
      if (status) expect(answer.status, name).toBe(status);
      else if (answer.status !== undefined) expect(answer.status, name).toBeGreaterThanOrEqual(400);
    }
  });

  it("a double slash is redirected to the single-slash path, whose answer is the JSON error", async () => {
    const redirect = await rawRequest(port, request("GET", "/v1/makers//stats"));
    expect(redirect.status).toBe(308);
    expect(redirect.headers.location).toBe("/v1/makers/stats");
    const answer = await rawRequest(port, request("GET", redirect.headers.location!));
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toEqual({ error: expect.any(String), code: "not_found" });
  });

  it("still serves after all of them", async () => {
    expect((await server.get("/v1/stats")).status).toBe(200);
  });
});
