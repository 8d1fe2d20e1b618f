import type { RunSummary } from '@fullstop/contracts';
import { isGoing, type LiveTests } from './live-status.ts';

/** A run of all tests that is still going, and how far it got. */
export interface RunAllProgress {
  runId: string;
  done: number;
  total: number;
}

/**
 * The run of all tests the page should show as going: the one this page just started, else the client's
 * newest run when it is a run of all that has not ended (started from CI, another tab, before a reload).
 * It has ended once the server says so, or once the live events saw every one of its tests end; `done`
 * counts its tests that ended, `total` the tests of the suite.
 */
export function runAllProgress(startedRunId: string | null, newest: RunSummary | undefined, live: LiveTests, total: number): RunAllProgress | null {
  const runId = startedRunId ?? (newest && newest.scope === 'all' && isGoing(newest) ? newest.runId : null);
  if (!runId || total === 0) return null;
  if (newest?.runId === runId && !isGoing(newest)) return null;
  const done = Object.values(live).filter((test) => test.runId === runId && !isGoing(test)).length;
  if (done >= total) return null;
  return { runId, done, total };
}

export function runAllProgressText(progress: RunAllProgress): string {
  return `Running ${progress.done} of ${progress.total}…`;
}

/** The ended tests' run test ids: when it changes, a test has finished and its latest result is worth re-reading. */
export function endedKey(live: LiveTests): string {
  return Object.values(live)
    .filter((test) => !isGoing(test))
    .map((test) => test.runTestId)
    .sort()
    .join(',');
}
