/**
 * A browser test on several engines, devices or networks, in its report: a table with a row per case and a column
 * per cell, and in words where a case fails when that is on one engine, one device or one network only ("fails on
 * Firefox only", "fails on slow 3G only").
 */
import { escapeHtml as e, safeLink } from '../../reporters/html/escape.ts';
import { section, statusBadge, table } from '../../reporters/html/parts.ts';
import type { CaseResult } from '../../types.ts';
import { caseWithoutCell, cellLabel, CLOUD_NETWORK_WORDS, engineChecks, failingWhere, isCloudCell } from '@fullstop/contracts';
import { ENGINE_LIMITS } from './devices.ts';
import type { CloudCellSummary } from './facts.ts';

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
  // A cloud cell's column says whose network it is on: the provider's, never our proxy's or shaping's (decision 0100).
  const head = ['Case', ...cells.map((c) => (isCloudCell(c) ? `${cellLabel(c)} · ${CLOUD_NETWORK_WORDS}` : cellLabel(c)))];
  const body = rows.map((row) => [
    `${e(row.name)}${row.where ? ` <b class="t-failed">${e(row.where)}</b>` : ''}`,
    ...cells.map((c) => (row.cells[c] ? statusBadge(row.cells[c]) : '<span class="muted">–</span>')),
  ]);
  const networks = cells.some((c) => c.split('/').length > 2);
  // What each engine ran (WebKit: the page checks only), and what an engine does not take of a phone or tablet.
  const local = cells.filter((c) => !isCloudCell(c));
  const engines = new Set(local.map((c) => c.split('/')[0] ?? ''));
  const limits = local.some((c) => c.split('/')[1] !== 'desktop') ? [...engines].map((engine) => ENGINE_LIMITS[engine as keyof typeof ENGINE_LIMITS]).filter((l): l is string => Boolean(l)) : [];
  const notes = [...(whatRan ? engineChecks(cases) : []), ...limits].map((line) => `<li>${e(line)}</li>`).join('');
  return section(`${networks ? 'Engines, devices and networks' : 'Engines and devices'} (${cells.length} cells)`, `${table(head, body)}${notes ? `<ul class="muted">${notes}</ul>` : ''}`);
}

/** The provider's pages of a cloud cell's session (video, logs; they may ask for the provider's login), or why there are none. */
function providerOf(c: CloudCellSummary): string {
  const links = (c.providerLinks ?? []).map((l) => safeLink(l.url, l.label)).join(' · ');
  const session = c.sessionId ? `<div class="muted small">Session <code>${e(c.sessionId)}</code></div>` : '';
  const specs = c.specSessionIds?.length ? `<div class="muted small">Spec files’ session${c.specSessionIds.length === 1 ? '' : 's'} ${c.specSessionIds.map((id) => `<code>${e(id)}</code>`).join(', ')}</div>` : '';
  return (links ? `<div class="small">${links}</div>` : '') + session + specs + (c.providerNote ? `<div class="muted small">${e(c.providerNote)}</div>` : '');
}

const minuteWords = (m: number) => `${m} minute${m === 1 ? '' : 's'}`;

/** Our count of a cell's device minutes, and beside it the provider's when the server asked it (decision 0106). */
function minutesOf(c: CloudCellSummary): string {
  if (c.minutes === null) return '–';
  const ours = e(`${c.minutes} device minute${c.minutes === 1 ? '' : 's'}`);
  if (c.billedMinutes === undefined) return ours;
  const theirs = c.billedMinutes === null ? `${c.provider}: not reported` : `${c.provider} billed ${minuteWords(c.billedMinutes)}`;
  return `${ours}<div class="muted small">${e(theirs)}</div>`;
}

/**
 * The cloud cells of a browser test (decision 0100): per cell its device and browser, the provider, what ran and
 * what a cloud cell cannot run, the device minutes it used, and the provider's session pages. '' without any.
 */
export function cloudCellsSection(cloudCells: readonly CloudCellSummary[] | undefined): string {
  if (!cloudCells?.length) return '';
  const rows = cloudCells.map((c) => [
    `${e(c.label)}${c.browserVersion || c.platformName ? `<div class="muted small">${e([c.browserVersion ? `${c.label.split(' on ')[0]} ${c.browserVersion}` : null, c.platformName].filter(Boolean).join(', '))}</div>` : ''}`,
    `${e(c.provider)}<div class="muted small">${e(CLOUD_NETWORK_WORDS)}</div>`,
    e(c.ran ?? `did not run: ${c.note ?? 'no session'}`) +
      (c.specFiles?.notStarted && c.specFiles.notStarted !== c.note ? `<div class="muted small">${e(`spec files did not run: ${c.specFiles.notStarted}`)}</div>` : '') +
      (c.specFiles?.refused ? `<div class="muted small">${e(`spec files: ${c.provider} refused the connection (${c.specFiles.refused})`)}</div>` : ''),
    e(c.cannot),
    minutesOf(c),
    providerOf(c) || '<span class="muted">–</span>',
  ]);
  const used = cloudCells.reduce((sum, c) => sum + (c.minutes ?? 0), 0);
  const billed = cloudCells.every((c) => c.minutes === null || typeof c.billedMinutes === 'number') && cloudCells.some((c) => typeof c.billedMinutes === 'number');
  const theirs = billed ? `; ${cloudCells[0]!.provider} billed ${minuteWords(Math.round(cloudCells.reduce((sum, c) => sum + (c.billedMinutes ?? 0), 0) * 10) / 10)}` : '';
  const total = `<p class="muted">${e(`${Math.round(used * 10) / 10} device minutes on ${cloudCells[0]!.provider} in all by our count${theirs}. The client’s account is billed by the provider’s own count (its dashboard shows each session).`)}</p>`;
  return section(`Cloud cells (${cloudCells.length})`, `${table(['Cell', 'Provider', 'Ran', 'Cannot run', 'Device minutes', 'Session'], rows, [4])}${total}`);
}
