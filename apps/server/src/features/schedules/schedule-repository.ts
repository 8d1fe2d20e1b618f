import type { ScheduleScope } from '@fullstop/contracts';
import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { deleteClientRows } from '../../db/client-rows.ts';
import type { Db } from '../../db/database.ts';
import { clientSchedules, engineRuns, engineRunTests } from '../../db/schema/index.ts';

export type ScheduleRow = typeof clientSchedules.$inferSelect;

export function scopeOf(row: Pick<ScheduleRow, 'scopeKind' | 'scopeName'>): ScheduleScope {
  return row.scopeKind === 'all' ? { kind: 'all' } : { kind: row.scopeKind, name: row.scopeName ?? '' };
}

export function scopeColumns(scope: ScheduleScope): Pick<ScheduleRow, 'scopeKind' | 'scopeName'> {
  return { scopeKind: scope.kind, scopeName: scope.kind === 'all' ? null : scope.name };
}

export function listClientSchedules(db: Db, clientId: string): Promise<ScheduleRow[]> {
  return db.select().from(clientSchedules).where(eq(clientSchedules.clientId, clientId)).orderBy(asc(clientSchedules.createdAt), asc(clientSchedules.id));
}

/** The schedule, only if it is this client's. */
export async function findClientSchedule(db: Db, clientId: string, scheduleId: string): Promise<ScheduleRow | null> {
  const [row] = await db.select().from(clientSchedules).where(and(eq(clientSchedules.id, scheduleId), eq(clientSchedules.clientId, clientId))).limit(1);
  return row ?? null;
}

export async function insertSchedule(db: Db, row: typeof clientSchedules.$inferInsert): Promise<ScheduleRow> {
  const [inserted] = await db.insert(clientSchedules).values(row).returning();
  return inserted!;
}

export async function updateSchedule(db: Db, id: string, set: Partial<typeof clientSchedules.$inferInsert>): Promise<ScheduleRow> {
  const [updated] = await db.update(clientSchedules).set(set).where(eq(clientSchedules.id, id)).returning();
  return updated!;
}

export async function deleteSchedule(db: Db, clientId: string, id: string): Promise<boolean> {
  return deleteClientRows(db, clientSchedules, clientId, eq(clientSchedules.id, id));
}

/** Every schedule that is not paused: one query per tick, whatever the number of clients. */
export function activeSchedules(db: Db): Promise<ScheduleRow[]> {
  return db.select().from(clientSchedules).where(eq(clientSchedules.paused, false));
}

/**
 * Takes the ticks still due (call it inside the transaction that queues their runs): locks the schedules in id order
 * (no deadlock between two processes), then sets `last_tick_at` only where it is older than the tick and the
 * schedule is not paused. A second process waits here for the first's commit and finds the ticks taken. Answers
 * the ids claimed.
 */
export async function claimDueTicks(tx: Db, due: { id: string; tick: Date }[]): Promise<Set<string>> {
  const ids = due.map((d) => d.id);
  const ticks = due.map((d) => d.tick.toISOString());
  const claimed = await tx.execute(sql`
      WITH due AS (SELECT unnest(${sql.param(ids)}::text[]) AS id, unnest(${sql.param(ticks)}::timestamptz[]) AS tick),
      locked AS (SELECT s.id FROM client_schedules s JOIN due ON due.id = s.id ORDER BY s.id FOR UPDATE OF s)
      UPDATE client_schedules s SET last_tick_at = due.tick
      FROM due, locked
      WHERE s.id = due.id AND locked.id = s.id AND NOT s.paused AND s.last_tick_at < due.tick
      RETURNING s.id`);
  return new Set((Array.isArray(claimed) ? claimed : (claimed as { rows: { id: string }[] }).rows).map((r: { id: string }) => r.id));
}

/** The scheduled runs, in one statement. */
export function insertScheduledRuns(tx: Db, runs: (typeof engineRuns.$inferInsert)[]): Promise<(typeof engineRuns.$inferSelect)[]> {
  return tx.insert(engineRuns).values(runs).returning();
}

/** Their tests, in one statement (call it with at least one). */
export function insertScheduledTests(tx: Db, tests: (typeof engineRunTests.$inferInsert)[]): Promise<(typeof engineRunTests.$inferSelect)[]> {
  return tx.insert(engineRunTests).values(tests).returning();
}

/** Each schedule's latest run, for the schedules that started one. */
export async function recordScheduledRuns(tx: Db, started: { scheduleId: string; runId: string }[]): Promise<void> {
  await tx.execute(sql`
      UPDATE client_schedules s SET last_run_id = r.run_id, last_run_at = now()
      FROM (SELECT unnest(${sql.param(started.map((s) => s.scheduleId))}::text[]) AS id, unnest(${sql.param(started.map((s) => s.runId))}::text[]) AS run_id) r
      WHERE s.id = r.id`);
}

/** Each test's latest duration (ms) for many clients in one query: what lastDurations (run-repository) reads for one. */
export function lastDurationRows(db: Db, clientIds: string[]): Promise<{ clientId: string; testName: string; durationMs: number | null }[]> {
  return db
    .selectDistinctOn([engineRunTests.clientId, engineRunTests.testName], { clientId: engineRunTests.clientId, testName: engineRunTests.testName, durationMs: engineRunTests.durationMs })
    .from(engineRunTests)
    .where(and(inArray(engineRunTests.clientId, clientIds), isNotNull(engineRunTests.durationMs)))
    .orderBy(engineRunTests.clientId, engineRunTests.testName, desc(engineRunTests.finishedAt));
}
