import { TREND_RUNS } from '@fullstop/contracts';
import type { TestKind } from '@fullstop/engine';
import { and, desc, eq, inArray, isNotNull, max, or } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { engineRunTests } from '../../db/schema/index.ts';
import { countedTests } from './scan-repository.ts';

export type TrendRunTest = Pick<typeof engineRunTests.$inferSelect, 'runId' | 'summary' | 'totals' | 'finishedAt'>;

/** One run's finished tests of a kind, newest test first; `at` is when the last of them finished. */
export interface RunOfKind {
  runId: string;
  at: string;
  rows: TrendRunTest[];
}

/**
 * The last TREND_RUNS runs of the caller's client that finished a test of `kind` (or of one of the kinds), oldest first: the same runs
 * GET /insight/fetch/all reads its cards from (its card is the newest of them).
 */
export async function lastRunsOfKind(db: Db, clientId: string, kind: TestKind | readonly TestKind[]): Promise<RunOfKind[]> {
  const kinds = typeof kind === 'string' ? [kind] : kind;
  const ofKind = and(eq(engineRunTests.clientId, clientId), or(...kinds.map((k) => and(eq(engineRunTests.kind, k), countedTests(k)))), isNotNull(engineRunTests.finishedAt));
  const finishedAt = max(engineRunTests.finishedAt);
  const runs = await db
    .select({ runId: engineRunTests.runId, at: finishedAt })
    .from(engineRunTests)
    .where(ofKind)
    .groupBy(engineRunTests.runId)
    .orderBy(desc(finishedAt))
    .limit(TREND_RUNS);
  if (runs.length === 0) return [];
  const rows = await db
    .select({ runId: engineRunTests.runId, summary: engineRunTests.summary, totals: engineRunTests.totals, finishedAt: engineRunTests.finishedAt })
    .from(engineRunTests)
    .where(and(ofKind, inArray(engineRunTests.runId, runs.map((r) => r.runId))))
    .orderBy(desc(engineRunTests.finishedAt));
  return runs
    .map((run) => ({ runId: run.runId, at: new Date(run.at ?? 0).toISOString(), rows: rows.filter((row) => row.runId === run.runId) }))
    .reverse();
}
