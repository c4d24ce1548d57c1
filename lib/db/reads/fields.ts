import { getTableColumns, type Table } from "drizzle-orm";

// Each /v1 body's fields are declared once, by the read that serves them
// (OFFER_FIELDS in ./offers.ts, FILL_FIELDS in ./fills.ts, MARKET_FIELDS,
// the stats and CANDLE_FIELDS), in contract order: each key, its kind, and
// the SQL that gives its value from the read's rows. From that one list
// PostgreSQL builds the JSON (jsonObject, projection below), the live feed
// renders its payloads (lib/db/writes/feed.ts) and the OpenAPI document gives
// each field its schema by kind (web/http/openapi/response-schemas.ts);
// tests/unit/entity-fields.test.ts pins the tables' columns and the writes'
// column lists to it.

/**
 * What a field's JSON value is. The kind fixes how PostgreSQL renders a
 * column into it, so each rule is written here once: raw amounts and slots
 * as decimal strings (exact beyond 2^53), times as ISO 8601 UTC with
 * milliseconds as JavaScript's toISOString writes them, prices as exact
 * decimals without trailing zeros.
 */
export type FieldKind =
  /** A base58 address. */
  | "address"
  /** A base58 transaction signature. */
  | "signature"
  /** A raw u64 amount, or a sum of them: a decimal string. */
  | "amount"
  /** A slot: a decimal string. */
  | "slot"
  /** ISO 8601 UTC with milliseconds. */
  | "time"
  /** Unix seconds, a JSON number. */
  | "unixTime"
  /** A non-negative integer (a count, a position, a scale), a JSON number. */
  | "uint"
  /** An exact decimal price, no trailing zeros, as a string. */
  | "price"
  /** A non-negative decimal (a ratio, a median), no trailing zeros, as a string; its field says how it is rounded. */
  | "decimal"
  /** A makers' window: 24h, 7d, 30d or all. */
  | "makerWindow"
  /** The offer's side: sell or buy. */
  | "side"
  /** The API status of an offer (lib/offer-status.ts). */
  | "offerStatus"
  /** A wallet's part in a fill: maker, taker, or both (it took its own offer). */
  | "tradeRole"
  /** Raw amounts keyed by mint: a JSON object its own SQL builds. */
  | "mintMap"
  /** A nested object of the fields `fields`. */
  | "object";

export interface Field {
  readonly kind: FieldKind;
  /** The SQL expression of the field's JSON value. */
  readonly sql: string;
  /** Whether the value may be null. */
  readonly nullable: boolean;
  /** A nested object's own fields (kind "object"). */
  readonly fields?: Fields;
}

/** A body's fields by key, in the order the body has them. */
export type Fields = Readonly<Record<string, Field>>;

/**
 * A decimal × 10^places (an int expression), exact in numeric, as
 * lib/program/decimal.ts's shiftDecimal writes it (no trailing zeros, no
 * exponent): raw units to whole tokens where PostgreSQL writes the body
 * (tests/integration/api/candle-chart.test.ts pins the two, byte for byte).
 */
export const shiftedDecimal = (value: string, places: string) => `trim_scale((${value})::numeric * ('1e' || (${places})::int)::numeric)::text`;

export const isoUtc = (expression: string) => `to_char(${expression} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const asIs = (expression: string) => expression;

const RENDER: Record<FieldKind, (expression: string) => string> = {
  address: asIs,
  signature: asIs,
  amount: (e) => `${e}::text`,
  slot: (e) => `${e}::text`,
  time: isoUtc,
  unixTime: (e) => `extract(epoch from ${e})::bigint`,
  uint: asIs,
  price: (e) => `trim_scale(${e})::text`,
  decimal: (e) => `trim_scale(${e})::text`,
  makerWindow: asIs,
  side: asIs,
  offerStatus: asIs,
  tradeRole: asIs,
  mintMap: asIs,
  object: asIs,
};

/** A field of `kind` whose value is `expression` (a column, or any SQL of that column's type), rendered as the kind is served. */
export function field(kind: Exclude<FieldKind, "object">, expression: string, { nullable = false } = {}): Field {
  return { kind, sql: RENDER[kind](expression), nullable };
}

/** A nested object of `fields`, whose JSON `expression` builds (with jsonObject, or row_to_json over projection). */
export function objectField(fields: Fields, expression: string, { nullable = false } = {}): Field {
  return { kind: "object", sql: expression, nullable, fields };
}

/**
 * The columns of a drizzle table as SQL over a row aliased `alias`, by the
 * schema's property names (`columnsOf(offers, "o").tokenMint` is
 * "o.token_mint"), so a field names its column through the schema.
 */
export function columnsOf<T extends Table>(table: T, alias: string): { readonly [K in keyof T["_"]["columns"]]: string } {
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => [key, `${alias}.${column.name}`]);
  return Object.fromEntries(columns) as { [K in keyof T["_"]["columns"]]: string };
}

/** The select list that names each field's value by its key: `<sql> as "<key>"`, in the fields' order. */
export function projection(fields: Fields): string {
  return Object.entries(fields)
    .map(([key, f]) => `${f.sql} as "${key}"`)
    .join(",\n  ");
}

/**
 * A json expression of the fields, keys in their order. row_to_json over a
 * projection writes compact JSON, unlike json_build_object. The row's alias is
 * snake_case so that no (camelCase) key can shadow it.
 */
export function jsonObject(fields: Fields): string {
  return `(select row_to_json(json_fields) from (select\n  ${projection(fields)}) json_fields)`;
}

/** The fields of `keys`, in that order. */
export function pickFields<F extends Fields, K extends keyof F & string>(fields: F, keys: readonly K[]): Pick<F, K> {
  return Object.fromEntries(keys.map((key) => [key, fields[key]])) as Pick<F, K>;
}
