import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { engineRuns, engineRunTests } from '../../db/schema/index.ts';

// Where each test's reports are: the run tests that wrote some (engine_run_tests.report_dir / report_formats).

/** The newest reports of each test name. */
export function latestReports(db: Db, clientId: string) {
  return db
    .selectDistinctOn([engineRunTests.testName], {
      testName: engineRunTests.testName,
      group: engineRunTests.groupName,
      formats: engineRunTests.reportFormats,
      finishedAt: engineRunTests.finishedAt,
    })
    .from(engineRunTests)
    .where(and(eq(engineRunTests.clientId, clientId), isNotNull(engineRunTests.reportFormats)))
    .orderBy(engineRunTests.testName, desc(engineRunTests.finishedAt));
}

/** The newest reports of one test, only ever from this client's own runs. */
export async function latestReportOf(db: Db, clientId: string, testName: string) {
  const [row] = await db
    .select({
      runTestId: engineRunTests.id,
      formats: engineRunTests.reportFormats,
      finishedAt: engineRunTests.finishedAt,
      runId: engineRunTests.runId,
    })
    .from(engineRunTests)
    .where(and(eq(engineRunTests.clientId, clientId), eq(engineRunTests.testName, testName), isNotNull(engineRunTests.reportFormats)))
    .orderBy(desc(engineRunTests.finishedAt))
    .limit(1);
  return row ?? null;
}

/** The client's newest finished "Run all" runs, newest first: where the run report is looked for. */
export function latestFinishedRunAlls(db: Db, clientId: string, limit: number) {
  return db
    .select({ id: engineRuns.id, finishedAt: engineRuns.finishedAt })
    .from(engineRuns)
    .where(and(eq(engineRuns.clientId, clientId), eq(engineRuns.scope, 'all'), isNotNull(engineRuns.finishedAt)))
    .orderBy(desc(engineRuns.finishedAt))
    .limit(limit);
}
