import type { BugAction, BugSeverity, BugStatus } from '@fullstop/contracts';
import { and, asc, count, desc, eq, inArray, max, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { bugAttachments, bugComments, bugEvents, bugs, clients, engineRuns, users } from '../../db/schema/index.ts';

export type BugRow = typeof bugs.$inferSelect;
export type NewBug = Omit<typeof bugs.$inferInsert, 'id' | 'number' | 'clientId'>;
export type BugAttachmentRow = typeof bugAttachments.$inferSelect;
export type BugEventAction = BugAction | 'create' | 'retest-result';

/**
 * A new bug with the client's next number. The client's row is locked for the transaction, so two bugs created
 * at once never take the same number (the unique index would refuse the second anyway).
 */
export async function insertBug(tx: Db, clientId: string, values: NewBug): Promise<BugRow> {
  await tx.execute(sql`select id from ${clients} where ${clients.id} = ${clientId} for update`);
  const [last] = await tx.select({ n: max(bugs.number) }).from(bugs).where(eq(bugs.clientId, clientId));
  const [row] = await tx.insert(bugs).values({ ...values, clientId, number: (last?.n ?? 0) + 1 }).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function findBug(db: Db, id: string): Promise<BugRow | null> {
  const [row] = await db.select().from(bugs).where(eq(bugs.id, id));
  return row ?? null;
}

/** Locks the bug for the transaction: a status change reads and writes it under this lock. */
export async function lockBug(tx: Db, id: string): Promise<BugRow | null> {
  const [row] = await tx.select().from(bugs).where(eq(bugs.id, id)).for('update');
  return row ?? null;
}

export async function updateBug(tx: Db, id: string, values: Partial<typeof bugs.$inferInsert>): Promise<BugRow | null> {
  const [row] = await tx.update(bugs).set({ ...values, updatedAt: new Date() }).where(eq(bugs.id, id)).returning();
  return row ?? null;
}

export async function insertEvent(
  tx: Db,
  values: { bugId: string; fromStatus: BugStatus | null; toStatus: BugStatus; action: BugEventAction; by: string; reason?: string | null },
): Promise<void> {
  await tx.insert(bugEvents).values({ ...values, reason: values.reason ?? null });
}

export async function insertComment(tx: Db, values: { bugId: string; userId: string | null; side: 'client' | 'operator'; body: string }): Promise<void> {
  await tx.insert(bugComments).values(values);
}

export async function insertAttachment(db: Db, values: Omit<typeof bugAttachments.$inferInsert, 'id' | 'createdAt'>): Promise<BugAttachmentRow> {
  const [row] = await db.insert(bugAttachments).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function findAttachment(db: Db, bugId: string, attachmentId: string): Promise<BugAttachmentRow | null> {
  const [row] = await db.select().from(bugAttachments).where(and(eq(bugAttachments.bugId, bugId), eq(bugAttachments.id, attachmentId)));
  return row ?? null;
}

/** A bug's attachments, comments (with their writers' names) and events, oldest first. */
export async function bugThread(db: Db, bugId: string) {
  const [attachments, comments, events] = await Promise.all([
    db.select().from(bugAttachments).where(eq(bugAttachments.bugId, bugId)).orderBy(asc(bugAttachments.createdAt), asc(bugAttachments.id)),
    db
      .select({ comment: bugComments, username: users.username })
      .from(bugComments)
      .leftJoin(users, eq(users.id, bugComments.userId))
      .where(eq(bugComments.bugId, bugId))
      .orderBy(asc(bugComments.createdAt), asc(bugComments.id)),
    db.select().from(bugEvents).where(eq(bugEvents.bugId, bugId)).orderBy(asc(bugEvents.createdAt), asc(bugEvents.id)),
  ]);
  return { attachments, comments, events };
}

export interface BugFilter {
  clientId?: string | undefined;
  status?: BugStatus | undefined;
  severity?: BugSeverity | undefined;
  /** Clients never see drafts. */
  withDrafts: boolean;
}

function conditions(filter: Omit<BugFilter, 'status'>) {
  return [
    filter.clientId ? eq(bugs.clientId, filter.clientId) : undefined,
    filter.severity ? eq(bugs.severity, filter.severity) : undefined,
    filter.withDrafts ? undefined : ne(bugs.status, 'draft'),
  ];
}

/** Bugs newest first (by last change), with their client's name. */
export async function listBugs(db: Db, filter: BugFilter, limit = 500) {
  return db
    .select({ bug: bugs, clientName: clients.name })
    .from(bugs)
    .innerJoin(clients, eq(clients.id, bugs.clientId))
    .where(and(...conditions(filter), filter.status ? eq(bugs.status, filter.status) : undefined))
    .orderBy(desc(bugs.updatedAt), desc(bugs.number))
    .limit(limit);
}

/** How many bugs are in each status (severity and client filters applied, status filter not). */
export async function countByStatus(db: Db, filter: BugFilter): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: bugs.status, n: count() })
    .from(bugs)
    .where(and(...conditions(filter)))
    .groupBy(bugs.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** The bugs waiting for the result of this run. */
export async function bugsRetestedBy(db: Db, runId: string): Promise<BugRow[]> {
  return db.select().from(bugs).where(and(eq(bugs.retestRunId, runId), eq(bugs.status, 'retest')));
}

/** Retest runs that have ended while their bugs still wait in `retest` (their end was heard by no listener). */
export async function endedRetestRuns(db: Db, clientId: string | undefined): Promise<{ runId: string; status: string }[]> {
  const rows = await db
    .selectDistinct({ runId: engineRuns.id, status: engineRuns.status })
    .from(bugs)
    .innerJoin(engineRuns, eq(engineRuns.id, bugs.retestRunId))
    .where(and(eq(bugs.status, 'retest'), inArray(engineRuns.status, ['passed', 'failed', 'error']), clientId ? eq(bugs.clientId, clientId) : undefined));
  return rows;
}

