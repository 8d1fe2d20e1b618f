/**
 * A browser test on several engines or devices, in its report: a table with a row per case and a column per
 * cell, and in words where a case fails when that is on one engine or one device only ("fails on Firefox only").
 */
import { escapeHtml as e } from '../../reporters/html/escape.ts';
import { section, statusBadge, table } from '../../reporters/html/parts.ts';
import type { CaseResult } from '../../types.ts';
import { BROWSER_ENGINES, type BrowserEngine, ENGINE_TITLES } from './matrix.ts';

export interface MatrixRow {
  /** The case's name without its cell. */
  name: string;
  /** Its status in each cell it ran in, by cell name. */
  cells: Record<string, CaseResult['status']>;
  /** Where it fails, in words, when that is not everywhere; null when it passes everywhere or fails everywhere. */
  where: string | null;
}

const engineOf = (cell: string) => cell.split('/')[0] ?? cell;
const deviceOf = (cell: string) => cell.split('/')[1] ?? cell;
const engineTitle = (engine: string) => (BROWSER_ENGINES.includes(engine as BrowserEngine) ? ENGINE_TITLES[engine as BrowserEngine] : engine);

/** A case's name without the ` [engine/device]` its cell added. */
function baseName(c: CaseResult): string {
  const suffix = c.cell ? ` [${c.cell}]` : '';
  return suffix && c.name.endsWith(suffix) ? c.name.slice(0, -suffix.length) : c.name;
}

/**
 * Where a case fails, when the failing cells are exactly one engine's or one device's (of those it ran on), or
 * one cell; else the failing cells listed. Null when none fails, or every cell does.
 */
export function failingWhere(cells: Record<string, CaseResult['status']>): string | null {
  const ran = Object.keys(cells).filter((c) => cells[c] !== 'skipped');
  const failed = ran.filter((c) => cells[c] === 'failed');
  if (failed.length === 0 || failed.length === ran.length) return null;
  const exactly = (key: (cell: string) => string) => {
    const values = new Set(failed.map(key));
    if (values.size !== 1) return null;
    const [value] = values;
    const all = ran.filter((c) => key(c) === value);
    return all.length === failed.length && new Set(ran.map(key)).size > 1 ? value! : null;
  };
  const engine = exactly(engineOf);
  if (engine) return `fails on ${engineTitle(engine)} only`;
  const device = exactly(deviceOf);
  if (device) return `fails on ${device} only`;
  if (failed.length === 1) return `fails on ${engineTitle(engineOf(failed[0]!))} on ${deviceOf(failed[0]!)} only`;
  return `fails on ${failed.join(', ')}`;
}

/** The cells of a run in the order they first appear, and a row per case; empty when its cases have no cell. */
export function matrixOf(cases: readonly CaseResult[]): { cells: string[]; rows: MatrixRow[] } {
  const cells: string[] = [];
  const rows = new Map<string, MatrixRow>();
  for (const c of cases) {
    if (!c.cell) continue;
    if (!cells.includes(c.cell)) cells.push(c.cell);
    const name = baseName(c);
    const row = rows.get(name) ?? { name, cells: {}, where: null };
    row.cells[c.cell] = c.status;
    rows.set(name, row);
  }
  for (const row of rows.values()) row.where = failingWhere(row.cells);
  return { cells, rows: [...rows.values()] };
}

/** The matrix section of a browser report; '' for a test on one cell (Chromium on the desktop), which reads as before. */
export function matrixSection(cases: readonly CaseResult[]): string {
  const { cells, rows } = matrixOf(cases);
  if (cells.length === 0) return '';
  const head = ['Case', ...cells.map((c) => `${engineTitle(engineOf(c))} · ${deviceOf(c)}`)];
  const body = rows.map((row) => [
    `${e(row.name)}${row.where ? ` <b class="t-failed">${e(row.where)}</b>` : ''}`,
    ...cells.map((c) => (row.cells[c] ? statusBadge(row.cells[c]) : '<span class="muted">–</span>')),
  ]);
  return section(`Engines and devices (${cells.length} cells)`, table(head, body));
}
