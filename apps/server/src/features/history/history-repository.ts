import type { RunStatus } from '@fullstop/contracts';
import { and, count, desc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { engineRuns, engineRunTests, users } from '../../db/schema/index.ts';
import { RESULT_STATUSES } from '../runs/index.ts';

// The run history: pages of a client's runs with who started them, one run with its tests, and what each of
// those tests did the time before (engine_runs, engine_run_tests, users).

export interface HistoryFilter {
  status?: RunStatus | undefined;
  /** Only runs that included this test. */
  test?: string | undefined;
  /** Only runs created before this moment. */
  before?: string | undefined;
}

/** The run's columns plus the requester's name and the number of tests in it. */
const historyColumns = {
  id: engineRuns.id,
  scope: engineRuns.scope,
  status: engineRuns.status,
  totals: engineRuns.totals,
  trigger: engineRuns.trigger,
  createdAt: engineRuns.createdAt,
  finishedAt: engineRuns.finishedAt,
  requestedBy: users.email,
  testCount: sql<number>`(select count(*) from ${engineRunTests} where ${engineRunTests.runId} = ${engineRuns.id})`.mapWith(Number),
  /** A deploy's run (issue 42): what followed it is the after-deploy report's. */
  afterDeploy: sql<boolean>`(${engineRuns.afterDeploy} is not null)`.mapWith(Boolean),
};
export type HistoryRunRow = Pick<typeof engineRuns.$inferSelect, 'id' | 'scope' | 'status' | 'totals' | 'trigger' | 'createdAt' | 'finishedAt'> & {
  /** The email of the user who started it, when a user did. */
  requestedBy: string | null;
  testCount: number;
  afterDeploy: boolean;
};

function historyWhere(db: Db, clientId: string, filter: HistoryFilter): SQL {
  const conditions = [eq(engineRuns.clientId, clientId)];
  if (filter.status) conditions.push(eq(engineRuns.status, filter.status));
  if (filter.before) conditions.push(lt(engineRuns.createdAt, new Date(filter.before)));
  if (filter.test !== undefined) {
    // Through the run tests' (client, test name) index: the runs that had this test.
    const withTest = db
      .select({ runId: engineRunTests.runId })
      .from(engineRunTests)
      .where(and(eq(engineRunTests.clientId, clientId), eq(engineRunTests.testName, filter.test)));
    conditions.push(inArray(engineRuns.id, withTest));
  }
  return and(...conditions)!;
}

/** One page of the client's runs, newest first, and how many runs the filter matches in all. */
export async function historyPage(
  db: Db,
  clientId: string,
  filter: HistoryFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: HistoryRunRow[]; total: number }> {
  const where = historyWhere(db, clientId, filter);
  const rows = await db
    .select(historyColumns)
    .from(engineRuns)
    .leftJoin(users, eq(users.id, engineRuns.requestedBy))
    .where(where)
    .orderBy(desc(engineRuns.createdAt), desc(engineRuns.id))
    .limit(page.limit)
    .offset(page.offset);
  const [counted] = await db.select({ total: count() }).from(engineRuns).where(where);
  return { rows, total: counted?.total ?? 0 };
}

/** One run of the client with who started it; null when there is none (or it is another client's). */
export async function historyRun(db: Db, clientId: string, runId: string): Promise<HistoryRunRow | null> {
  const [row] = await db
    .select(historyColumns)
    .from(engineRuns)
    .leftJoin(users, eq(users.id, engineRuns.requestedBy))
    .where(and(eq(engineRuns.id, runId), eq(engineRuns.clientId, clientId)))
    .limit(1);
  return row ?? null;
}

export type HistoryTestRow = typeof engineRunTests.$inferSelect;

/** The tests of one run, in the order they were queued. */
export function testsOfRun(db: Db, runId: string): Promise<HistoryTestRow[]> {
  return db.select().from(engineRunTests).where(eq(engineRunTests.runId, runId)).orderBy(engineRunTests.createdAt, engineRunTests.testName);
}


/**
 * For each of these test names, its newest result from an earlier run of the client (queued before `before`):
 * what the run detail compares with. One query, through the (client, test name) index.
 */
export function previousResults(db: Db, clientId: string, testNames: string[], before: Date, exceptRunId: string) {
  if (testNames.length === 0) return Promise.resolve([]);
  return db
    .selectDistinctOn([engineRunTests.testName], {
      testName: engineRunTests.testName,
      status: engineRunTests.status,
      summary: engineRunTests.summary,
      runId: engineRunTests.runId,
      createdAt: engineRunTests.createdAt,
    })
    .from(engineRunTests)
    .where(
      and(
        eq(engineRunTests.clientId, clientId),
        inArray(engineRunTests.testName, testNames),
        inArray(engineRunTests.status, [...RESULT_STATUSES]),
        lt(engineRunTests.createdAt, before),
        sql`${engineRunTests.runId} <> ${exceptRunId}`,
      ),
    )
    .orderBy(engineRunTests.testName, desc(engineRunTests.createdAt));
}
