import { describe, expect, it } from "vitest";
import { BodyTagMemo } from "../../web/http/body-memo";
import { LARGE_BODY_CHARS, strongEtag, taggedBody } from "../../web/http/response";

// The last sizeable body per URL, as bytes, and its tag (web/http/body-memo.ts):
// an unchanged text reuses them, any other text is tagged afresh, so the tag
// is always the SHA-1 of the bytes sent.

const text = (n: number, fill = "a") => JSON.stringify({ rows: fill.repeat(n) });

describe("BodyTagMemo", () => {
  it("reuses the tag and the bytes of an unchanged body, made again as another string", () => {
    const memo = new BodyTagMemo(1024);
    const first = memo.tag("/v1/coingecko/tickers", text(LARGE_BODY_CHARS));
    const again = memo.tag("/v1/coingecko/tickers", text(LARGE_BODY_CHARS));
    expect(again).toBe(first);
    expect(again).toEqual(taggedBody(text(LARGE_BODY_CHARS)));
  });

  it("tags a changed body afresh, and keeps one entry per URL", () => {
    const memo = new BodyTagMemo(1024);
    memo.tag("/v1/markets", text(2000));
    const changed = memo.tag("/v1/markets", text(2000, "b"));
    expect(changed.etag).toBe(strongEtag(text(2000, "b")));
    expect(memo.tag("/v1/markets", text(2000, "b"))).toBe(changed);
    expect(memo.tag("/v1/other", text(2000, "b"))).not.toBe(changed);
  });

  it("sends a sizeable body as its UTF-8, and tells a text from one that differs only past its bytes", () => {
    const memo = new BodyTagMemo(1024);
    const accented = JSON.stringify({ rows: "é".repeat(2000) });
    const first = memo.tag("/v1/x", accented);
    expect(first.body).toEqual(Buffer.from(accented, "utf8"));
    expect(first.etag).toBe(strongEtag(accented));
    expect(memo.tag("/v1/x", JSON.stringify({ rows: "é".repeat(2000) }))).toBe(first);
    // As many UTF-16 units but one byte more (€ for é), the same bytes and one more, and one byte fewer.
    for (const other of [`${accented.slice(0, -3)}€"}`, `${accented} `, accented.replace("é", "e")]) {
      const tagged = memo.tag("/v1/x", other);
      expect(tagged.etag).toBe(strongEtag(other));
      expect(tagged.body).toEqual(Buffer.from(other, "utf8"));
    }
  });

  it("tags a small body afresh every time, as it did without the memo", () => {
    const memo = new BodyTagMemo(1024);
    const small = text(100);
    expect(memo.tag("/v1/stats", small)).toEqual({ body: small, etag: strongEtag(small) });
    expect(memo.tag("/v1/stats", small)).not.toBe(memo.tag("/v1/stats", small));
  });

  it("lets the oldest URL go when it holds more than its bound", () => {
    const memo = new BodyTagMemo(1024, 20_000);
    const oldest = memo.tag("/a", text(2000));
    memo.tag("/b", text(2000));
    expect(memo.tag("/a", text(2000))).toBe(oldest); // /a is now the newest
    for (let i = 0; i < 10; i++) memo.tag(`/fill-${i}`, text(2000));
    expect(memo.tag("/a", text(2000))).not.toBe(oldest);
  });
});
