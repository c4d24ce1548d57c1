import { describe, expect, it } from "vitest";
import { bigintReplacer, jsonText, LARGE_BODY_CHARS, strongEtag, tagBody } from "../../web/http/response";

// A handler's value written as JSON (web/http/response.ts): raw amounts that
// are bigints leave as decimal strings, whether or not the value holds one
// (only a value holding one takes the replacer's slow path).

describe("jsonText", () => {
  it("writes a value without bigints as JSON.stringify does", () => {
    const value = { pair: { id: "a:b", feeBps: 20, createdAtTxnId: "" }, list: [1, "2", null, { x: true }] };
    expect(jsonText(value)).toBe(JSON.stringify(value));
  });

  it("writes bigints, however deep, as decimal strings", () => {
    const value = { amount: 12345678901234567890n, nested: [{ fee: -5n, n: 1 }] };
    expect(jsonText(value)).toBe('{"amount":"12345678901234567890","nested":[{"fee":"-5","n":1}]}');
    expect(jsonText(value)).toBe(JSON.stringify(value, bigintReplacer));
  });

  it("still fails on what JSON cannot hold", () => {
    const cycle: Record<string, unknown> = { amount: 1n };
    cycle.self = cycle;
    expect(() => jsonText(cycle)).toThrow(TypeError);
  });

  it("is the text the ETag is the SHA-1 of", () => {
    const body = tagBody({ value: { amount: 7n } });
    expect(body).toEqual({ body: '{"amount":"7"}', etag: strongEtag('{"amount":"7"}') });
  });

  it("sends a large body as its UTF-8 bytes, tagged as the same text would be", () => {
    const text = JSON.stringify({ rows: Array.from({ length: LARGE_BODY_CHARS / 4 }, (_, i) => `é${i}`) });
    const body = tagBody({ text });
    expect(Buffer.isBuffer(body.body)).toBe(true);
    expect((body.body as Buffer).toString("utf8")).toBe(text);
    expect(body.etag).toBe(strongEtag(text));
  });
});
