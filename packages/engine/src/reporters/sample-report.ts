/**
 * What the sample reports share. Each kind's `sample.ts` builds its own from these (fixtures.ts gathers them), for
 * the reporters' tests, the bench and looking at the pages. Not used at run time.
 */
import type { CaseResult, SummaryOf, TestKind } from '../types.ts';
import type { RunReport } from './types.ts';

/** A sample report: what every kind's `sample.ts` leaves as it is. */
export const sampleReport = (over: Partial<RunReport>): RunReport => ({
  clientName: 'Acme Shop',
  testName: 'sample',
  group: 'Frontend',
  kind: 'browser',
  runId: '6f1c2d9e-1b7a-4c55-9d0e-2a1b3c4d5e6f',
  status: 'passed',
  totals: { totalTests: 1, passedTests: 1, failedTests: 0, skippedTests: 0 },
  durationMs: 12_345.678,
  startedAt: '2026-11-23T10:42:05.120Z',
  finishedAt: '2026-11-23T10:42:17.466Z',
  target: 'https://shop.acme.test',
  summary: null,
  error: null,
  artifacts: [],
  attempts: [
    { attempt: 1, status: 'failed', startedAt: '2026-11-23T10:40:00.000Z', finishedAt: '2026-11-23T10:41:00.000Z', error: 'attempt 1 of 2 on vm:14107:worker-3 timed out', logPath: null },
    { attempt: 2, status: 'passed', startedAt: '2026-11-23T10:42:05.120Z', finishedAt: '2026-11-23T10:42:17.466Z', error: null, logPath: null },
  ],
  ...over,
});

/** A report of a case-list kind, its totals counted from its cases. */
export function casesSampleReport<K extends TestKind>(kind: K, group: string, testName: string, cases: CaseResult[]): RunReport {
  const count = (status: CaseResult['status']) => cases.filter((c) => c.status === status).length;
  const failedTests = count('failed');
  return sampleReport({
    kind,
    group,
    testName,
    status: failedTests > 0 ? 'failed' : 'passed',
    totals: { totalTests: cases.length, passedTests: count('passed'), failedTests, skippedTests: count('skipped') },
    summary: { kind, cases } as SummaryOf<K>,
  });
}
