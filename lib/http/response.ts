/** Cache policies of the read endpoints, named so each route states its own. */
export const CACHE = {
  stats: "public, max-age=10",
  list: "public, max-age=2",
  offer: "public, max-age=2",
  maker: "public, max-age=5",
  tokens: "public, max-age=60",
  index: "public, max-age=300",
  trending: "public, max-age=30",
  none: "no-store",
} as const;

export type CachePolicy = (typeof CACHE)[keyof typeof CACHE];

/**
 * Every answer may be read from any origin. The rest of CORS (methods, request
 * headers, how long to cache the grant) is read only from a preflight answer,
 * so it is sent there alone.
 */
export const CORS_ORIGIN = { "access-control-allow-origin": "*" } as const;

export const CORS_PREFLIGHT_HEADERS: Record<string, string> = {
  ...CORS_ORIGIN,
  "access-control-allow-methods": "GET, HEAD, OPTIONS",
  "access-control-allow-headers": "*",
  "access-control-max-age": "86400",
};

/** A JSON body that is already text (built by PostgreSQL) or a value to stringify. */
export type JsonBody = { text: string } | { value: unknown };

const JSON_TYPE = "application/json; charset=utf-8";

export function jsonResponse(body: JsonBody, status: number, cache: string, extra?: Record<string, string>): Response {
  const text = "text" in body ? body.text : JSON.stringify(body.value, bigintReplacer);
  const headers = { "content-type": JSON_TYPE, "cache-control": cache, ...CORS_ORIGIN };
  return new Response(text, { status, headers: extra ? { ...headers, ...extra } : headers });
}

/** Raw amounts leave as decimal strings, never as numbers. */
export function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

/**
 * The origin the client asked for: its Host header (the proxy's forwarded host
 * and protocol when the proxy is trusted), not the server's own idea of it.
 */
export function requestOrigin(request: Request, url: URL, trustProxy: boolean): string {
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
