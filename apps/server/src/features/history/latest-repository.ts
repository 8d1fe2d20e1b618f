import type { TestLatestResult } from '@fullstop/contracts';
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { engineRunTests } from '../../db/schema/index.ts';
import { RESULT_STATUSES } from '../runs/index.ts';
import { cellCasesOf } from './cell-cases.ts';

/**
 * The latest finished result of each named test of one client (GET /test/latest), in one query: the newest
 * row per test name, plus the formats of that test's newest report. That report may come from an earlier run
 * when the latest one could not run: it is the one GET /report/fetch/{testName}/{format} serves.
 */
export async function latestTestResults(db: Db, clientId: string, testNames: readonly string[]): Promise<TestLatestResult[]> {
  if (testNames.length === 0) return [];
  const rows = await db
    .selectDistinctOn([engineRunTests.testName], {
      testName: engineRunTests.testName,
      group: engineRunTests.groupName,
      kind: engineRunTests.kind,
      status: engineRunTests.status,
      error: engineRunTests.error,
      totals: engineRunTests.totals,
      durationMs: engineRunTests.durationMs,
      finishedAt: engineRunTests.finishedAt,
      runId: engineRunTests.runId,
      runTestId: engineRunTests.id,
      summary: engineRunTests.summary,
      reportFormats: sql<string[] | null>`(
        select r.report_formats from ${engineRunTests} r
        where r.client_id = ${engineRunTests.clientId} and r.test_name = ${engineRunTests.testName} and r.report_formats is not null
        order by r.finished_at desc nulls last limit 1
      )`,
    })
    .from(engineRunTests)
    .where(
      and(
        eq(engineRunTests.clientId, clientId),
        inArray(engineRunTests.testName, [...testNames]),
        inArray(engineRunTests.status, [...RESULT_STATUSES]),
        isNotNull(engineRunTests.finishedAt),
      ),
    )
    .orderBy(engineRunTests.testName, desc(engineRunTests.finishedAt));
  return rows.map(({ summary, ...r }) => {
    const cases = cellCasesOf(summary);
    return {
      ...r,
      totals: r.totals ?? null,
      finishedAt: r.finishedAt?.toISOString() ?? null,
      reportFormats: parseFormats(r.reportFormats),
      ...(cases ? { cases } : {}),
    };
  });
}

/** jsonb read through raw SQL: drivers give it parsed, or as text. */
function parseFormats(value: unknown): string[] {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? parsed.filter((f): f is string => typeof f === 'string') : [];
}
