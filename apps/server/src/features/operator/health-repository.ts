import { OPEN_BUG_STATUSES, type ClientHealth } from '@fullstop/contracts';
import { and, count, desc, eq, inArray, isNotNull, notInArray } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database.ts';
import { bugs, clientRequests, engineRunTests, engineRuns, engineSuites } from '../../db/schema/index.ts';

/** A test's latest result counts as failing when it failed or could not run. */
const FAILING = ['failed', 'error'] as const;
const RESULTS = ['passed', 'failed', 'error'] as const;
const DONE_REQUESTS = ['done', 'declined'] as const;

const EMPTY: ClientHealth = { lastRun: null, failingTests: 0, openBugs: 0, requestsWaiting: 0, hasSuite: false };

/** Health of every client (or of one): five grouped queries, whatever the number of clients. */
export async function clientHealthMap(db: Db, clientId?: string): Promise<Map<string, ClientHealth>> {
  const only = (column: AnyPgColumn) => (clientId ? eq(column, clientId) : undefined);

  const lastRuns = await db
    .selectDistinctOn([engineRuns.clientId], {
      clientId: engineRuns.clientId,
      id: engineRuns.id,
      status: engineRuns.status,
      createdAt: engineRuns.createdAt,
      finishedAt: engineRuns.finishedAt,
    })
    .from(engineRuns)
    .where(only(engineRuns.clientId))
    .orderBy(engineRuns.clientId, desc(engineRuns.createdAt), desc(engineRuns.id));

  // The newest result of each test of each client, then those that fail.
  const latest = db
    .selectDistinctOn([engineRunTests.clientId, engineRunTests.testName], { clientId: engineRunTests.clientId, status: engineRunTests.status })
    .from(engineRunTests)
    .where(and(only(engineRunTests.clientId), inArray(engineRunTests.status, [...RESULTS]), isNotNull(engineRunTests.finishedAt)))
    .orderBy(engineRunTests.clientId, engineRunTests.testName, desc(engineRunTests.finishedAt))
    .as('latest');
  const failing = await db
    .select({ clientId: latest.clientId, n: count() })
    .from(latest)
    .where(inArray(latest.status, [...FAILING]))
    .groupBy(latest.clientId);

  const openBugs = await db
    .select({ clientId: bugs.clientId, n: count() })
    .from(bugs)
    .where(and(only(bugs.clientId), inArray(bugs.status, [...OPEN_BUG_STATUSES])))
    .groupBy(bugs.clientId);

  // Counted as "not finished" so a renamed or added status still counts as waiting.
  const waiting = await db
    .select({ clientId: clientRequests.clientId, n: count() })
    .from(clientRequests)
    .where(and(only(clientRequests.clientId), notInArray(clientRequests.status, [...DONE_REQUESTS])))
    .groupBy(clientRequests.clientId);

  const suites = await db
    .select({ clientId: engineSuites.clientId })
    .from(engineSuites)
    .where(and(only(engineSuites.clientId), eq(engineSuites.isCurrent, true)));

  const map = new Map<string, ClientHealth>();
  const entry = (id: string) => {
    let h = map.get(id);
    if (!h) map.set(id, (h = { ...EMPTY }));
    return h;
  };
  for (const r of lastRuns) {
    entry(r.clientId).lastRun = { id: r.id, status: r.status, createdAt: r.createdAt.toISOString(), finishedAt: r.finishedAt?.toISOString() ?? null };
  }
  for (const r of failing) entry(r.clientId).failingTests = Number(r.n);
  for (const r of openBugs) entry(r.clientId).openBugs = Number(r.n);
  for (const r of waiting) entry(r.clientId).requestsWaiting = Number(r.n);
  for (const r of suites) entry(r.clientId).hasSuite = true;
  return map;
}

export const healthOf = (map: Map<string, ClientHealth>, clientId: string): ClientHealth => map.get(clientId) ?? { ...EMPTY };
