import type { ScheduleScope } from '@fullstop/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../../db/database.ts';
import { clientSchedules } from '../../../db/schema/index.ts';

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
  const rows = await db.delete(clientSchedules).where(and(eq(clientSchedules.id, id), eq(clientSchedules.clientId, clientId))).returning({ id: clientSchedules.id });
  return rows.length > 0;
}

/** Every schedule that is not paused: one query per tick, whatever the number of clients. */
export function activeSchedules(db: Db): Promise<ScheduleRow[]> {
  return db.select().from(clientSchedules).where(eq(clientSchedules.paused, false));
}
