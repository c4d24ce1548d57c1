/** Cache policies of the read endpoints, named so each route states its own. */
export const CACHE = {
  stats: "public, max-age=10",
  list: "public, max-age=2",
  offer: "public, max-age=2",
  maker: "public, max-age=5",
  tokens: "public, max-age=300",
  trending: "public, max-age=30",
  none: "no-store",
} as const;

export type CachePolicy = (typeof CACHE)[keyof typeof CACHE];

export const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, HEAD, OPTIONS",
  "access-control-allow-headers": "*",
  "access-control-max-age": "86400",
};

/** A JSON body that is already text (built by PostgreSQL) or a value to stringify. */
export type JsonBody = { text: string } | { value: unknown };

export function jsonResponse(body: JsonBody, status: number, cache: string, extra: Record<string, string> = {}): Response {
  const text = "text" in body ? body.text : JSON.stringify(body.value, bigintReplacer);
  return new Response(text, {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": cache, ...CORS_HEADERS, ...extra },
  });
}

/** Raw amounts leave as decimal strings, never as numbers. */
export function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}
