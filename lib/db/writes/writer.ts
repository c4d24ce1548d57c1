import { getTableColumns, type Column, type Table } from "drizzle-orm";
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

/**
 * Some columns of a table, named by the schema's property names, as a
 * batch statement needs them: `names` for the insert's column list,
 * `definition` for json_to_recordset's (each column with its own SQL type, so
 * amounts are read as numeric), and `row` for one record of the recordset.
 * A statement's columns are then listed once, and its input type (the
 * schema's insert type, picked: see ColumnValues) follows the same list.
 */
export function recordsetColumns<T extends Table, const K extends keyof T["_"]["columns"] & string>(table: T, keys: readonly K[]) {
  const all = getTableColumns(table) as Record<string, Column>;
  const columns = keys.map((key) => all[key]!);
  const columnNames = columns.map((c) => c.name);
  return {
    keys,
    names: columnNames.join(", "),
    /** The names over a row aliased `alias`. */
    of: (alias: string) => columns.map((c) => `${alias}.${c.name}`).join(", "),
    definition: columns.map((c) => `${c.name} ${c.getSQLType()}`).join(", "),
    /**
     * A record keyed by column name: bigints as decimal strings, dates as ISO
     * 8601, absent values null. `extra` (a position, say) comes first: it is
     * the record, filled in and returned, so pass a fresh object. Built by a
     * loop: Object.fromEntries over a mapped array made two arrays per row.
     */
    row(values: Partial<Record<K, unknown>>, extra?: Record<string, unknown>): Record<string, unknown> {
      const record: Record<string, unknown> = extra ?? {};
      for (let i = 0; i < keys.length; i++) record[columnNames[i]!] = jsonValue(values[keys[i]!]);
      return record;
    },
  };
}

/** The values of the columns `K` of table `T`, as the schema types them for an insert. */
export type ColumnValues<T extends Table, K extends keyof T["$inferInsert"]> = Pick<T["$inferInsert"], K>;

function jsonValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) return value.toISOString();
  return value;
}
