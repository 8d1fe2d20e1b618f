import { cellLabel, failingWhere, type RunTestCase } from '@fullstop/contracts';

export { cellLabel, failingWhere };

// A browser test on several engines, devices (and networks): its cases as a matrix, and where it fails in words.
// A cell is `<engine>/<device>[/<network>...]`; it is read part by part, so a new dimension needs no change here.

type CaseStatus = RunTestCase['status'];

export interface MatrixCell {
  status: CaseStatus;
  error: string | null;
}

export interface MatrixRow {
  /** The case's name, without its cell. */
  name: string;
  cells: Record<string, MatrixCell>;
  /** Where it fails in words ("fails on Firefox only"); null when it passes everywhere or fails everywhere. */
  where: string | null;
}

/** The cells in the order they first appear, a row per case, and where the test as a whole fails. */
export function cellMatrixOf(cases: readonly RunTestCase[]): { cells: string[]; rows: MatrixRow[]; where: string | null } {
  const cells: string[] = [];
  const rows = new Map<string, MatrixRow>();
  for (const c of cases) {
    if (!c.cell) continue;
    if (!cells.includes(c.cell)) cells.push(c.cell);
    const row = rows.get(c.name) ?? { name: c.name, cells: {}, where: null };
    row.cells[c.cell] = { status: c.status, error: c.error };
    rows.set(c.name, row);
  }
  const statusOf = (cell: Record<string, MatrixCell>) => Object.fromEntries(Object.entries(cell).map(([k, v]) => [k, v.status]));
  for (const row of rows.values()) row.where = failingWhere(statusOf(row.cells));
  // The test fails in a cell when one of its cases does there.
  const byCell: Record<string, CaseStatus> = {};
  for (const cell of cells) {
    const statuses = [...rows.values()].map((r) => r.cells[cell]?.status);
    byCell[cell] = statuses.includes('failed') ? 'failed' : statuses.every((s) => s === 'skipped' || !s) ? 'skipped' : 'passed';
  }
  return { cells, rows: [...rows.values()], where: failingWhere(byCell) };
}
