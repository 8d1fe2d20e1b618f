import { desc, eq, max } from 'drizzle-orm';
import type { Db } from '../../../db/database.ts';
import { engineRuns, engineSuites } from '../../../db/schema/index.ts';

// Imported suite versions (engine_suites).

export type SuiteRow = typeof engineSuites.$inferSelect;
export type NewSuite = Omit<typeof engineSuites.$inferInsert, 'version'>;

/** The client's newest version: the one that runs. */
export async function currentSuite(db: Db, clientId: string): Promise<SuiteRow | null> {
  const [row] = await db.select().from(engineSuites).where(eq(engineSuites.clientId, clientId)).orderBy(desc(engineSuites.version)).limit(1);
  return row ?? null;
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

/** Stores the suite as the client's next version (the unique key refuses a version taken at the same time). */
export function insertNextSuiteVersion(db: Db, suite: NewSuite): Promise<SuiteRow> {
  return db.transaction(async (tx) => {
    const [last] = await tx.select({ v: max(engineSuites.version) }).from(engineSuites).where(eq(engineSuites.clientId, suite.clientId));
    const [inserted] = await tx
      .insert(engineSuites)
      .values({ ...suite, version: (last?.v ?? 0) + 1 })
      .returning();
    return inserted!;
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
