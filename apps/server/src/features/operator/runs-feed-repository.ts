import type { OpsRunsQuery } from '@fullstop/contracts';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { clients, engineRunTests, engineRuns } from '../../db/schema/index.ts';

// The reads behind the console's runs feed (runs-feed.ts).

export interface FeedQuery {
  status?: OpsRunsQuery['status'];
  clientId?: string;
  page: number;
  pageSize: number;
}

const FAILING = ['failed', 'error'] as const;

/** One page of runs across every client, failed and could-not-run first, each group newest first; and how many in all. */
export async function feedPage(db: Db, query: FeedQuery) {
  const where = and(query.status ? eq(engineRuns.status, query.status) : undefined, query.clientId ? eq(engineRuns.clientId, query.clientId) : undefined);
  const failuresFirst = sql`case when ${engineRuns.status} in ('failed', 'error') then 0 else 1 end`;
  const rows = await db
    .select({
      runId: engineRuns.id,
      clientId: engineRuns.clientId,
      clientName: clients.name,
      scope: engineRuns.scope,
      status: engineRuns.status,
      trigger: engineRuns.trigger,
      totals: engineRuns.totals,
      createdAt: engineRuns.createdAt,
      finishedAt: engineRuns.finishedAt,
    })
    .from(engineRuns)
    .innerJoin(clients, eq(clients.id, engineRuns.clientId))
    .where(where)
    .orderBy(asc(failuresFirst), desc(engineRuns.createdAt), desc(engineRuns.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [counted] = await db.select({ total: count() }).from(engineRuns).where(where);
  return { rows, total: Number(counted?.total ?? 0) };
}

/** The failed and could-not-run tests of these runs, by test name. */
export function failingTestsOf(db: Db, runIds: string[]) {
  return db
    .select({
      runId: engineRunTests.runId,
      clientId: engineRunTests.clientId,
      runTestId: engineRunTests.id,
      testName: engineRunTests.testName,
      kind: engineRunTests.kind,
      status: engineRunTests.status,
      error: engineRunTests.error,
      summary: engineRunTests.summary,
    })
    .from(engineRunTests)
    .where(and(inArray(engineRunTests.runId, runIds), inArray(engineRunTests.status, [...FAILING])))
    .orderBy(asc(engineRunTests.testName));
}
