import { type Insights, loadInsight, type TestReportInsight } from '@fullstop/contracts';
import type { TestKind } from '@fullstop/engine';
import type { Db } from '../../db/database.ts';
import { falsePositiveMatcher } from '../findings/index.ts';
import { sumTotals, zapCounts } from './insight-maths.ts';
import { latestCountedScan } from './scan-repository.ts';
import { finishedOfKindInRun, latestFinishedOfKind, type RunTestRow } from '../runs/index.ts';

/**
 * GET /insight/fetch/all, computed from each kind's latest finished run (one that produced a summary):
 * load ← load, zap ← security-scan (finished or incomplete), frontend-report ← FRONTEND_KINDS,
 * security-report ← security-checks.
 * A key is absent while its kind has never run. The two test reports add up every test of those kinds in the
 * latest run that had one, so "Run all" with three browser tests shows all three.
 */
/**
 * The kinds the frontend card adds up: the site's browser tests, the app's mobile UI tests (issue 28), checkouts
 * with sandbox cards (issue 43) and manual cases, each execution a test (issue 41).
 */
export const FRONTEND_KINDS: readonly TestKind[] = ['browser', 'mobile-ui', 'payment', 'manual'];

export async function computeInsights(db: Db, clientId: string): Promise<Insights> {
  const out: Insights = {};
  const latest = (kind: TestKind) => latestFinishedOfKind(db, clientId, kind);

  const loadSummary = (await latest('load'))?.summary;
  if (loadSummary?.kind === 'load') out.load = loadInsight.parse(loadSummary.load);

  // An incomplete scan counts too, marked as such (decision 0058).
  const scanSummary = (await latestCountedScan(db, clientId))?.summary;
  if (scanSummary?.kind === 'security-scan') {
    const coverage = scanSummary.coverage;
    out.zap = {
      ...zapCounts(scanSummary.findings, await falsePositiveMatcher(db, clientId)),
      ...(coverage && !coverage.complete ? { incomplete: coverage.incomplete ?? 'part of the site was not attacked' } : {}),
      // It attacked nothing: the counts are the passive checks' alone, never a green "No alerts found" (issue 38).
      ...(coverage?.nothingToAttack ? { nothingToAttack: coverage.nothingToAttack } : {}),
    };
  }

  const frontend = await testReport(db, clientId, FRONTEND_KINDS, await newestOf(await Promise.all(FRONTEND_KINDS.map(latest))));
  if (frontend) out['frontend-report'] = frontend;
  const security = await testReport(db, clientId, ['security-checks'], await latest('security-checks'));
  if (security) out['security-report'] = security;
  return out;
}

/** The one that finished last. */
function newestOf(rows: (RunTestRow | null)[]): RunTestRow | null {
  return rows.reduce<RunTestRow | null>((a, b) => (b && (!a || (b.finishedAt?.getTime() ?? 0) > (a.finishedAt?.getTime() ?? 0)) ? b : a), null);
}

async function testReport(db: Db, clientId: string, kinds: readonly TestKind[], latest: RunTestRow | null): Promise<TestReportInsight | null> {
  if (!latest) return null;
  const rows = (await Promise.all(kinds.map((kind) => finishedOfKindInRun(db, clientId, latest.runId, kind)))).flat();
  const { durationMs, ...totals } = sumTotals(rows);
  return { ...totals, duration: Math.round(durationMs / 100) / 10 };
}
