/** Manual test cases in a report: the goal and the data, then each execution's steps with the tester's verdict, note and evidence. */
import { firstLine } from '../../reporters/format.ts';
import { timeTag } from '../../reporters/report-time.ts';
import { escapeHtml as e } from '../../reporters/html/escape.ts';
import type { KindReport } from '../../reporters/html/kind-report.ts';
import { card, cards, section, statusBadge, table } from '../../reporters/html/parts.ts';
import type { RenderOptions } from '../../reporters/html/render-options.ts';
import type { RunReport } from '../../reporters/types.ts';
import type { ManualExecution, ManualStepResult, ManualSummary } from './facts.ts';

const VERDICT_BADGE: Record<ManualExecution['verdict'], string> = { passed: 'passed', failed: 'failed', blocked: 'failed', 'not-run': 'skipped' };

function evidenceOf(s: ManualStepResult, opts: RenderOptions): string {
  return s.evidence
    .map((x) => {
      const uri = x.contentType.startsWith('image/') ? opts.image?.(x.path) : undefined;
      return uri
        ? `<figure><div class="shot-frame"><img class="shot" src="${e(uri)}" alt="${e(`Evidence: ${x.name}`)}"></div><figcaption>${e(x.name)}</figcaption></figure>`
        : `<div class="small">${e(x.name)} <span class="muted">(in the zip report: <code>${e(x.path)}</code>)</span></div>`;
    })
    .join('');
}

function stepRows(x: ManualExecution, opts: RenderOptions): string[][] {
  return x.steps.map((s, i) => [
    String(i + 1),
    e(s.action) + (s.wcag?.length ? `<div class="muted small">WCAG ${e(s.wcag.join(', '))}</div>` : ''),
    e(s.expected),
    s.verdict ? statusBadge(s.verdict === 'blocked' ? 'blocked' : s.verdict) : '<span class="muted">not reached</span>',
    (s.note ? e(s.note) : '') + evidenceOf(s, opts),
  ]);
}

function executionSection(x: ManualExecution, several: boolean, opts: RenderOptions): string {
  const who =
    x.verdict === 'not-run'
      ? `<p>${e(x.notRunReason ?? 'Not run.')}</p>`
      : `<p class="kv"><b>Tester</b> ${e(x.tester ?? '–')} · <b>on</b> ${e(x.used ?? x.platform)}${x.submittedAt ? ` · <b>submitted</b> ${timeTag(x.submittedAt)}` : ''}</p>`;
  const title = `${several ? `On ${x.platform}` : 'Steps'}`;
  return section(title, `<p>${statusBadge(VERDICT_BADGE[x.verdict])} ${e(x.verdict === 'not-run' ? 'not run' : x.verdict)}</p>${who}${table(['#', 'Action', 'Expected', 'Verdict', 'Note and evidence'], stepRows(x, opts), [0])}`);
}

function caseSection(s: ManualSummary): string {
  const parts = [`<p>${e(s.goal)}</p>`];
  if (s.preconditions.length) parts.push(`<p class="kv"><b>Preconditions</b></p><ul>${s.preconditions.map((p) => `<li>${e(p)}</li>`).join('')}</ul>`);
  const data = Object.entries(s.testData);
  if (data.length) parts.push(table(['Test data', 'Value'], data.map(([k, v]) => [e(k), `<code>${e(v)}</code>`])));
  return section('The case', parts.join(''));
}

function wcagSection(s: ManualSummary): string {
  if (!s.wcag.length) return '';
  return section('WCAG 2.2 success criteria covered', `<p>${s.wcag.map((c) => `<code>${e(c)}</code>`).join(' ')}</p>`);
}

function body(r: RunReport, s: ManualSummary, opts: RenderOptions): string {
  const t = r.totals;
  const several = s.executions.length > 1;
  const figures = several ? cards([card(String(t.failedTests), 'failed', t.failedTests ? 'bad' : ''), card(String(t.passedTests), 'passed', t.passedTests && !t.failedTests ? 'ok' : ''), card(String(t.skippedTests), 'not run'), card(String(t.totalTests), 'platforms')]) : '';
  const executions = opts.condensed ? s.executions.filter((x) => x.verdict !== 'passed') : s.executions;
  const rest = opts.condensed && executions.length < s.executions.length ? `<p class="muted">${s.executions.length - executions.length} other execution${s.executions.length - executions.length === 1 ? '' : 's'} passed.</p>` : '';
  return figures + (opts.condensed ? '' : caseSection(s)) + executions.map((x) => executionSection(x, several, opts)).join('') + rest + wcagSection(s);
}

function verdict(r: RunReport, s: ManualSummary): string {
  const done = s.executions.filter((x) => x.verdict !== 'not-run');
  if (s.executions.length > 1) {
    const failed = done.filter((x) => x.verdict !== 'passed');
    return failed.length ? `Failed on ${failed.map((x) => x.platform).join(', ')}` : `Passed on all ${s.executions.length} platforms`;
  }
  const x = done[0];
  if (!x) return r.status === 'passed' ? 'Passed' : 'Not run';
  if (x.verdict === 'passed') return `Passed, executed by ${x.tester ?? 'a tester'} on ${x.used ?? x.platform}`;
  return `${x.verdict === 'blocked' ? 'Blocked' : 'Failed'}: ${firstLine(s.cases[0]?.error) ?? 'a step did not pass'}`;
}

/** The goal, each execution's steps with verdicts and evidence, the WCAG criteria covered; a case nobody executed reads "Not run". */
export const report: KindReport<'manual'> = {
  kind: 'manual',
  verdict,
  keyFigure: (r) => (r.totals.totalTests > 1 ? `${r.totals.passedTests} of ${r.totals.totalTests} platforms passed` : r.status === 'passed' ? 'passed by a tester' : r.status === 'failed' ? 'failed by a tester' : 'not run'),
  body,
  partial(s) {
    const notRun = s.executions.find((x) => x.verdict === 'not-run');
    if (!notRun) return null;
    return { verdict: `Not run: ${notRun.notRunReason ?? 'nobody executed it in time'}`, errorTitle: 'Why it was not run', keyFigure: 'not run' };
  },
  passingScreenshots: true,
};
