import { type Insights, loadInsight, type TestReportInsight } from '@fullstop/contracts';
import type { RunnerSummary } from '@fullstop/engine';
import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../../../db/database.ts';
import { engineRunTests } from '../../../db/schema/index.ts';
import { falsePositiveMatcher } from '../alerts/false-positives.ts';

const FINISHED = ['passed', 'failed'] as const;

/**
 * GET /insight/fetch/all, computed from each kind's latest finished run (one that produced a summary):
 * load ← load, zap ← security-scan, frontend-report ← browser, security-report ← security-checks.
 * A key is absent while its kind has never run. The two test reports add up every test of that kind in the
 * latest run that had one, so "Run all" with three browser tests shows all three.
 */
export async function computeInsights(db: Db, clientId: string): Promise<Insights> {
  const out: Insights = {};
  const latest = async (kind: string) => {
    const [row] = await db
      .select()
      .from(engineRunTests)
      .where(and(eq(engineRunTests.clientId, clientId), eq(engineRunTests.kind, kind), inArray(engineRunTests.status, [...FINISHED]), isNotNull(engineRunTests.summary)))
      .orderBy(desc(engineRunTests.finishedAt))
      .limit(1);
    return row ?? null;
  };

  const load = await latest('load');
  const loadSummary = load?.summary as RunnerSummary | undefined;
  if (loadSummary?.kind === 'load') out.load = loadInsight.parse(loadSummary.load);

  const scan = await latest('security-scan');
  const scanSummary = scan?.summary as RunnerSummary | undefined;
  if (scanSummary?.kind === 'security-scan') {
    const isFalse = await falsePositiveMatcher(db, clientId);
    const zap = { High: 0, Medium: 0, Low: 0, Informational: 0, 'False Positives': 0 };
    for (const f of scanSummary.findings) {
      if (isFalse(f)) zap['False Positives']++;
      else zap[f.risk]++;
    }
    out.zap = zap;
  }

  const frontend = await testReport(db, clientId, 'browser', await latest('browser'));
  if (frontend) out['frontend-report'] = frontend;
  const security = await testReport(db, clientId, 'security-checks', await latest('security-checks'));
  if (security) out['security-report'] = security;
  return out;
}

async function testReport(
  db: Db,
  clientId: string,
  kind: string,
  latest: typeof engineRunTests.$inferSelect | null,
): Promise<TestReportInsight | null> {
  if (!latest) return null;
  const rows = await db
    .select()
    .from(engineRunTests)
    .where(
      and(
        eq(engineRunTests.clientId, clientId),
        eq(engineRunTests.runId, latest.runId),
        eq(engineRunTests.kind, kind),
        inArray(engineRunTests.status, [...FINISHED]),
      ),
    );
  const r: TestReportInsight = { totalTests: 0, passedTests: 0, failedTests: 0, skippedTests: 0, duration: 0 };
  let ms = 0;
  for (const row of rows) {
    r.totalTests += row.totals?.totalTests ?? 0;
    r.passedTests += row.totals?.passedTests ?? 0;
    r.failedTests += row.totals?.failedTests ?? 0;
    r.skippedTests += row.totals?.skippedTests ?? 0;
    ms += row.durationMs ?? 0;
  }
  r.duration = Math.round(ms / 100) / 10;
  return r;
}
