import { historyRunPath, type RunStatus, type TestLatestResult, type ZapInsight } from '@fullstop/contracts';

/** The run detail page (History, run detail): `/dashboard/history/<runId>`. */
export const runDetailPath = historyRunPath;

type TestOutcome = { status: RunStatus };

const going = (status: RunStatus) => status === 'queued' || status === 'running';

/** A run's verdict in words: "Passed", "3 failed", "3 failed, 1 could not run", "Could not run", "Running". */
export function runVerdict(status: RunStatus, tests: readonly TestOutcome[]): string {
  if (status === 'queued') return 'Queued';
  if (status === 'running') return 'Running';
  if (status === 'cancelled') return 'Cancelled';
  const failed = tests.filter((t) => t.status === 'failed').length;
  const couldNotRun = tests.filter((t) => t.status === 'error').length;
  if (failed > 0) return couldNotRun > 0 ? `${failed} failed, ${couldNotRun} could not run` : `${failed} failed`;
  if (couldNotRun > 0) return couldNotRun === tests.length ? 'Could not run' : `${couldNotRun} could not run`;
  return status === 'passed' ? 'Passed' : status === 'failed' ? 'Failed' : 'Could not run';
}

/** "24 of 28 passed" once the run ended; "5 of 28 done" while it goes. Counted in tests, not in checks. */
export function runTotalsText(status: RunStatus, tests: readonly TestOutcome[]): string {
  if (going(status)) return `${tests.filter((t) => !going(t.status)).length} of ${tests.length} done`;
  return `${tests.filter((t) => t.status === 'passed').length} of ${tests.length} passed`;
}

/** The tests whose latest result failed or could not run, in suite order. */
export function failingTests(latest: readonly TestLatestResult[]): TestLatestResult[] {
  return latest.filter((t) => t.status === 'failed' || t.status === 'error');
}

export const ALERT_RISKS = ['High', 'Medium', 'Low', 'Informational'] as const;
export type AlertRisk = (typeof ALERT_RISKS)[number];

/** The security scan's open alerts by risk (false positives left out), or null when no scan ran yet. */
export function alertsByRisk(zap: ZapInsight | undefined): { risk: AlertRisk; count: number }[] | null {
  if (!zap) return null;
  return ALERT_RISKS.map((risk) => ({ risk, count: zap[risk] }));
}
