import type { Artifact, CaseResult, RunnerResult } from '../../types.ts';
import type { ManualEvidence, ManualExecution, ManualStepResult, ManualSummary } from './facts.ts';
import type { ManualOptions } from './options.ts';

/** Where a step's verdict stopped an execution, in words: "Step 3 failed: Tap Pay — expected: …; note: …". */
function stepWords(index: number, s: ManualStepResult): string {
  const verdict = s.verdict === 'blocked' ? 'was blocked' : 'failed';
  return [`Step ${index + 1} ${verdict}: ${s.action}`, `Expected: ${s.expected}`, ...(s.note ? [`Note: ${s.note}`] : [])].join('\n');
}

const isImage = (e: ManualEvidence) => e.contentType.startsWith('image/');

/** One execution as a case: its status, the first step that did not pass, its steps, the screenshot of that step. */
function caseOf(name: string, x: ManualExecution): CaseResult {
  const durationMs = x.startedAt && x.submittedAt ? Math.max(0, Date.parse(x.submittedAt) - Date.parse(x.startedAt)) : 0;
  const steps = x.steps.map((s, i) => ({
    title: `Step ${i + 1}: ${s.action} — ${s.verdict ?? 'not reached'}`,
    durationMs: 0,
    ...(s.verdict === 'failed' || s.verdict === 'blocked' ? { error: stepWords(i, s) } : {}),
  }));
  if (x.verdict === 'not-run') return { name, status: 'skipped', durationMs: 0, error: x.notRunReason ?? 'not run', steps };
  const stopped = x.steps.findIndex((s) => s.verdict === 'failed' || s.verdict === 'blocked');
  const shot = stopped >= 0 ? x.steps[stopped]!.evidence.find(isImage) : undefined;
  return {
    name,
    status: x.verdict === 'passed' ? 'passed' : 'failed',
    durationMs,
    ...(stopped >= 0 ? { error: stepWords(stopped, x.steps[stopped]!) } : {}),
    steps,
    ...(shot ? { screenshot: shot.path } : {}),
    ...(x.used ? { cell: x.used } : {}),
  };
}

/** The WCAG criteria a case's steps check, each once, in order. */
export function wcagOf(options: Pick<ManualOptions, 'steps'>): string[] {
  return [...new Set(options.steps.flatMap((s) => s.wcag ?? []))];
}

/**
 * A manual case's result, made by the server when its last execution is submitted or its due time passes: the
 * same shape a runner returns, so its totals, reports, JUnit, History and Insights read it like any other kind's.
 * A case nobody executed by its due time ends as an error ("not run", with the reason), never as passed.
 */
export function manualResult(testName: string, options: Pick<ManualOptions, 'goal' | 'preconditions' | 'testData' | 'steps'>, executions: ManualExecution[]): RunnerResult {
  const several = executions.length > 1;
  const cases = executions.map((x) => caseOf(several ? `${testName} on ${x.platform}` : testName, x));
  const count = (s: CaseResult['status']) => cases.filter((c) => c.status === s).length;
  const summary: ManualSummary = {
    kind: 'manual',
    goal: options.goal,
    preconditions: options.preconditions,
    testData: options.testData,
    cases,
    executions,
    wcag: wcagOf(options),
  };
  const artifacts: Artifact[] = executions.flatMap((x) =>
    x.steps.flatMap((s, i) => s.evidence.map((e) => ({ path: e.path, kind: isImage(e) ? ('screenshot' as const) : ('other' as const), contentType: e.contentType, label: `Step ${i + 1}: ${e.name}` }))),
  );
  const notRun = executions.filter((x) => x.verdict === 'not-run');
  const durationMs = cases.reduce((t, c) => t + c.durationMs, 0);
  const totals = { totalTests: cases.length, passedTests: count('passed'), failedTests: count('failed'), skippedTests: count('skipped') };
  if (notRun.length > 0) {
    return { status: 'error', totals, durationMs, summary, artifacts, error: notRun[0]!.notRunReason ?? 'not run', errorCode: 'not_run' };
  }
  return { status: count('failed') > 0 ? 'failed' : 'passed', totals, durationMs, summary, artifacts };
}
