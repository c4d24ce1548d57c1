import type postgres from "postgres";
import type { FieldKind, Fields } from "./fields";

// CSV exports (docs/api.md#csv-exports): the rows of a list, every one its
// filters select, read through a server-side cursor a batch at a time, so an
// export of a year holds one batch in memory, never the whole answer.
//
// PostgreSQL renders each row's line (csvLine) and the driver hands it over
// as the bytes it arrived in (a raw query), so a batch is one copy of its
// lines into one buffer. Rendered in JavaScript (a row object, a string per
// value, a cell per value, the joins), a 30,000-row export allocated some
// 76 MB of short-lived objects for its 11 MB of text, and the collector was
// most of its CPU (docs/benchmarks-api.md, session 22).

/** Rows fetched per round trip: large enough to amortise it, small enough to stay flat. */
export const CSV_BATCH_ROWS = 1000;

/**
 * Kinds rendered from numbers, times or fixed words, whose text never holds a
 * comma, a quote or a line break: a cell is the value as it is.
 */
const PLAIN_KINDS: ReadonlySet<FieldKind> = new Set<FieldKind>(["amount", "slot", "time", "unixTime", "uint", "price", "decimal", "makerWindow", "side", "offerStatus", "tradeRole"]);

/**
 * Kinds read from text columns (base58 as the chain gives it, but a text
 * column holds what it is given): quoted as RFC 4180 asks when the text holds
 * a comma, a quote or a line break. A nested object or a map has no cell.
 */
const TEXT_KINDS: ReadonlySet<FieldKind> = new Set<FieldKind>(["address", "signature"]);

const quoted = (text: string) => `(case when ${text} ~ E'[",\\r\\n]' then '"' || replace(${text}, '"', '""') || '"' else ${text} end)`;

/**
 * The SQL of one CSV line of `fields` (their values rendered as the JSON's,
 * comma-separated, CRLF-terminated), over the same row as their projection:
 * a null is an empty cell.
 */
export function csvLine(fields: Fields): string {
  const cells = Object.entries(fields).map(([key, f]) => {
    if (!PLAIN_KINDS.has(f.kind) && !TEXT_KINDS.has(f.kind)) throw new Error(`the CSV export has no cell for ${key}, a field of kind ${f.kind}`);
    const text = TEXT_KINDS.has(f.kind) ? quoted(`(${f.sql})`) : `(${f.sql})::text`;
    return f.nullable ? `coalesce(${text}, '')` : text;
  });
  return `${cells.join(" || ',' || ")} || E'\\r\\n'`;
}

/** The header row of `fields`: their keys. */
export const csvHeader = (fields: Fields): string => `${Object.keys(fields).join(",")}\r\n`;

/**
 * The export's bytes, the header row first, then one chunk per cursor batch
 * of the query's rows, whose first column is the row's csvLine.
 *
 * The cursor runs in a read-only transaction of its own connection with no
 * statement timeout: the request's bound (10 s, web/services.ts) spans the
 * whole cursor, and cut a year's export after 10 s (bench:csv, 2026-11-26).
 * What bounds an export is its rows and its client: a client that goes
 * closes this generator, and with it the cursor and the transaction.
 */
export async function* csvLines(
  sql: postgres.Sql,
  query: (tx: postgres.Sql) => postgres.PendingQuery<postgres.Row[]>,
  header: string,
): AsyncGenerator<Buffer> {
  yield Buffer.from(header);
  const tx = await sql.reserve();
  let open = false;
  try {
    await tx`begin read only`;
    open = true;
    await tx`set local statement_timeout = 0`;
    for await (const rows of query(tx).raw().cursor(CSV_BATCH_ROWS)) {
      yield Buffer.concat(rows.map((row) => row[0] as Buffer));
    }
    await tx`commit`;
    open = false;
  } finally {
    if (open) await tx`rollback`.catch(() => {});
    tx.release();
  }
}
