import { and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { engineLoadGenerators, engineRunTests, type LoadGeneratorResult } from '../../db/schema/index.ts';
import { LOAD_QUEUE, type LoadGeneratorJobData } from '../queue/index.ts';

// The load generators' rows (engine_load_generators), their jobs on pg-boss's table, and the test row they carry.
// The steps and their order are load-generators.ts's; each function here is one statement.

export type LoadGeneratorRow = typeof engineLoadGenerators.$inferSelect;
export type NewLoadGenerator = typeof engineLoadGenerators.$inferInsert;

/** How far ahead of "all ready" the common start is: time for every waiting generator to see it and start its runner. */
export const START_LEAD_MS = 2_000;

/** The generators' rows, once: a retry of the test's job inserts nothing more. Answers the rows inserted. */
export function insertGenerators(tx: Db, rows: NewLoadGenerator[]): Promise<LoadGeneratorRow[]> {
  return tx.insert(engineLoadGenerators).values(rows).onConflictDoNothing().returning();
}

/** The test is running, carried by its generators; `set` says what to show meanwhile. Only while it has not ended. */
export async function startGeneratedTest(tx: Db, runTestId: string, set: Partial<typeof engineRunTests.$inferInsert>): Promise<void> {
  await tx
    .update(engineRunTests)
    .set(set)
    .where(and(eq(engineRunTests.id, runTestId), inArray(engineRunTests.status, ['queued', 'running'])));
}

/** Takes the oldest load-generator job, as pg-boss's own fetch does (one worker gets each job). */
export async function fetchGeneratorJob(db: Db): Promise<{ id: string; data: LoadGeneratorJobData } | null> {
  const result = (await db.execute(sql`
    WITH next AS (
      SELECT id FROM pgboss.job
      WHERE name = ${LOAD_QUEUE} AND state < 'active' AND start_after < now()
      ORDER BY created_on, id
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    UPDATE pgboss.job j SET state = 'active', started_on = now()
    FROM next
    WHERE j.name = ${LOAD_QUEUE} AND j.id = next.id
    RETURNING j.id, j.data
  `)) as unknown as { rows: { id: string; data: LoadGeneratorJobData }[] } | { id: string; data: LoadGeneratorJobData }[];
  const rows = Array.isArray(result) ? result : result.rows;
  return rows[0] ?? null;
}

export async function generatorRow(db: Db, id: string): Promise<LoadGeneratorRow | null> {
  const [row] = await db.select().from(engineLoadGenerators).where(eq(engineLoadGenerators.id, id)).limit(1);
  return row ?? null;
}

export function generatorsOfTest(db: Db, runTestId: string): Promise<LoadGeneratorRow[]> {
  return db.select().from(engineLoadGenerators).where(eq(engineLoadGenerators.runTestId, runTestId)).orderBy(asc(engineLoadGenerators.index));
}

/**
 * Once every generator of the test is ready: the common start on every row, in one statement (a second caller
 * finds it set and changes nothing). Then this generator's row with the start and the database's clock.
 */
export async function trySetStart(db: Db, gen: LoadGeneratorRow): Promise<{ startAt: Date | null; dbNow: Date; status: LoadGeneratorRow['status'] }> {
  await db.execute(sql`
    UPDATE engine_load_generators SET start_at = now() + make_interval(secs => ${START_LEAD_MS / 1000})
    WHERE run_test_id = ${gen.runTestId} AND start_at IS NULL AND closed_at IS NULL
      AND (SELECT count(*) FROM engine_load_generators WHERE run_test_id = ${gen.runTestId} AND status = 'ready') = ${gen.count}
  `);
  const result = (await db.execute(sql`
    UPDATE engine_load_generators SET heartbeat_at = now() WHERE id = ${gen.id}
    RETURNING start_at AS "startAt", now() AS "dbNow", status
  `)) as unknown as { rows: { startAt: string | Date | null; dbNow: string | Date; status: LoadGeneratorRow['status'] }[] } | { startAt: string | Date | null; dbNow: string | Date; status: LoadGeneratorRow['status'] }[];
  const row = (Array.isArray(result) ? result : result.rows)[0];
  if (!row) return { startAt: null, dbNow: new Date(), status: 'error' };
  return { startAt: row.startAt ? new Date(row.startAt) : null, dbNow: new Date(row.dbNow), status: row.status };
}

/** A queued generator taken by this worker is ready. Answers its row, or null when it was no longer queued. */
export async function markGeneratorReady(db: Db, id: string, worker: { workerId: string; host: string }): Promise<LoadGeneratorRow | null> {
  const [ready] = await db
    .update(engineLoadGenerators)
    .set({ status: 'ready', workerId: worker.workerId, host: worker.host, readyAt: new Date(), heartbeatAt: new Date() })
    .where(and(eq(engineLoadGenerators.id, id), eq(engineLoadGenerators.status, 'queued')))
    .returning();
  return ready ?? null;
}

export async function markGeneratorRunning(db: Db, id: string, startedAt: Date): Promise<void> {
  await db.update(engineLoadGenerators).set({ status: 'running', startedAt }).where(eq(engineLoadGenerators.id, id));
}

/** A running generator's heartbeat; answers no row once it was given up as stale. */
export function heartbeatGenerator(db: Db, id: string): Promise<{ id: string }[]> {
  return db
    .update(engineLoadGenerators)
    .set({ heartbeatAt: new Date() })
    .where(and(eq(engineLoadGenerators.id, id), eq(engineLoadGenerators.status, 'running')))
    .returning({ id: engineLoadGenerators.id });
}

/** A running generator hands in its part (or its error). Answers null when the reaper already gave it up. */
export async function endGenerator(db: Db, id: string, handedIn: LoadGeneratorResult | null, error: string | null): Promise<LoadGeneratorRow | null> {
  const [ended] = await db
    .update(engineLoadGenerators)
    .set({ status: handedIn ? 'done' : 'error', result: handedIn, error, finishedAt: new Date() })
    .where(and(eq(engineLoadGenerators.id, id), eq(engineLoadGenerators.status, 'running')))
    .returning();
  return ended ?? null;
}

/** Locks the run test row for the transaction: its generators are closed under this lock, by exactly one caller. */
export async function lockRunTest(tx: Db, runTestId: string): Promise<void> {
  await tx.select({ id: engineRunTests.id }).from(engineRunTests).where(eq(engineRunTests.id, runTestId)).for('update');
}

/** Closes every generator row of the test not closed yet (call it under lockRunTest). */
export async function closeOpenGenerators(tx: Db, runTestId: string, then?: Partial<LoadGeneratorRow>): Promise<void> {
  await tx
    .update(engineLoadGenerators)
    .set({ closedAt: new Date(), ...then })
    .where(and(eq(engineLoadGenerators.runTestId, runTestId), isNull(engineLoadGenerators.closedAt)));
}

/** Ends as errors the generators whose heartbeat is older than `cutoff` (their worker died). Answers them. */
export function endStaleGenerators(db: Db, cutoff: Date): Promise<LoadGeneratorRow[]> {
  return db
    .update(engineLoadGenerators)
    .set({ status: 'error', error: sql`'the worker running this generator stopped (' || coalesce(${engineLoadGenerators.workerId}, '?') || ', last heartbeat ' || ${engineLoadGenerators.heartbeatAt}::text || '): its process was probably killed'`, finishedAt: new Date() })
    .where(and(inArray(engineLoadGenerators.status, ['ready', 'running']), lt(engineLoadGenerators.heartbeatAt, cutoff), isNull(engineLoadGenerators.closedAt)))
    .returning();
}
