import * as crypto from "node:crypto";

/**
 * Cache policies of the read endpoints, named so each route states its own.
 * `max-age` is what a browser may reuse; `s-maxage` and
 * `stale-while-revalidate` let a CDN serve an answer that is a few seconds
 * old while it fetches the next one, where that staleness is harmless: the
 * book and feeds change by the second but a client polls them anyway, and a
 * 304 on the revalidation (ETag) costs no body. Stats keep the contract's
 * exact `public, max-age=10` (docs/api.md#caching).
 */
export const CACHE = {
  stats: "public, max-age=10",
  list: "public, max-age=2, s-maxage=2, stale-while-revalidate=5",
  offer: "public, max-age=2, s-maxage=2, stale-while-revalidate=5",
  maker: "public, max-age=5, s-maxage=5, stale-while-revalidate=10",
  markets: "public, max-age=5, s-maxage=5, stale-while-revalidate=10",
  // A closed candle never changes; the newest one changes with each fill.
  candles: "public, max-age=5, s-maxage=5, stale-while-revalidate=30",
  tokens: "public, max-age=60, s-maxage=300, stale-while-revalidate=600",
  trending: "public, max-age=30, s-maxage=30, stale-while-revalidate=60",
  // The endpoint list and the OpenAPI document change only with a deploy.
  index: "public, max-age=300, s-maxage=300, stale-while-revalidate=3600",
  none: "no-store",
} as const;

export type CachePolicy = (typeof CACHE)[keyof typeof CACHE];

/**
 * Every answer may be read from any origin, and a script on another origin
 * may read the headers it needs to revalidate and to pace itself (a browser
 * hides all but a few "safelisted" ones otherwise). The rest of CORS (methods,
 * request headers, how long to cache the grant) is read only from a preflight
 * answer, so it is sent there alone.
 */
export const CORS_ORIGIN = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "etag, retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset, ratelimit-policy",
} as const;

/** The methods every /v1 route answers: the API is read-only. */
export const ALLOW = "GET, HEAD, OPTIONS";

export const CORS_PREFLIGHT_HEADERS: Record<string, string> = {
  ...CORS_ORIGIN,
  "access-control-allow-methods": ALLOW,
  "access-control-allow-headers": "*",
  "access-control-max-age": "86400",
};

/**
 * A JSON body as it is sent, and its strong ETag, made once per body (a
 * constant document's once per process: taggedBody). The text itself, or
 * its UTF-8 bytes when it is large (LARGE_BODY_CHARS).
 */
export interface TaggedBody {
  body: string | Buffer;
  etag: string;
}

/**
 * From this many characters a body is encoded to UTF-8 once, hashed and sent
 * as those bytes. A text body is encoded twice (once for its SHA-1, once as
 * node:http writes it), and node:http joins the head to a string body in one
 * write: above some 128 KB that string is a large object of its own per
 * request. A Buffer goes as a second chunk of the same write. A loop at 8
 * connections, server CPU a request (2026-11-26, load 6): 200 KB 1,560-1,800
 * µs as text against 1,040-1,430 as bytes, 150 KB 1,200-1,310 against
 * 840-1,030; no difference found at 2-100 KB, where text stays (one write,
 * no Buffer made). docs/benchmarks-api.md, session 15.
 */
export const LARGE_BODY_CHARS = 64 * 1024;

/**
 * A JSON body: text (built by PostgreSQL), a value to stringify, or a
 * constant document already tagged (the endpoint list, the OpenAPI document).
 */
export type JsonBody = { text: string } | { value: unknown } | { tagged: TaggedBody };

export const JSON_TYPE = "application/json; charset=utf-8";

/**
 * A body's text with its tag, hashed once: per answer, or once per process
 * for a constant document an endpoint returns as `{ tagged }`. A large text
 * is encoded once and both hashed and sent as those bytes; a smaller one is
 * hashed as the string it is (node:http encodes it once more as it writes it).
 */
export function taggedBody(text: string): TaggedBody {
  if (text.length < LARGE_BODY_CHARS) return { body: text, etag: strongEtag(text) };
  const bytes = Buffer.from(text, "utf8");
  return { body: bytes, etag: strongEtag(bytes) };
}

/** The body as it is sent, and its tag; `tag` tags a text (web/http/body-memo.ts reuses an unchanged one's). */
export function tagBody(body: JsonBody, tag: (text: string) => TaggedBody = taggedBody): TaggedBody {
  if ("tagged" in body) return body.tagged;
  return tag("text" in body ? body.text : jsonText(body.value));
}

/**
 * A value's JSON, bigints as decimal strings. Without a replacer first:
 * a replacer is called for every key and takes V8's serializer off its fast
 * path, which made a week of CoinGecko trades (113 KB) some 10 ms of CPU
 * where it is 1; a bigint makes JSON.stringify throw, and only then is the
 * value written again with the replacer.
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(value, bigintReplacer);
  }
}

// One call (Node 20.12+), without a Hash object per body: some 1-2 µs less a request on a small body.
const sha1 =
  typeof crypto.hash === "function"
    ? (data: string | Uint8Array) => crypto.hash("sha1", data, "base64url")
    : (data: string | Uint8Array) => crypto.createHash("sha1").update(data).digest("base64url");

/** A strong validator: the SHA-1 of the exact bytes sent (a string's UTF-8, before any content coding), quoted. */
export function strongEtag(data: string | Uint8Array): string {
  return `"${sha1(data)}"`;
}

/** A content coding's mark on a strong tag: `"abc"` sent gzipped is `"abc-gzip"` (web/http/encoding-etag.ts). */
const CODED_TAG = /-(?:gzip|deflate|br)"$/;

/** The tag of the identity body that `tag` (any coding's form, weak or strong) stands for. */
export function identityTag(tag: string): string {
  const strong = tag.startsWith("W/") ? tag.slice(2) : tag;
  return CODED_TAG.test(strong) ? strong.replace(CODED_TAG, '"') : strong;
}

/**
 * Whether If-None-Match names this entity: `*`, or one of its comma-separated
 * tags by the weak comparison RFC 9110 prescribes for it (W/ ignored), in the
 * form of any content coding it was sent in (each coding's body has its own
 * tag, all of one resource state).
 */
export function ifNoneMatchHits(header: string | null, etag: string): boolean {
  if (header === null) return false;
  for (const raw of header.split(",")) {
    const tag = raw.trim();
    if (tag === "*" || tag === etag || identityTag(tag) === etag) return true;
  }
  return false;
}

/** Raw amounts leave as decimal strings, never as numbers. */
export function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

/**
 * The origin the client asked for: its Host header (the proxy's forwarded host
 * and protocol when the proxy is trusted), not the server's own idea of it.
 */
export function requestOrigin(request: { headers: { get(name: string): string | null } }, url: URL, trustProxy: boolean): string {
  const forwardedHost = trustProxy ? request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  const forwardedProto = trustProxy ? request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() : undefined;
  const host = forwardedHost || request.headers.get("host") || url.host;
  return `${forwardedProto || url.protocol.replace(":", "")}://${host}`;
}

/** A relative image path (the app's own placeholder) made absolute on the origin that was asked. */
export const onOrigin =
  (origin: string) =>
  <T extends { imageUrl: string }>(item: T): T =>
    item.imageUrl.startsWith("/") ? { ...item, imageUrl: `${origin}${item.imageUrl}` } : item;
