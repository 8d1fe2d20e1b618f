import type { RunTotals } from '@fullstop/contracts';

/**
 * A run's totals as a reader counts them: "24 of 28 passed" when every test ran; skipped tests are said apart
 * ("45 passed, 4 skipped", "40 passed, 5 failed, 4 skipped"), never counted as missed passes. Null when the run
 * has no totals (yet).
 */
export function runTotalsWords(totals: RunTotals | null): string | null {
  if (!totals || totals.totalTests === 0) return null;
  const { passedTests, failedTests, skippedTests, totalTests } = totals;
  if (skippedTests === 0) return `${passedTests} of ${totalTests} passed${failedTests ? `, ${failedTests} failed` : ''}`;
  return [`${passedTests} passed`, ...(failedTests ? [`${failedTests} failed`] : []), `${skippedTests} skipped`].join(', ');
}
