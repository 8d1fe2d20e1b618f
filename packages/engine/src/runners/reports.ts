import type { KindReport } from '../reporters/html/kind-report.ts';
import { type RunnerSummary, TEST_KINDS, type TestKind } from '../types.ts';

/**
 * Every kind's report, by kind, from each runner folder's `report.ts` (its `report` export): its verdict in words,
 * its key figure and its own sections. Found by the folder like its `facts` (kinds.ts); loads the report's
 * rendering, no runner code. The import path is built from TEST_KINDS only, never from input.
 */
export const kindReports = Object.fromEntries(
  await Promise.all(TEST_KINDS.map(async (kind) => [kind, ((await import(`./${kind}/report.ts`)) as { report: KindReport }).report] as const)),
) as { readonly [K in TestKind]: KindReport<K> };

/** The report of a summary's kind; none for a kind no longer known (a report stored before it was retired). */
export function reportOf(summary: RunnerSummary): KindReport | undefined {
  return (kindReports as Partial<Record<string, KindReport>>)[summary.kind];
}
