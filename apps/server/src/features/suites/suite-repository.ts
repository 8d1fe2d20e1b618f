import { and, desc, eq, inArray, max } from 'drizzle-orm';
import { findClientRow } from '../../db/client-rows.ts';
import type { Db } from '../../db/database.ts';
import { engineRuns, engineSuites } from '../../db/schema/index.ts';

// Imported suite versions (engine_suites).

export type SuiteRow = typeof engineSuites.$inferSelect;
export type NewSuite = Omit<typeof engineSuites.$inferInsert, 'version' | 'isCurrent'>;

/** How many tests a version holds. */
export const testsIn = (suite: Pick<SuiteRow, 'manifest'>) => suite.manifest.groups.reduce((n, g) => n + g.tests.length, 0);

/** The client's current version: the one that runs and lists tests (not always the newest). */
export function currentSuite(db: Db, clientId: string): Promise<SuiteRow | null> {
  return findClientRow(db, engineSuites, clientId, eq(engineSuites.isCurrent, true));
}

/** The current versions of several clients' suites, in one query (a client without one has no row). */
export function currentSuites(db: Db, clientIds: string[]): Promise<SuiteRow[]> {
  return db.select().from(engineSuites).where(and(inArray(engineSuites.clientId, clientIds), eq(engineSuites.isCurrent, true)));
}

/** The client's newest version, current or not (a proposal waiting for review, before the first is current). */
export async function newestSuite(db: Db, clientId: string): Promise<SuiteRow | null> {
  const [row] = await db.select().from(engineSuites).where(eq(engineSuites.clientId, clientId)).orderBy(desc(engineSuites.version)).limit(1);
  return row ?? null;
}

/** One version of the client's suite. */
export function suiteByVersion(db: Db, clientId: string, version: number): Promise<SuiteRow | null> {
  return findClientRow(db, engineSuites, clientId, eq(engineSuites.version, version));
}

/** The suite version a run was queued with. */
export async function suiteOfRun(db: Db, runId: string): Promise<SuiteRow | null> {
  const [row] = await db
    .select({ suite: engineSuites })
    .from(engineRuns)
    .innerJoin(engineSuites, eq(engineSuites.id, engineRuns.suiteId))
    .where(eq(engineRuns.id, runId))
    .limit(1);
  return row?.suite ?? null;
}

/**
 * Stores the suite as the client's next version (the unique key refuses a version taken at the same time);
 * `makeCurrent` makes it the one that runs, otherwise it is kept for trial runs.
 */
export function insertNextSuiteVersion(db: Db, suite: NewSuite, makeCurrent = true): Promise<SuiteRow> {
  return db.transaction(async (tx) => {
    const [last] = await tx.select({ v: max(engineSuites.version) }).from(engineSuites).where(eq(engineSuites.clientId, suite.clientId));
    if (makeCurrent) {
      await tx
        .update(engineSuites)
        .set({ isCurrent: false })
        .where(and(eq(engineSuites.clientId, suite.clientId), eq(engineSuites.isCurrent, true)));
    }
    const [inserted] = await tx
      .insert(engineSuites)
      .values({ ...suite, version: (last?.v ?? 0) + 1, isCurrent: makeCurrent })
      .returning();
    return inserted!;
  });
}

/**
 * Makes this version the one that runs; answers the version that was current before (null: none). Its own
 * transaction, or a savepoint in the caller's (an accepted healing proposal makes its version current with it).
 */
export function setCurrentSuite(db: Db, clientId: string, suiteId: string): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [previous] = await tx
      .update(engineSuites)
      .set({ isCurrent: false })
      .where(and(eq(engineSuites.clientId, clientId), eq(engineSuites.isCurrent, true)))
      .returning({ version: engineSuites.version });
    await tx
      .update(engineSuites)
      .set({ isCurrent: true })
      .where(and(eq(engineSuites.clientId, clientId), eq(engineSuites.id, suiteId)));
    return previous?.version ?? null;
  });
}

/** Every version, newest first. */
export function suiteHistory(db: Db, clientId: string) {
  return db
    .select({ version: engineSuites.version, fileCount: engineSuites.fileCount, importedBy: engineSuites.importedBy, createdAt: engineSuites.createdAt })
    .from(engineSuites)
    .where(eq(engineSuites.clientId, clientId))
    .orderBy(desc(engineSuites.version));
}

/** Every version with its manifest, newest first (the console's list). */
export function suiteVersions(db: Db, clientId: string): Promise<SuiteRow[]> {
  return db.select().from(engineSuites).where(eq(engineSuites.clientId, clientId)).orderBy(desc(engineSuites.version));
}
