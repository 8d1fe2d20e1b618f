/**
 * The kinds whose summary is a list of cases (browser, api, security checks): each case with its status, time,
 * error and evidence.
 */
import type { CasesSummary, CaseResult, TestKind } from '../../types.ts';
import { firstLine, formatDuration } from '../format.ts';
import type { RunReport } from '../types.ts';
import { escapeHtml as e } from './escape.ts';
import type { KindReport } from './kind-report.ts';
import { card, cards, pre, section, statusBadge, table } from './parts.ts';
import type { RenderOptions } from './render-options.ts';

const ORDER: Record<CaseResult['status'], number> = { failed: 0, skipped: 1, passed: 2 };

export function byFailuresFirst(cases: CaseResult[]): CaseResult[] {
  return cases.map((c, i) => ({ c, i })).sort((a, b) => ORDER[a.c.status] - ORDER[b.c.status] || a.i - b.i).map(({ c }) => c);
}

function expectedActual(c: CaseResult): string {
  if (c.expected === undefined && c.actual === undefined) return '';
  return `<p class="kv"><b>Expected</b> ${e(c.expected ?? '–')} / <b>got</b> ${e(c.actual ?? '–')}</p>`;
}

function steps(c: CaseResult): string {
  if (!c.steps?.length) return '';
  const items = c.steps
    .map((s) => `<li${s.error ? ' class="failed"' : ''}>${e(s.title)} <span class="muted">${e(formatDuration(s.durationMs))}</span>${s.error ? pre(s.error, 2000) : ''}</li>`)
    .join('');
  return `<details${c.status === 'failed' ? ' open' : ''}><summary>Steps (${c.steps.length})</summary><ol class="steps">${items}</ol></details>`;
}

function screenshot(c: CaseResult, opts: RenderOptions): string {
  if (!c.screenshot) return '';
  const uri = opts.image?.(c.screenshot);
  if (uri) return `<div class="shot-frame"><img class="shot" src="${e(uri)}" alt="Screenshot when ${e(c.name)} ${e(c.status)}"></div>`;
  return `<p class="muted small">Screenshot in the zip report: <code>${e(c.screenshot)}</code></p>`;
}

function trace(c: CaseResult): string {
  // The portal turns this into a link to its trace viewer; the file itself has no way to open it.
  return c.trace ? `<span class="trace-link" data-trace="${e(c.trace)}">Open trace in the portal</span>` : '';
}

function failureBox(c: CaseResult, opts: RenderOptions): string {
  return (
    `<div class="box t-${e(c.status)}"><div class="box-head">${statusBadge(c.status)}<span class="name">${e(c.name)}</span>` +
    `<span class="muted num">${e(formatDuration(c.durationMs))}</span></div>` +
    expectedActual(c) +
    // A one-line error that only restates "expected … / got …" above says nothing new.
    (c.error && !(expectedActual(c) && !c.error.includes('\n')) ? pre(c.error) : '') +
    steps(c) +
    screenshot(c, opts) +
    trace(c) +
    `</div>`
  );
}

export function casesBody(cases: CaseResult[], opts: RenderOptions, noun: string): string {
  if (cases.length === 0) return section('Cases', `<p>No ${e(noun)}s ran.</p>`);
  const sorted = byFailuresFirst(cases);
  const failed = sorted.filter((c) => c.status === 'failed');
  const parts: string[] = [];
  if (failed.length) parts.push(section(`Failures (${failed.length})`, failed.map((c) => failureBox(c, opts)).join('')));
  const withExpectations = cases.some((c) => c.expected !== undefined || c.actual !== undefined);
  const listed = opts.condensed ? sorted.filter((c) => c.status !== 'passed') : sorted;
  if (listed.length) {
    const rows = listed.map((c) => [
      statusBadge(c.status),
      e(c.name),
      e(c.status === 'skipped' && !c.durationMs ? '–' : formatDuration(c.durationMs)),
      ...(withExpectations ? [c.expected === undefined && c.actual === undefined ? '' : `${e(c.expected ?? '–')} / <b>got</b> ${e(c.actual ?? '–')}`] : []),
    ]);
    const head = ['Status', noun[0]!.toUpperCase() + noun.slice(1), 'Duration', ...(withExpectations ? ['Expected / got'] : [])];
    parts.push(section(opts.condensed ? 'Not passed' : `All ${noun}s (${cases.length})`, table(head, rows, [2])));
  }
  if (opts.condensed) {
    const passed = cases.filter((c) => c.status === 'passed').length;
    if (passed) parts.push(`<p class="muted">${passed} other ${noun}${passed === 1 ? '' : 's'} passed.</p>`);
  }
  return parts.join('');
}

function casesVerdict(r: RunReport, noun: string): string {
  const { totalTests: total, failedTests: failed, skippedTests: skipped, passedTests: passed } = r.totals;
  if (total === 0) return r.status === 'passed' ? 'Passed' : 'Failed: no cases ran';
  if (failed > 0) return `${failed} of ${total} ${noun}s failed`;
  if (r.status === 'failed') return `Failed: ${firstLine(r.error) ?? 'the run reported a failure'}`;
  if (skipped > 0) return `${passed} of ${total} ${noun}s passed, ${skipped} skipped`;
  return total === 1 ? `The ${noun} passed` : `All ${total} ${noun}s passed`;
}

function casesCards(r: RunReport): string[] {
  const t = r.totals;
  return [
    card(String(t.failedTests), 'failed', t.failedTests ? 'bad' : ''),
    card(String(t.passedTests), 'passed', t.passedTests && !t.failedTests ? 'ok' : ''),
    card(String(t.skippedTests), 'skipped'),
    card(String(t.totalTests), 'in total'),
  ];
}

/**
 * The report of a kind whose summary is its list of cases, each called a `noun` ("case", "check"); `more` adds
 * sections of the kind's own after the cases, `first` before them.
 */
export function casesReport<K extends TestKind>(
  kind: K,
  noun: string,
  more?: (r: RunReport, opts: RenderOptions) => string,
  /** Sections of the kind's own between the figures and the cases (the browser test's engines × devices). */
  first?: (s: CasesSummary<K>) => string,
): KindReport<K> {
  const body = (r: RunReport, s: CasesSummary<K>, opts: RenderOptions) => cards(casesCards(r)) + (first?.(s) ?? '') + casesBody(s.cases, opts, noun) + (more?.(r, opts) ?? '');
  return {
    kind,
    verdict: (r: RunReport) => casesVerdict(r, noun),
    keyFigure: (r: RunReport) => `${r.totals.passedTests} of ${r.totals.totalTests} passed`,
    body,
  } as KindReport<K>;
}
