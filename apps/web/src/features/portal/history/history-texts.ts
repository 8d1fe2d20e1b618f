import { runScopeLabel, type RunStatus, type RunTrigger } from '@fullstop/contracts';

export const TRIGGER_LABELS: Record<RunTrigger, string> = {
  portal: 'Portal',
  api: 'API',
  ci: 'CI',
  schedule: 'Schedule',
  operator: 'Operator',
};

/** A run's or a test's verdict in words; the colour beside it only repeats what the word says. */
export const VERDICTS: Record<RunStatus, string> = {
  passed: 'Passed',
  failed: 'Failed',
  error: 'Could not run',
  cancelled: 'Cancelled',
  running: 'Running',
  queued: 'Queued',
};

/** The statuses the filter offers, in the order a reader looks for them. */
export const STATUS_FILTERS: RunStatus[] = ['failed', 'passed', 'error', 'cancelled', 'running', 'queued'];

/** What a run covered: every test, or one by name. */
export function scopeText(scope: string, testCount: number): string {
  return scope === 'all' ? `All tests (${testCount})` : runScopeLabel(scope);
}

/** "2 attempts" when a test was tried again; nothing for a first-time result. */
/** "Passed on retry (attempt 2 of 3)": a pass that needed more than one attempt; null otherwise. */
export function retryText(test: { status: string; attempts: number; maxAttempts: number }): string | null {
  return test.status === 'passed' && test.attempts > 1 ? `Passed on retry (attempt ${test.attempts} of ${test.maxAttempts})` : null;
}

export function attemptsText(attempts: number): string | null {
  return attempts > 1 ? `${attempts} attempts` : null;
}
