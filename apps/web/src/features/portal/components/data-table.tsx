import type { ReactNode } from 'react';

/** One column: its header, which is also each cell's `data-label` (the phone layout prints it), and its cell. */
export interface DataColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

interface DataTableProps<T> {
  columns: readonly DataColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  className?: string;
  /** Read by screen readers only. */
  caption?: ReactNode;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  /** A row's own class (a row to highlight), when it has one. */
  rowClassName?: (row: T) => string | undefined;
}

/** A plain accessible table: a visually hidden caption, column headers, one row per item; a table on wide screens, cards on phones. */
export function DataTable<T>({ columns, rows, rowKey, className, caption, empty, rowClassName }: DataTableProps<T>) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  return (
    <table className={className}>
      {caption !== undefined && <caption className="visually-hidden">{caption}</caption>}
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col">
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} className={rowClassName?.(row)}>
            {columns.map((column) => (
              <td key={column.header} data-label={column.header} className={column.className}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
