/**
 * A browser test on several engines, devices or networks, in its report: a table with a row per case and a column
 * per cell, and in words where a case fails when that is on one engine, one device or one network only ("fails on
 * Firefox only", "fails on slow 3G only").
 */
import { escapeHtml as e } from '../../reporters/html/escape.ts';
import { section, statusBadge, table } from '../../reporters/html/parts.ts';
import type { CaseResult } from '../../types.ts';
import { caseWithoutCell, cellLabel, engineChecks, failingWhere } from '@fullstop/contracts';
import { ENGINE_LIMITS } from './devices.ts';

export interface MatrixRow {
  /** The case's name without its cell. */
  name: string;
  /** Its status in each cell it ran in, by cell name. */
  cells: Record<string, CaseResult['status']>;
  /** Where it fails, in words, when that is not everywhere; null when it passes everywhere or fails everywhere. */
  where: string | null;
}

/** The cells of a run in the order they first appear, and a row per case; empty when its cases have no cell. */
export function matrixOf(cases: readonly CaseResult[]): { cells: string[]; rows: MatrixRow[] } {
  const cells: string[] = [];
  const rows = new Map<string, MatrixRow>();
  for (const c of cases) {
    if (!c.cell) continue;
    if (!cells.includes(c.cell)) cells.push(c.cell);
    const name = caseWithoutCell(c.name, c.cell);
    const row = rows.get(name) ?? { name, cells: {}, where: null };
    row.cells[c.cell] = c.status;
    rows.set(name, row);
  }
  for (const row of rows.values()) row.where = failingWhere(row.cells);
  return { cells, rows: [...rows.values()] };
}

/**
 * The matrix section of a report; '' for a test on one cell (Chromium on the desktop), which reads as before. A
 * browser test also says what each engine ran (spec files, page checks); another kind runs the same on every
 * engine (`whatRan: false`).
 */
export function matrixSection(cases: readonly CaseResult[], { whatRan = true }: { whatRan?: boolean } = {}): string {
  const { cells, rows } = matrixOf(cases);
  if (cells.length === 0) return '';
  const head = ['Case', ...cells.map((c) => cellLabel(c))];
  const body = rows.map((row) => [
    `${e(row.name)}${row.where ? ` <b class="t-failed">${e(row.where)}</b>` : ''}`,
    ...cells.map((c) => (row.cells[c] ? statusBadge(row.cells[c]) : '<span class="muted">–</span>')),
  ]);
  const networks = cells.some((c) => c.split('/').length > 2);
  // What each engine ran (WebKit: the page checks only), and what an engine does not take of a phone or tablet.
  const engines = new Set(cells.map((c) => c.split('/')[0] ?? ''));
  const limits = cells.some((c) => c.split('/')[1] !== 'desktop') ? [...engines].map((engine) => ENGINE_LIMITS[engine as keyof typeof ENGINE_LIMITS]).filter((l): l is string => Boolean(l)) : [];
  const notes = [...(whatRan ? engineChecks(cases) : []), ...limits].map((line) => `<li>${e(line)}</li>`).join('');
  return section(`${networks ? 'Engines, devices and networks' : 'Engines and devices'} (${cells.length} cells)`, `${table(head, body)}${notes ? `<ul class="muted">${notes}</ul>` : ''}`);
}
