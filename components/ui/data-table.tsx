import type { HTMLAttributes, ReactNode } from "react";
import { td, tdRight, th, thRight } from "./panel";

// The one way the explorer draws a data table's rows: a table is a list of
// columns (header and cell), so the fills, trades and offers tables differ
// only in which columns they list (../fills/fill-columns.tsx,
// ../offers/offer-columns.tsx), never in how a row is drawn.

export interface Column<T> {
  /** The header, with its unit where it has one. */
  header: ReactNode;
  /** Figures: right-aligned. */
  numeric?: boolean;
  /** More classes for the column's cells (muted, say). */
  className?: string;
  /** The cell's data-col, which tests read. */
  id?: string;
  cell(row: T): ReactNode;
}

type RowAttributes = HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | undefined>;

export function DataTable<T>({
  columns,
  rows,
  rowKey,
  rowProps,
  testId,
}: {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey(row: T): string;
  rowProps?(row: T): RowAttributes;
  testId?: string;
}) {
  return (
    <table className="w-full text-sm" data-testid={testId}>
      <thead className="border-b border-line">
        <tr>
          {columns.map((c, i) => (
            <th key={i} className={c.numeric ? thRight : th}>
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-line">
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowProps?.(row)}>
            {columns.map((c, i) => (
              <td key={i} className={`${c.numeric ? tdRight : td}${c.className ? ` ${c.className}` : ""}`} data-col={c.id}>
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
