import { type InsightTrends, loadInsight } from '@fullstop/contracts';
import type { Finding, RunnerSummary } from '@fullstop/engine';
import type { Db } from '../../db/database.ts';
import { falsePositiveMatcher } from '../findings/index.ts';
import { sumTotals, zapCounts } from './insight-maths.ts';
import { FRONTEND_KINDS } from './compute-insights.ts';
import { lastRunsOfKind, type RunOfKind } from './insight-trend-repository.ts';

/** The newest runner summary of a kind in one run, as the insight card takes the newest. */
function latestSummary<K extends RunnerSummary['kind']>(run: RunOfKind, kind: K): Extract<RunnerSummary, { kind: K }> | null {
  for (const row of run.rows) {
    const summary = row.summary as RunnerSummary | null;
    if (summary?.kind === kind) return summary as Extract<RunnerSummary, { kind: K }>;
  }
  return null;
}

/** Passed tests over all tests of the kind in the run, in percent (the pie of the card, as one number). */
function passRate(run: RunOfKind): number | null {
  const { totalTests, passedTests } = sumTotals(run.rows);
  return totalTests > 0 ? Math.round((passedTests / totalTests) * 10_000) / 100 : null;
}

/** Alerts by risk, without the ones an operator marked false positives (the Zap card counts those apart). */
function alertsByRisk(findings: Finding[], isFalse: (f: Finding) => boolean) {
  const { 'False Positives': _falsePositives, ...counts } = zapCounts(findings, isFalse);
  return counts;
}

function passRateTrend(runs: RunOfKind[]) {
  const points = runs.flatMap((run) => {
    const rate = passRate(run);
    return rate === null ? [] : [{ runId: run.runId, at: run.at, passRate: rate }];
  });
  return points.length > 0 ? { runAt: runs.at(-1)!.at, points } : undefined;
}

/**
 * GET /insight/trends for one client: per insight card, the date of the run its figures come from and a point
 * per run over the last TREND_RUNS runs of its kind. A card without runs is left out, as /insight/fetch/all does.
 */
export async function insightTrendsOf(db: Db, clientId: string): Promise<InsightTrends> {
  const out: InsightTrends = {};

  const loadPoints = (await lastRunsOfKind(db, clientId, 'load')).flatMap((run) => {
    const summary = latestSummary(run, 'load');
    if (!summary) return [];
    const load = loadInsight.parse(summary.load);
    return [{ runId: run.runId, at: run.at, p95Ms: load.ninetyFifthPercentileResponseTime, averageMs: load.averageResponseTime, failedRate: load.failedRequestsRate }];
  });
  if (loadPoints.length > 0) out.load = { runAt: loadPoints.at(-1)!.at, points: loadPoints };

  const scanRuns = await lastRunsOfKind(db, clientId, 'security-scan');
  if (scanRuns.length > 0) {
    const isFalse = await falsePositiveMatcher(db, clientId);
    const zapPoints = scanRuns.flatMap((run) => {
      const summary = latestSummary(run, 'security-scan');
      return summary ? [{ runId: run.runId, at: run.at, ...alertsByRisk(summary.findings, isFalse) }] : [];
    });
    if (zapPoints.length > 0) out.zap = { runAt: zapPoints.at(-1)!.at, points: zapPoints };
  }

  const frontend = passRateTrend(await lastRunsOfKind(db, clientId, FRONTEND_KINDS));
  if (frontend) out['frontend-report'] = frontend;
  const security = passRateTrend(await lastRunsOfKind(db, clientId, 'security-checks'));
  if (security) out['security-report'] = security;
  return out;
}
