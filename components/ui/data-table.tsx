import { memo, type HTMLAttributes, type ReactElement, type ReactNode } from "react";
import { td, tdRight, th, thRight } from "./panel";

// The one way the explorer draws a data table's rows: a table is a list of
// columns (header and cell), so the fills, trades and offers tables differ
// only in which columns they list (../fills/fill-columns.tsx,
// ../offers/offer-columns.tsx), never in how a row is drawn. A row draws
// again only when its row object, the columns (keep them one array) or its
// attributes change, so a live list's new row leaves the others alone.

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
          <Row key={rowKey(row)} row={row} columns={columns} attributes={rowProps?.(row)} />
        ))}
      </tbody>
    </table>
  );
}

interface RowProps<T> {
  row: T;
  columns: readonly Column<T>[];
  attributes: RowAttributes | undefined;
}

function sameAttributes(a: RowAttributes | undefined, b: RowAttributes | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const keys = Object.keys(a) as (keyof RowAttributes)[];
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

const Row = memo(
  function Row<T>({ row, columns, attributes }: RowProps<T>) {
    return (
      <tr {...attributes}>
        {columns.map((c, i) => (
          <td key={i} className={`${c.numeric ? tdRight : td}${c.className ? ` ${c.className}` : ""}`} data-col={c.id}>
            {c.cell(row)}
          </td>
        ))}
      </tr>
    );
  },
  (a, b) => a.row === b.row && a.columns === b.columns && sameAttributes(a.attributes, b.attributes),
) as <T>(props: RowProps<T>) => ReactElement;
