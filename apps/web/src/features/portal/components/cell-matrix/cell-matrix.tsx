import type { RunTestCase } from '@fullstop/contracts';
import type { ReactNode } from 'react';
import { cellLabel, cellMatrixOf, type MatrixCell } from './cell-matrix-model.ts';
import '../run-status-badge.css';
import './cell-matrix.css';

const STATUS_WORDS: Record<MatrixCell['status'], string> = { passed: 'Passed', failed: 'Failed', skipped: 'Skipped' };

/** One line under a test that fails on one engine or one device only: "fails on Firefox only". Nothing otherwise. */
export function CellCallout({ cases }: { cases: readonly RunTestCase[] }) {
  const { where } = cellMatrixOf(cases);
  return where ? <p className="cell-callout">{where[0]!.toUpperCase() + where.slice(1)}</p> : null;
}

interface CellMatrixProps {
  cases: readonly RunTestCase[];
  /** Links to a case's evidence in one cell, when the page has them. */
  evidence?: (caseName: string, cell: string) => ReactNode;
}

/**
 * A test's cases by cell: a row per case, a column per engine × device, each cell its status; a failed cell's
 * error on hover and in a "Why" that opens. Scrolls sideways on a phone rather than squeezing the columns.
 */
export function CellMatrix({ cases, evidence }: CellMatrixProps) {
  const { cells, rows } = cellMatrixOf(cases);
  if (cells.length === 0) return null;
  return (
    <div className="cell-matrix" role="region" aria-label={`Engines and devices (${cells.length} cells)`} tabIndex={0}>
      <table className="cell-matrix__table">
        <thead>
          <tr>
            <th scope="col">Case</th>
            {cells.map((cell) => (
              <th key={cell} scope="col">
                {cellLabel(cell)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name}>
              <th scope="row">
                {row.name}
                {row.where && <span className="cell-matrix__where">{row.where}</span>}
              </th>
              {cells.map((cell) => {
                const c = row.cells[cell];
                if (!c) return <td key={cell}><span className="portal-muted" aria-label="Did not run">–</span></td>;
                return (
                  <td key={cell} data-cell={cell}>
                    <span className={`run-status run-status--${c.status === 'skipped' ? 'cancelled' : c.status}`} title={c.error ?? undefined}>
                      {STATUS_WORDS[c.status]}
                    </span>
                    {c.error && (
                      <details className="cell-matrix__why">
                        <summary>Why</summary>
                        <pre>{c.error}</pre>
                      </details>
                    )}
                    {evidence?.(row.name, cell)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
