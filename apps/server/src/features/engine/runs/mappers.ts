import { GROUP_SCOPE_PREFIX, isIncompleteScanError, runScopeLabel, type RunDetailResponse, type RunResultResponse, type RunStatus, type RunTestOutcome, type RunTotals } from '@fullstop/contracts';
import type { RunDetail, RunRow, RunTestRow } from './run-repository.ts';
import type { RunEvent, TestEvent } from './events.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** What every view of a run's test starts with: its name, its place in the suite and its outcome. */
export function runTestOutcomeOf(rt: RunTestRow): RunTestOutcome {
  return { runTestId: rt.id, testName: rt.testName, group: rt.groupName, kind: rt.kind, status: rt.status, totals: rt.totals ?? null, error: rt.error };
}

export function testEventOf(rt: RunTestRow): TestEvent {
  return {
    ...runTestOutcomeOf(rt),
    runId: rt.runId,
    attempt: rt.attempts,
    maxAttempts: rt.maxAttempts,
    progress: rt.progress ?? null,
    startedAt: iso(rt.startedAt),
    finishedAt: iso(rt.finishedAt),
  };
}

/** A run as its events and its history entry show it. */
export function runEventOf(run: Pick<RunRow, 'id' | 'scope' | 'status' | 'totals' | 'createdAt' | 'finishedAt'>): RunEvent {
  return {
    runId: run.id,
    scope: run.scope,
    status: run.status,
    totals: run.totals ?? null,
    createdAt: run.createdAt.toISOString(),
    finishedAt: iso(run.finishedAt),
  };
}

/** A test that ended with a verdict: a result. Queued, running and cancelled ones are not. */
export const RESULT_STATUSES = ['passed', 'failed', 'error'] as const satisfies readonly RunStatus[];
export const TERMINAL_STATUSES = [...RESULT_STATUSES, 'cancelled'] as const;
export function isResult(status: string): boolean {
  return (RESULT_STATUSES as readonly string[]).includes(status);
}
export function isTerminal(status: string): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

export const ZERO_TOTALS: RunTotals = { totalTests: 0, passedTests: 0, failedTests: 0, skippedTests: 0 };

/** A security scan that ran but could not attack everything (a scanner module crashed): not "could not run". */
const isIncompleteScan = (test: Pick<RunTestRow, 'status' | 'error'>): boolean => test.status === 'error' && isIncompleteScanError(test.error);

/** "2 failed, 1 scan incomplete, 1 could not run": what did not pass, in words. */
function notPassedText(failed: number, tests: RunTestRow[]): string {
  const incomplete = tests.filter(isIncompleteScan).length;
  const couldNot = tests.filter((t) => t.status === 'error').length - incomplete;
  const parts = [`${failed} failed`, ...(incomplete > 0 ? [`${incomplete} ${incomplete === 1 ? 'scan' : 'scans'} incomplete`] : []), `${couldNot} could not run`];
  return parts.join(', ');
}

/** A run's outcome in the shape `?wait=true` and `fullstop run --wait` answer. */
export function runResultOf(run: RunRow & { tests: RunTestRow[] }): RunResultResponse {
  const totals = run.totals ?? ZERO_TOTALS;
  const finished = isTerminal(run.status);
  const passed = run.status === 'passed';
  const what = run.scope === 'all' || run.scope.startsWith(GROUP_SCOPE_PREFIX) ? runScopeLabel(run.scope) : `Test ${run.scope}`;
  const message = !finished
    ? `${what}: still running (run ${run.id})`
    : passed
      ? `${what} passed: ${totals.passedTests} of ${totals.totalTests} checks passed`
      : `${what} ${run.status}: ${notPassedText(totals.failedTests, run.tests)}`;
  return {
    message,
    runId: run.id,
    status: run.status,
    passed,
    totals,
    tests: run.tests.map((t) => ({ testName: t.testName, status: t.status, totals: t.totals ?? null, error: t.error })),
  };
}

/** GET /test/runs/{runId}: the outcome plus every attempt of every test. */
export function runDetailOf(run: RunDetail): RunDetailResponse {
  return {
    ...runResultOf(run),
    createdAt: run.createdAt.toISOString(),
    finishedAt: iso(run.finishedAt),
    tests: run.tests.map((t) => ({
      ...runTestOutcomeOf(t),
      durationMs: t.durationMs,
      attempts: t.attempts.map((a) => ({
        attempt: a.attempt,
        status: a.status,
        workerId: a.workerId,
        error: a.error,
        startedAt: a.startedAt.toISOString(),
        finishedAt: iso(a.finishedAt),
      })),
    })),
  };
}
