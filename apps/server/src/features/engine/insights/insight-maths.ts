import type { RunTotals, ZapInsight } from '@fullstop/contracts';
import type { Finding } from '@fullstop/engine';

// The sums behind the insight cards, shared by the cards (GET /insight/fetch/all) and their trends.

/** Alerts by risk, with those an operator marked false positives counted apart, as the Zap card shows them. */
export function zapCounts(findings: readonly Finding[], isFalse: (f: Finding) => boolean): ZapInsight {
  const zap = { High: 0, Medium: 0, Low: 0, Informational: 0, 'False Positives': 0 };
  for (const f of findings) {
    if (isFalse(f)) zap['False Positives']++;
    else zap[f.risk]++;
  }
  return zap;
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
