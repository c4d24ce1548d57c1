import bs58 from "bs58";
import { z } from "zod";
import { OFFER_STATUSES } from "../../lib/offer-status";
import { BASE58_ADDRESS } from "../../lib/program/constants";
import { OFFER_SIDES } from "../../lib/program/offer-account";
import { ApiError } from "./errors";

// Query and path parameters as docs/api.md#paging-and-order fixes them. Each schema's
// message is the one the client reads, so it names the rule, not the parser.

const decodesTo32Bytes = (value: string): boolean => {
  try {
    return bs58.decode(value).length === 32;
  } catch {
    return false;
  }
};

// The document's pattern (lib/program/constants.ts); the server also decodes it.
export { BASE58_ADDRESS };

export const address = (what: string) =>
  z
    .string()
    .refine(decodesTo32Bytes, { message: `${what} must be a base58 address of 32 bytes` })
    .meta({
      description: "A base58 address of 32 bytes",
      example: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
      override: { type: "string", pattern: `^${BASE58_ADDRESS}$`, minLength: 32, maxLength: 44 },
    });

/**
 * The longest value any query parameter can have: Node's parser refuses a
 * request line over 16 KB (--max-http-header-size) before the server reads it
 * (414, web/http/client-error.ts). The document states it where the server
 * sets no tighter length of its own.
 */
export const MAX_QUERY_VALUE = 16_384;

/**
 * How the document states an integer parameter: an integer within bounds. On
 * the wire it is a query string all the same; the server reads it as decimal
 * digits (a sign allowed), so `1e3` or `5.0` are refused as the document's
 * integer type refuses them. A limit clamps rather than refuses: its
 * documented maximum is the largest safe integer (the server also clamps
 * larger ones, which no client has reason to send).
 */
export const documentedInteger = (minimum: number, maximum = Number.MAX_SAFE_INTEGER) => ({
  override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
    for (const key of Object.keys(jsonSchema)) if (!["description", "example", "default"].includes(key)) delete jsonSchema[key];
    Object.assign(jsonSchema, { type: "integer", format: "int64", minimum, maximum });
    if (typeof jsonSchema.example === "string") jsonSchema.example = Number(jsonSchema.example);
    if (typeof jsonSchema.default === "string") jsonSchema.default = Number(jsonSchema.default);
  },
});

const integerString = /^-?\d+$/;
const integer = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(integerString, { message: `${name} must be an integer from ${min} to ${max}` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { message: `${name} must be an integer from ${min} to ${max}` });

export const MAX_LIMIT = 200;
export const DEFAULT_LIMIT = 50;
export const MAX_OFFSET = 100_000;

/**
 * A clamped count parameter: an integer of 1 or more, above `max` answered as
 * `max`, up to the largest safe integer (the document's maximum); past that
 * it is refused, as the document refuses it.
 */
export const clampedCount = (name: string, max: number, fallback: number, description: string) => {
  const message = `${name} must be an integer from 1 to ${max} (larger ones, up to ${Number.MAX_SAFE_INTEGER}, are clamped)`;
  return z
    .string()
    .regex(integerString, { message })
    .transform(Number)
    .refine((n) => n >= 1 && n <= Number.MAX_SAFE_INTEGER, { message })
    .transform((n) => Math.min(n, max))
    .default(fallback)
    .meta({ description: `${description}, 1 or more (above ${max} is clamped to ${max}); default ${fallback}`, example: String(fallback), ...documentedInteger(1) });
};

/** limit: integer >= 1, clamped to 200. */
export const limit = clampedCount("limit", MAX_LIMIT, DEFAULT_LIMIT, "Rows per page");

export const offset = integer("offset", 0, MAX_OFFSET)
  .default(0)
  .meta({ description: `Rows to skip, 0 to ${MAX_OFFSET}; not with cursor`, example: "0", ...documentedInteger(0, MAX_OFFSET) });

export { OFFER_STATUSES, type OfferStatus, type Side } from "../../lib/offer-status";
export const status = z.enum(OFFER_STATUSES, { message: `status must be one of ${OFFER_STATUSES.join(", ")}` });

export const side = z.enum(OFFER_SIDES, { message: "side must be sell or buy" });

/** Unix seconds; large enough for any timestamptz PostgreSQL accepts. */
export const unixSeconds = (name: string) =>
  integer(name, 0, MAX_UNIX_SECONDS).meta({ description: "Unix seconds, inclusive", example: "1780617600", ...documentedInteger(0, MAX_UNIX_SECONDS) });

export const MAX_UNIX_SECONDS = 253_402_300_799;

export const cursor = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,200}$/, { message: "cursor must be a nextCursor value from an earlier page" })
  .meta({ description: "Extension: the nextCursor of an earlier page, to continue after its last row", maxLength: 200 });

/**
 * Parses the query against a schema of the parameters a route reads; other
 * parameters are ignored. The first failure becomes a 400 naming the parameter.
 * The schema is built once per route: zod compiles an object schema's parser
 * on its first use, which costs about 80 µs, so a schema made per request
 * would pay that on every request.
 */
export function parseQuery<S extends z.ZodRawShape>(url: URL, schema: z.ZodObject<S>): z.infer<z.ZodObject<S>> {
  const raw: Record<string, string> = {};
  const query = url.searchParams;
  for (const key in schema.shape) {
    const value = query.get(key);
    // An empty value is treated as absent, as most HTML forms send one.
    if (value !== null && value !== "") raw[key] = value;
  }
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const param = String(issue?.path[0] ?? "query");
  // A required parameter left out (or empty) is missing, not invalid.
  if (!(param in raw)) throw new ApiError("missing_parameter", `${param} is required`, param);
  throw new ApiError("invalid_parameter", issue?.message ?? `${param} is invalid`, param);
}

/** Validates one path segment. */
export function parsePathParam<T>(name: string, value: string, schema: z.ZodType<T>): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ApiError("invalid_parameter", result.error.issues[0]?.message ?? `${name} is invalid`, name);
}
