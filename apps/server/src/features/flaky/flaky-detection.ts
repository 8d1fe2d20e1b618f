import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { audit } from '../../lib/audit.ts';
import { deleteDetectedMark, insertDetectedMark, markOfTest, recentResults, type RecentResult, redetectMark, suiteVersionOfRun } from './mark-repository.ts';

/** Results looked at: a flip counts within a test's last 10 results on one suite version; 10 clean passes clear. */
export const FLAKY_WINDOW = 10;
export const FLAKY_MIN_FLIPS = 2;

/** The finished run test detection looks at (its row after the finish was stored). */
export interface FinishedRunTest {
  id: string;
  runId: string;
  clientId: string;
  testName: string;
  status: string;
  attempts: number;
  maxAttempts: number;
  finishedAt: Date | null;
}

/** Transitions between passed and failed, oldest to newest. */
export function countFlips(newestFirst: { status: string }[]): number {
  let flips = 0;
  for (let i = 1; i < newestFirst.length; i++) if (newestFirst[i]!.status !== newestFirst[i - 1]!.status) flips++;
  return flips;
}

const isCleanPass = (r: RecentResult) => r.status === 'passed' && r.attempts <= 1;

/**
 * Issue 10, run after every finished run test from the engine's own finish path, so it holds whichever process
 * (API server or `fullstop worker`) finished it. Only passed and failed are results: an error (the test could not
 * run) or a cancellation neither flips nor counts as a pass.
 *  - passed with more than one attempt → flagged ("passed on retry");
 *  - this result differs from the previous one on the same suite version and the last 10 results on that version
 *    flip at least twice → flagged;
 *  - a detected flag no operator confirmed goes once the test's last 10 results, all after the flag, are passes at
 *    the first attempt. Operators' marks and confirmed flags stay until an operator clears them.
 * The outcome is only a mark row (test_flaky_marks): a row means flagged, whatever reads it (alerts, portal, console).
 */
export async function detectFlaky(db: Db, log: FastifyBaseLogger, rt: FinishedRunTest): Promise<void> {
  if (rt.status !== 'passed' && rt.status !== 'failed') return;
  const version = await suiteVersionOfRun(db, rt.runId);
  if (version === null) return;
  const results = (onVersion?: number) => recentResults(db, rt, FLAKY_WINDOW, onVersion);

  let reason: string | null = null;
  if (rt.status === 'passed' && rt.attempts > 1) {
    reason = `Passed on retry (attempt ${rt.attempts} of ${rt.maxAttempts}) in run ${rt.runId}`;
  } else {
    const onVersion = await results(version);
    const flips = countFlips(onVersion);
    if (onVersion.length > 1 && onVersion[0]!.status !== onVersion[1]!.status && flips >= FLAKY_MIN_FLIPS) {
      reason = `Its result flipped ${flips} times in its last ${onVersion.length} runs on suite version ${version}`;
    }
  }

  const mark = await markOfTest(db, rt.clientId, rt.testName);

  if (reason) {
    // The flag dates from the result that raised it: the passes that clear it are the ones after.
    const now = rt.finishedAt ?? new Date();
    if (mark) {
      // Flagged again: the 10 passes that clear it count from now. An operator's own mark keeps its words.
      if (mark.source === 'detected') await redetectMark(db, mark.id, reason, now);
      return;
    }
    if (await insertDetectedMark(db, rt.clientId, rt.testName, reason, now)) {
      await audit(db, log, { type: 'flaky.detected', clientId: rt.clientId, details: { testName: rt.testName, reason, runId: rt.runId } });
    }
    return;
  }

  if (!mark || mark.source !== 'detected' || mark.confirmedAt !== null || !mark.detectedAt) return;
  const latest = await results();
  const since = mark.detectedAt.getTime();
  if (latest.length < FLAKY_WINDOW || !latest.every((r) => isCleanPass(r) && (r.finishedAt?.getTime() ?? 0) > since)) return;
  if (await deleteDetectedMark(db, mark.id)) {
    await audit(db, log, {
      type: 'flaky.cleared',
      clientId: rt.clientId,
      details: { testName: rt.testName, automatic: true, reason: `passed ${FLAKY_WINDOW} runs in a row` },
    });
  }
}
