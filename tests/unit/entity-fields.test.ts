import { getTableColumns, type Table } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CANDLE_FIELDS } from "../../lib/db/reads/candles";
import type { Fields } from "../../lib/db/reads/fields";
import { FILL_FIELDS, OFFER_FILL_FIELDS } from "../../lib/db/reads/fills";
import { MARKET_FIELDS } from "../../lib/db/reads/markets";
import { OFFER_FIELDS } from "../../lib/db/reads/offers";
import { MAKER_STATS_FIELDS, PROTOCOL_STATS_FIELDS } from "../../lib/db/reads/stats";
import { candles, fills, makerStats, offers, protocolStats } from "../../lib/db/schema";
import { FILL_INSERT, OFFER_INSERT } from "../../lib/db/writes";
import { openApiDocument } from "../../web/http/openapi/document";

// Each /v1 body's fields are declared once, by its read (lib/db/reads/fields.ts);
// the SQL projection, the live feed's payloads and the OpenAPI schemas are
// derived from the declaration. What is not derived is pinned here: a column
// added to a table (lib/db/schema) must be served by a body or named below as
// not served, and be written by the insert or named below as set otherwise,
// so adding it in one place and not the others fails this suite.

const columnNames = (table: Table) => Object.values(getTableColumns(table)).map((c) => c.name);

/** The columns of `table` that some field reads over the row alias `alias`. */
function servedColumns(table: Table, alias: string, fields: Fields): string[] {
  const sql = Object.values(fields)
    .map((f) => f.sql)
    .join("\n");
  return columnNames(table).filter((name) => new RegExp(`\\b${alias}\\.${name}\\b`).test(sql));
}

const sorted = (names: readonly string[]) => [...names].sort();

describe("each table's columns are served by its body, or deliberately not", () => {
  it("offers: the Offer, less the bookkeeping of the rows' history", () => {
    const notServed = [
      "price", // generated from price_per_token and price_scale, for ordering the book
      "lapsed", // the lapse job's flag; status says it from the clock
      "closed_at", // close_offer: the row stays as history
      "created_signature", // the transactions that created, ended and closed the offer, to undo a dropped one
      "ended_signature",
      "closed_signature",
      "created_slot",
      "account_slot", // the account read the row reflects
    ];
    expect(sorted([...servedColumns(offers, "o", OFFER_FIELDS), ...notServed])).toEqual(sorted(columnNames(offers)));
  });

  it("fills: every column is a field of the Fill", () => {
    expect(servedColumns(fills, "o", FILL_FIELDS)).toEqual(columnNames(fills));
  });

  it("candles: the Candle, less the key it is read by and the fills its open and close came from", () => {
    const notServed = ["token_mint", "payment_mint", "resolution", "open_slot", "open_signature", "open_ix_index", "close_slot", "close_signature", "close_ix_index"];
    expect(sorted([...servedColumns(candles, "c", CANDLE_FIELDS), ...notServed])).toEqual(sorted(columnNames(candles)));
  });

  it("protocol_stats and maker_stats: every count is one of the stats' offer counts", () => {
    expect(sorted([...servedColumns(protocolStats, "p", PROTOCOL_STATS_FIELDS), "id"])).toEqual(sorted(columnNames(protocolStats)));
    expect(sorted(servedColumns(makerStats, "m", MAKER_STATS_FIELDS))).toEqual(sorted(columnNames(makerStats)));
  });
});

describe("each table's columns are written by its insert, or set otherwise", () => {
  it("offers: insertOffers writes what create_offer says; later instructions, the lapse job and defaults the rest", () => {
    const setOtherwise = [
      "price", // generated
      "lapsed", // markLapsedOffers
      "closed_at", // closeOffers
      "ended_signature", // endOffers, recordFills
      "closed_signature", // closeOffers
      "indexed_at", // default now()
    ];
    const inserted = OFFER_INSERT.names.split(", ");
    expect(sorted([...inserted, ...setOtherwise])).toEqual(sorted(columnNames(offers)));
  });

  it("fills: recordFills writes the take's columns and copies the rest from the offer", () => {
    const copiedFromOffer = ["maker", "token_mint", "payment_mint", "side"]; // lib/db/writes/fills.ts, recordFills
    const inserted = FILL_INSERT.names.split(", ");
    expect(sorted([...inserted, ...copiedFromOffer])).toEqual(sorted(columnNames(fills)));
  });
});

describe("the OpenAPI document describes each body with its declared fields, in order", () => {
  const schemas = (openApiDocument().components?.schemas ?? {}) as Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
  const bodies: [string, Fields][] = [
    ["Offer", OFFER_FIELDS],
    ["Fill", FILL_FIELDS],
    ["OfferFill", OFFER_FILL_FIELDS],
    ["ProtocolStats", PROTOCOL_STATS_FIELDS],
    ["MakerStats", MAKER_STATS_FIELDS],
    ["Market", MARKET_FIELDS],
    ["Candle", CANDLE_FIELDS],
  ];
  it.each(bodies)("%s", (name, fields) => {
    const schema = schemas[name];
    expect(Object.keys(schema?.properties ?? {})).toEqual(Object.keys(fields));
    expect(schema?.required).toEqual(Object.keys(fields));
  });
});
