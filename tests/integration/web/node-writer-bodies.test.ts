import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeAnswer, SEPARATE_HEAD_BYTES } from "../../../web/http/node-writer";
import { JSON_TYPE, tagBody } from "../../../web/http/response";

// The launcher's writer (web/http/node-writer.ts) over a real node:http
// server: bodies on either side of the size above which the head is written
// apart from the body arrive whole, with their byte length (UTF-8, not
// characters), their ETag, and nothing after them on a kept-alive connection;
// a HEAD carries the length and no body.

/** A JSON array of `bytes` bytes of UTF-8, with a character of two bytes in each element. */
function bodyOf(bytes: number): string {
  const element = '"é-0123456789abcdef",'; // 21 characters, 22 bytes
  const count = Math.floor((bytes - 2) / Buffer.byteLength(element));
  const text = `[${element.repeat(count).slice(0, -1)}]`;
  return text + " ".repeat(bytes - Buffer.byteLength(text));
}

const SIZES = [100, SEPARATE_HEAD_BYTES - 1, SEPARATE_HEAD_BYTES, 300_000];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const { text, etag } = tagBody({ text: bodyOf(Number(req.url!.slice(1))) });
    const answer = { status: 200, headers: { "content-type": JSON_TYPE, etag }, body: text };
    writeAnswer(req, res, answer, { compress: false }).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("a text answer's body", () => {
  it.each(SIZES)("of %i bytes arrives whole, with its byte length and tag", async (bytes) => {
    const expected = tagBody({ text: bodyOf(bytes) });
    // Twice on one kept-alive connection: the first answer's bytes end where its length says.
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${base}/${bytes}`, { headers: { "accept-encoding": "identity" } });
      const received = Buffer.from(await response.arrayBuffer());
      expect(response.status).toBe(200);
      expect(response.headers.get("content-length")).toBe(String(bytes));
      expect(response.headers.get("transfer-encoding")).toBeNull();
      expect(response.headers.get("etag")).toBe(expected.etag);
      expect(received.length).toBe(bytes);
      expect(received.toString("utf8")).toBe(expected.text);
    }
  });

  it.each(SIZES)("of %i bytes is left out of a HEAD, its length given", async (bytes) => {
    const response = await fetch(`${base}/${bytes}`, { method: "HEAD" });
    expect(response.headers.get("content-length")).toBe(String(bytes));
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });
});
