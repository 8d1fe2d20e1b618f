import type { RunTotals, ZapInsight } from '@fullstop/contracts';
import { countAlerts, type Finding } from '@fullstop/engine';

// The sums behind the insight cards, shared by the cards (GET /insight/fetch/all) and their trends.

/**
 * The Zap card: what ZAP's report "Summary of Alerts" counts. One alert per rule whatever its number of instances,
 * at its risk while one of its instances is not marked a false positive, and under False Positives while one is
 * (docs/decisions/0059-zap-alert-semantics.md).
 */
export function zapCounts(findings: readonly Finding[], isFalse: (f: Finding) => boolean): ZapInsight {
  return countAlerts(findings, isFalse);
}

/** Every test of a kind in one run added up, and the time they took (ms). */
export function sumTotals(rows: readonly { totals: RunTotals | null; durationMs?: number | null }[]): RunTotals & { durationMs: number } {
  const sum = { totalTests: 0, passedTests: 0, failedTests: 0, skippedTests: 0, durationMs: 0 };
  for (const row of rows) {
    sum.totalTests += row.totals?.totalTests ?? 0;
    sum.passedTests += row.totals?.passedTests ?? 0;
    sum.failedTests += row.totals?.failedTests ?? 0;
    sum.skippedTests += row.totals?.skippedTests ?? 0;
    sum.durationMs += row.durationMs ?? 0;
  }
  return sum;
}
