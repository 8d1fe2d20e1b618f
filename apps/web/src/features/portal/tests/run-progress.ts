import type { RunStatus, RunSummary } from '@fullstop/contracts';
import { isGoing, type LiveTests } from './live-status.ts';

/** A run of all tests that is still going, and how far it got. */
export interface RunAllProgress {
  runId: string;
  done: number;
  total: number;
}

/** What the page read of the run it follows (GET /test/runs/{runId}): its status and its tests'. */
export interface FollowedRun {
  runId: string;
  status: RunStatus;
  tests: readonly { status: RunStatus }[];
}

/**
 * The run of all tests the page follows: the one it just started, else the client's newest run when it is a run of
 * all that has not ended (started from CI, another tab, before a reload).
 */
export function followedRunAll(startedRunId: string | null, newest: RunSummary | undefined): string | null {
  return startedRunId ?? (newest && newest.scope === 'all' && isGoing(newest) ? newest.runId : null);
}

/**
 * How far the followed run of all got, or null once it ended: when the server says so (the run itself as read, or
 * the newest run while it is this one), or once every one of its tests ended. `done` counts its tests that ended,
 * by the live events or by the run as read, whichever saw more: the live events keep a test's newest event only, so
 * a run of the same test started after this one (a teammate's, another tab's) hides this run's end of it.
 */
export function runAllProgress(
  runId: string | null,
  newest: RunSummary | undefined,
  live: LiveTests,
  total: number,
  read?: FollowedRun,
): RunAllProgress | null {
  if (!runId || total === 0) return null;
  if (newest?.runId === runId && !isGoing(newest)) return null;
  const own = read?.runId === runId ? read : undefined;
  if (own && !isGoing(own)) return null;
  const seen = Object.values(live).filter((test) => test.runId === runId && !isGoing(test)).length;
  const done = Math.max(seen, own ? own.tests.filter((test) => !isGoing(test)).length : 0);
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
