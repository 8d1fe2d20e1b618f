import { type InsightKey, isIncompleteScanError, type TestLatestResult } from '@fullstop/contracts';

/** The kind each card's figures come from (the server's insights read the same). */
export const INSIGHT_KINDS: Record<InsightKey, string> = {
  load: 'load',
  zap: 'security-scan',
  'frontend-report': 'browser',
  'security-report': 'security-checks',
};

/** What the notice calls the tests of each card. */
export const INSIGHT_TEST_WORDS: Record<InsightKey, { one: string; figures: string }> = {
  load: { one: 'load test', figures: 'load test that ran' },
  zap: { one: 'security scan', figures: 'scan that ran' },
  'frontend-report': { one: 'browser test', figures: 'run of these tests' },
  'security-report': { one: 'security check', figures: 'run of these checks' },
};

export const INSIGHT_TITLES: Record<InsightKey, string> = {
  load: 'Load Insights',
  zap: 'Zap Insights',
  'frontend-report': 'Frontend Test Insights',
  'security-report': 'Security Test Insights',
};

/**
 * The tests of a card's kind whose latest result is an error: they could not run, and the card says why. An
 * incomplete scan ran: its figures are the card's, marked incomplete (decision 0058).
 */
export function notRunTests(latest: readonly TestLatestResult[] | undefined, key: InsightKey): TestLatestResult[] {
  return (latest ?? []).filter((t) => t.kind === INSIGHT_KINDS[key] && t.status === 'error' && !isIncompleteScanError(t.error));
}
