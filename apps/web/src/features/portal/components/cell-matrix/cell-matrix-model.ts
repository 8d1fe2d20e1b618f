import type { RunTestCase } from '@fullstop/contracts';

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

const ENGINE_TITLES: Readonly<Record<string, string>> = { chromium: 'Chromium', firefox: 'Firefox', webkit: 'WebKit' };

const partsOf = (cell: string) => cell.split('/');
/** The first part of a cell is its engine, by its product name; the others read as they are. */
const partTitle = (part: string, index: number) => (index === 0 ? (ENGINE_TITLES[part] ?? part) : part);

/** A cell for a column head: "Firefox · phone". */
export function cellLabel(cell: string): string {
  return partsOf(cell).map(partTitle).join(' · ');
}

/**
 * Where something fails, given its status in each cell: one engine's cells (or one device's, one network's) and
 * only those, or one cell; else the failing cells listed. Null when nothing fails, or every cell that ran does.
 */
export function failingWhere(statuses: Readonly<Record<string, CaseStatus>>): string | null {
  const ran = Object.keys(statuses).filter((c) => statuses[c] !== 'skipped');
  const failed = ran.filter((c) => statuses[c] === 'failed');
  if (failed.length === 0 || failed.length === ran.length) return null;
  const depth = Math.max(...ran.map((c) => partsOf(c).length));
  for (let i = 0; i < depth; i++) {
    const part = (c: string) => partsOf(c)[i] ?? '';
    const values = new Set(failed.map(part));
    if (values.size !== 1 || new Set(ran.map(part)).size < 2) continue;
    const [value] = [...values] as [string];
    if (ran.filter((c) => part(c) === value).length === failed.length) return `fails on ${partTitle(value, i)} only`;
  }
  if (failed.length === 1) {
    const [engine, ...rest] = partsOf(failed[0]!);
    return `fails on ${[partTitle(engine!, 0), ...rest].join(' on ')} only`;
  }
  return `fails on ${failed.map(cellLabel).join(', ')}`;
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
