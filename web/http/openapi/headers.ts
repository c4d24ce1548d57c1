import { z } from "zod";
import "zod-openapi";
import { CORS_ORIGIN } from "../response";

// The response headers of /v1 as the document states them (names are
// case-insensitive on the wire; the server sends them in lower case): every answer's
// CORS, the request budget's RateLimit on every answer the budget counted
// (errors included), the validator and cache policy on what can be cached.

const seconds = z.number().int().min(0).max(86_400);

const cors = {
  "Access-Control-Allow-Origin": z.literal(CORS_ORIGIN["access-control-allow-origin"]).meta({ description: "Any origin may read the answer" }),
  "Access-Control-Expose-Headers": z
    .literal(CORS_ORIGIN["access-control-expose-headers"])
    .meta({ description: "The headers a script on another origin may read" }),
};

/**
 * The budget's headers. Optional on errors: a request refused before it
 * reaches a route (a request target or method the launcher refuses, or a
 * budget whose store is down) spends nothing and carries none.
 */
const rateLimit = {
  "RateLimit-Limit": z.number().int().min(1).max(1_000_000).meta({ description: "Requests allowed per window", example: 1200 }),
  "RateLimit-Remaining": z.number().int().min(0).max(1_000_000).meta({ description: "Requests left in this window", example: 1187 }),
  "RateLimit-Reset": seconds.meta({ description: "Seconds until the window refills; a 429's retry-after", example: 42 }),
  "RateLimit-Policy": z
    .string()
    .regex(/^\d+;w=\d+$/)
    .max(32)
    .meta({ description: "The budget: requests;w=window seconds", example: "1200;w=60" }),
};

const optional = <T extends Record<string, z.ZodType>>(shape: T) =>
  Object.fromEntries(Object.entries(shape).map(([name, schema]) => [name, schema.optional()])) as { [K in keyof T]: z.ZodOptional<T[K]> };

const cacheControl = z
  .string()
  .regex(/^[a-z0-9=, -]+$/)
  .max(100)
  .meta({ description: "The answer's cache policy", example: "public, max-age=2, s-maxage=2, stale-while-revalidate=5" });

const etag = z
  .string()
  .regex(/^"[A-Za-z0-9_-]{27}(-gzip|-deflate|-br)?"$/)
  .max(40)
  .meta({
    description:
      "A strong validator of the body; send it back as If-None-Match. A compressed body has its own tag, the identity tag with the coding appended inside the quotes (`\"…-gzip\"`); If-None-Match matches either form",
    example: '"w0mcJylzCn-AfvuGdqkty2-KP48"',
  });

/** A 200 or 304 of a cacheable read. */
export const okHeaders = z.object({ ETag: etag, "Cache-Control": cacheControl, ...rateLimit, ...cors });

/** The event stream's 200: no validator, never cached. */
export const streamHeaders = z.object({ "Cache-Control": z.literal("no-cache, no-transform"), ...rateLimit, ...cors });

const retryAfter = seconds.meta({ description: "Seconds to wait before retrying", example: 5 });
const allow = z.literal("GET, HEAD, OPTIONS").meta({ description: "The methods every /v1 route answers" });

/** The headers of an error answer with this status. */
export function errorHeaders(status: number) {
  return z.object({
    "Cache-Control": z.literal("no-store"),
    ...(status === 429 ? rateLimit : optional(rateLimit)),
    ...cors,
    ...(status === 429 || status === 503 || status === 502 ? { "Retry-After": retryAfter } : {}),
    ...(status === 405 ? { Allow: allow } : {}),
  });
}
