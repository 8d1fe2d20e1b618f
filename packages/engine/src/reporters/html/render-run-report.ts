/** The run report: every test of a "Run all" on one page, failures first, each test's section condensed. */
import type { RunReport, RunSummaryReport } from '../types.ts';
import { formatDuration } from '../format.ts';
import { timeTag } from '../report-time.ts';
import { appendix, attemptsBlock } from './appendix.ts';
import { escapeHtml as e } from './escape.ts';
import { card, cards, statusBadge, table } from './parts.ts';
import { footer, header, kindBody, page } from './render-report.ts';
import { keyFigure, kindLabel, verdict } from './verdict.ts';

const ORDER: Record<RunReport['status'], number> = { error: 0, failed: 1, passed: 2 };

function runStatus(tests: RunReport[]): RunReport['status'] {
  if (tests.some((t) => t.status === 'error')) return 'error';
  if (tests.some((t) => t.status === 'failed')) return 'failed';
  return 'passed';
}

export function runVerdict(tests: RunReport[]): string {
  const n = tests.length;
  if (n === 0) return 'No tests ran';
  const failed = tests.filter((t) => t.status === 'failed').length;
  const errored = tests.filter((t) => t.status === 'error').length;
  if (!failed && !errored) return n === 1 ? 'The test passed' : `All ${n} tests passed`;
  const parts = [failed ? `${failed} of ${n} tests failed` : '', errored ? `${errored} ${failed ? '' : `of ${n} `}could not run` : ''].filter(Boolean);
  return parts.join(', ');
}

function runDurationMs(run: RunSummaryReport): number {
  if (run.finishedAt) {
    const ms = new Date(run.finishedAt).getTime() - new Date(run.startedAt).getTime();
    if (Number.isFinite(ms) && ms >= 0) return ms;
  }
  return run.tests.reduce((s, t) => s + t.durationMs, 0);
}

const TRIGGERS: Record<string, string> = { portal: 'the portal', api: 'the API', ci: 'CI', schedule: 'a schedule' };

export function renderRunReportHtml(run: RunSummaryReport): string {
  const tests = run.tests.map((t, i) => ({ t, anchor: `test-${i + 1}` })).sort((a, b) => ORDER[a.t.status] - ORDER[b.t.status]);
  const status = runStatus(run.tests);
  const count = (s: RunReport['status']) => run.tests.filter((t) => t.status === s).length;
  const checks = run.tests.reduce((acc, t) => ({ total: acc.total + t.totals.totalTests, failed: acc.failed + t.totals.failedTests }), { total: 0, failed: 0 });
  const head = header({
    eyebrow: 'Run report',
    title: `${run.clientName}: all tests`,
    verdict: runVerdict(run.tests),
    tone: status,
    meta: [
      ['Client', e(run.clientName)],
      ['Target', e(run.target || '–')],
      ['Started', `${timeTag(run.startedAt)} from ${e(TRIGGERS[run.trigger] ?? run.trigger)}`],
      ['Duration', e(formatDuration(runDurationMs(run)))],
    ],
  });
  const summary = cards([
    card(String(count('failed')), 'tests failed', count('failed') ? 'bad' : ''),
    card(String(count('error')), 'could not run', count('error') ? 'warn' : ''),
    card(String(count('passed')), 'tests passed', count('passed') === run.tests.length && run.tests.length ? 'ok' : ''),
    card(`${checks.failed} of ${checks.total}`, 'checks failed', checks.failed ? 'bad' : ''),
  ]);
  // Kind and duration under the name, so the table fits a phone without scrolling.
  const rows = tests.map(({ t, anchor }) => [
    statusBadge(t.status),
    `<a href="#${anchor}">${e(t.testName)}</a><br><span class="muted small">${e(kindLabel(t.kind))} · ${e(formatDuration(t.durationMs))}</span>`,
    e(keyFigure(t)),
  ]);
  const overview = `<section><h2>Tests (${run.tests.length})</h2>${table(['Status', 'Test', 'Result'], rows)}</section>`;
  const sections = tests
    .map(
      ({ t, anchor }) =>
        `<section id="${anchor}" class="test-section"><div class="box t-${e(t.status)}"><div class="box-head">${statusBadge(t.status)}` +
        `<h2 class="name test-title">${e(t.testName)}</h2><span class="muted small">${e(kindLabel(t.kind))} · ${e(formatDuration(t.durationMs))}</span></div>` +
        `<p class="verdict">${e(verdict(t))}</p></div>${kindBody(t, { condensed: true })}</section>`,
    )
    .join('');
  const attempts = tests.map(({ t }) => `<h3>${e(t.testName)}</h3>${attemptsBlock(t)}`).join('');
  const body = head + summary + overview + sections + appendix(attempts) + footer(run.runId);
  return page(`Run report: ${runVerdict(run.tests)} · ${run.clientName}`, body);
}
