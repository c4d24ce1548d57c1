import type postgres from "postgres";

// CSV exports (docs/api.md#csv-exports): the rows of a list, every one its
// filters select, read through a server-side cursor a batch at a time, so an
// export of a year holds one batch in memory, never the whole answer.

/** Rows fetched per round trip: large enough to amortise it, small enough to stay flat. */
export const CSV_BATCH_ROWS = 1000;

/** One CSV cell (RFC 4180): quoted only when it holds a comma, a quote or a line break; null is empty. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The CSV text of the query's rows, a header row of `columns` first, then one
 * line per row (CRLF), yielded one batch at a time. The query (built by
 * `query` on the connection it runs on) selects at least the columns named
 * (by the fields' keys); the values are the API's own renderings (decimal
 * strings for amounts, ISO times).
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
  columns: readonly string[],
): AsyncGenerator<string> {
  yield `${columns.join(",")}\r\n`;
  const tx = await sql.reserve();
  let open = false;
  try {
    await tx`begin read only`;
    open = true;
    await tx`set local statement_timeout = 0`;
    for await (const rows of query(tx).cursor(CSV_BATCH_ROWS)) {
      let chunk = "";
      for (const row of rows) chunk += `${columns.map((c) => csvCell(row[c])).join(",")}\r\n`;
      yield chunk;
    }
    await tx`commit`;
    open = false;
  } finally {
    if (open) await tx`rollback`.catch(() => {});
    tx.release();
  }
}
