import { and, desc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { engineRuns, engineRunTests, engineSuites, testFlakyMarks } from '../../db/schema/index.ts';

// Flaky marks (test_flaky_marks) and the results detection reads. Detection itself is flaky-detection.ts.

export type MarkRow = typeof testFlakyMarks.$inferSelect;
export type RecentResult = { status: string; attempts: number; finishedAt: Date | null };

/** The suite version a run was queued with, or null when the run is gone. */
export async function suiteVersionOfRun(db: Db, runId: string): Promise<number | null> {
  const [run] = await db
    .select({ version: engineSuites.version })
    .from(engineRuns)
    .innerJoin(engineSuites, eq(engineSuites.id, engineRuns.suiteId))
    .where(eq(engineRuns.id, runId));
  return run ? run.version : null;
}

/** A test's latest results (passed or failed), newest first, at most `limit`; on one suite version when given. */
export function recentResults(db: Db, test: { clientId: string; testName: string }, limit: number, version?: number): Promise<RecentResult[]> {
  return db
    .select({ status: engineRunTests.status, attempts: engineRunTests.attempts, finishedAt: engineRunTests.finishedAt })
    .from(engineRunTests)
    .innerJoin(engineRuns, eq(engineRuns.id, engineRunTests.runId))
    .innerJoin(engineSuites, eq(engineSuites.id, engineRuns.suiteId))
    .where(
      and(
        eq(engineRunTests.clientId, test.clientId),
        eq(engineRunTests.testName, test.testName),
        inArray(engineRunTests.status, ['passed', 'failed']),
        isNotNull(engineRunTests.finishedAt),
        version === undefined ? undefined : eq(engineSuites.version, version),
      ),
    )
    .orderBy(desc(engineRunTests.finishedAt), desc(engineRunTests.id))
    .limit(limit);
}

export async function markOfTest(db: Db, clientId: string, testName: string): Promise<MarkRow | null> {
  const [mark] = await db
    .select()
    .from(testFlakyMarks)
    .where(and(eq(testFlakyMarks.clientId, clientId), eq(testFlakyMarks.testName, testName)));
  return mark ?? null;
}

/** Flagged again: the detected mark's reason and date are the new ones. */
export async function redetectMark(db: Db, markId: string, reason: string, detectedAt: Date): Promise<void> {
  await db.update(testFlakyMarks).set({ reason, detectedAt }).where(eq(testFlakyMarks.id, markId));
}

/** A detected mark, unless the test has one already. Answers whether this call wrote it. */
export async function insertDetectedMark(db: Db, clientId: string, testName: string, reason: string, detectedAt: Date): Promise<boolean> {
  const inserted = await db
    .insert(testFlakyMarks)
    .values({ clientId, testName, source: 'detected', reason, detectedAt })
    .onConflictDoNothing()
    .returning({ id: testFlakyMarks.id });
  return inserted.length > 0;
}

/** Removes a detected mark no operator confirmed meanwhile. Answers whether this call removed it. */
export async function deleteDetectedMark(db: Db, markId: string): Promise<boolean> {
  const gone = await db
    .delete(testFlakyMarks)
    .where(and(eq(testFlakyMarks.id, markId), eq(testFlakyMarks.source, 'detected'), isNull(testFlakyMarks.confirmedAt)))
    .returning({ id: testFlakyMarks.id });
  return gone.length > 0;
}

/** The marks of one client's tests: all, or these names. */
export function marksOfClient(db: Db, clientId: string, testNames?: string[]): Promise<MarkRow[]> {
  return db
    .select()
    .from(testFlakyMarks)
    .where(and(eq(testFlakyMarks.clientId, clientId), testNames ? inArray(testFlakyMarks.testName, testNames) : undefined));
}

export function marksOfClients(db: Db, clientIds: string[]): Promise<MarkRow[]> {
  return db.select().from(testFlakyMarks).where(inArray(testFlakyMarks.clientId, clientIds));
}
