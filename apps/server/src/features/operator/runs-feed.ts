import type { OpsRunsPage, OpsRunsQuery } from '@fullstop/contracts';
import type { Finding } from '@fullstop/engine';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { clients, engineRunTests, engineRuns } from '../../db/schema/index.ts';
import { falsePositiveMatcher } from '../engine/alerts/false-positives.ts';
import { findingsOf } from './findings.ts';
import { flakyKey } from './flaky-repository.ts';
import { flakyFlagsOfClients } from '../engine/flaky/flaky-flags.ts';

const FAILING = ['failed', 'error'] as const;

/**
 * One feed of runs across every client: failed and could-not-run runs first, each group newest first; each run
 * with its client's name and its failing tests (their alerts and violations, and whether they are marked flaky).
 */
export async function runsFeed(db: Db, query: { status?: OpsRunsQuery['status']; clientId?: string; page: number; pageSize: number }): Promise<OpsRunsPage> {
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

  const runIds = rows.map((r) => r.runId);
  const tests = runIds.length
    ? await db
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
        .orderBy(asc(engineRunTests.testName))
    : [];

  const clientIds = [...new Set(rows.map((r) => r.clientId))];
  const flaky = await flakyFlagsOfClients(db, clientIds);
  const scanClients = [...new Set(tests.filter((t) => t.summary?.kind === 'security-scan').map((t) => t.clientId))];
  const matchers = new Map<string, (f: Finding) => boolean>(await Promise.all(scanClients.map(async (id) => [id, await falsePositiveMatcher(db, id)] as const)));

  return {
    runs: rows.map((r) => ({
      ...r,
      totals: r.totals ?? null,
      createdAt: r.createdAt.toISOString(),
      finishedAt: r.finishedAt?.toISOString() ?? null,
      // A run test belongs to its run's client; checking both keeps one client's tests out of another's run.
      failingTests: tests
        .filter((t) => t.runId === r.runId && t.clientId === r.clientId)
        .map((t) => ({
          runTestId: t.runTestId,
          testName: t.testName,
          kind: t.kind,
          status: t.status,
          error: t.error,
          findings: findingsOf(t.summary, matchers.get(t.clientId) ?? (() => false)),
          flaky: flaky.has(flakyKey(t.clientId, t.testName)),
          flakyFlag: flaky.get(flakyKey(t.clientId, t.testName)) ?? null,
        })),
    })),
    total: Number(counted?.total ?? 0),
    page: query.page,
    pageSize: query.pageSize,
  };
}
