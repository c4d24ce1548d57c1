import type postgres from "postgres";

/**
 * What the store writes through: the postgres.js client or a transaction on
 * it. Store functions return the query without awaiting it, so a caller can
 * await it alone or pipeline many, in order, inside one transaction
 * (`sql.begin(tx => [...])`).
 */
export type Writer = postgres.Sql | postgres.TransactionSql;
export type Pending<T extends readonly object[] = postgres.Row[]> = postgres.PendingQuery<T>;

/**
 * Many rows as one parameter, for `json_to_recordset`: a statement of fixed
 * text (prepared once) writes a whole batch. Amounts travel as decimal
 * strings and are read as numeric, so no digit is lost.
 */
export function recordset(rows: readonly object[]): string {
  return JSON.stringify(rows);
}

/** Runs `fn` in the caller's transaction, or in a transaction of its own when given the pool. */
export function inTransaction<T>(sql: Writer, fn: (tx: postgres.TransactionSql) => Promise<T>): Promise<T> {
  if ("savepoint" in sql) return fn(sql as postgres.TransactionSql);
  return (sql as postgres.Sql).begin(fn) as Promise<T>;
}
