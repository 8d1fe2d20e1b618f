import { GROUP_SCOPE_PREFIX, isIncompleteScanError, type QueuePlace, runScopeLabel, type RunDetailResponse, type RunResultResponse, type RunStatus, type RunTestOutcome, type RunTotals } from '@fullstop/contracts';
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

const counted = (n: number, one: string) => `${n} ${n === 1 ? one : `${one}s`}`;
const firstLine = (text: string | null) => text?.split('\n')[0]?.trim() || null;

/**
 * What did not pass, counted in tests (never in checks, never "all" when some passed): "1 of 8 tests failed",
 * "2 of 8 tests failed, 1 had an incomplete scan, 1 could not run". The run report's summary says the same.
 */
function notPassedText(tests: Pick<RunTestRow, 'status' | 'error'>[]): string {
  const count = (test: (t: Pick<RunTestRow, 'status' | 'error'>) => boolean) => tests.filter(test).length;
  const incomplete = count(isIncompleteScan);
  const parts = (
    [
      [count((t) => t.status === 'failed'), 'failed'],
      [incomplete, 'had an incomplete scan'],
      [count((t) => t.status === 'error') - incomplete, 'could not run'],
      [count((t) => t.status === 'cancelled'), 'cancelled'],
      [count((t) => !isTerminal(t.status)), 'did not finish'],
    ] as const
  ).filter(([n]) => n > 0);
  if (parts.length === 0) return `none of ${counted(tests.length, 'test')} passed`;
  return parts.map(([n, words], i) => (i === 0 ? `${n} of ${counted(tests.length, 'test')} ${words}` : `${n} ${words}`)).join(', ');
}

/** A single test's run that did not pass, in words: its checks when it failed, its reason when it could not run. */
function oneTestText(what: string, test: RunTestRow | undefined, totals: RunTotals): string {
  if (test?.status === 'failed' && totals.totalTests > 0) return `${what} failed: ${totals.failedTests} of ${counted(totals.totalTests, 'check')} failed`;
  if (test?.status === 'failed') return `${what} failed`;
  if (test && isIncompleteScan(test)) return `${what}: ${firstLine(test.error)}`;
  if (test?.status === 'error') return `${what} could not run${firstLine(test.error) ? `: ${firstLine(test.error)}` : ''}`;
  return `${what} was cancelled`;
}

/** A run's outcome in words, as `?wait=true`, `fullstop run --wait` and the console show it. */
export function runMessageOf(run: Pick<RunRow, 'id' | 'scope' | 'status' | 'totals'> & { tests: RunTestRow[] }): string {
  const totals = run.totals ?? ZERO_TOTALS;
  const several = run.scope === 'all' || run.scope.startsWith(GROUP_SCOPE_PREFIX);
  const what = several ? runScopeLabel(run.scope) : `Test ${run.scope}`;
  if (!isTerminal(run.status)) return `${what}: still running (run ${run.id})`;
  if (run.status === 'passed') {
    const checks = totals.totalTests > 0 ? `${totals.passedTests} of ${counted(totals.totalTests, 'check')} passed` : null;
    if (!several) return `${what} passed${checks ? `: ${checks}` : ''}`;
    return `${what} passed: ${counted(run.tests.length, 'test')}${checks ? `, ${checks}` : ''}`;
  }
  return several ? `${what}: ${notPassedText(run.tests)}` : oneTestText(what, run.tests[0], totals);
}

/** A run's outcome in the shape `?wait=true` and `fullstop run --wait` answer. */
export function runResultOf(run: RunRow & { tests: RunTestRow[] }): RunResultResponse {
  const totals = run.totals ?? ZERO_TOTALS;
  const passed = run.status === 'passed';
  const message = runMessageOf(run);
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
export function runDetailOf(run: RunDetail, places: ReadonlyMap<string, QueuePlace> = new Map()): RunDetailResponse {
  return {
    ...runResultOf(run),
    createdAt: run.createdAt.toISOString(),
    finishedAt: iso(run.finishedAt),
    tests: run.tests.map((t) => ({
      ...runTestOutcomeOf(t),
      durationMs: t.durationMs,
      queue: places.get(t.id) ?? null,
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
