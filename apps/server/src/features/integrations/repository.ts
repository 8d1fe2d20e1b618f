import type { BugStatus, IntegrationDelivery, IntegrationKind } from '@fullstop/contracts';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { deleteClientRows } from '../../db/client-rows.ts';
import type { Db } from '../../db/database.ts';
import { bugEvents, bugExports, bugs, integrationAttempts, integrationDeliveries, integrations } from '../../db/schema/index.ts';
import { deliveryStateOf, listAttempts as listDeliveryAttempts } from '../outbox/index.ts';

// SQL of the integrations feature: connections, deliveries and their attempts, and the issues bugs became.

export type IntegrationRow = typeof integrations.$inferSelect;
export type DeliveryRow = typeof integrationDeliveries.$inferSelect;
export type BugRow = typeof bugs.$inferSelect;
export type BugExportRow = typeof bugExports.$inferSelect;

export async function listIntegrations(db: Db, clientId: string): Promise<IntegrationRow[]> {
  return db.select().from(integrations).where(eq(integrations.clientId, clientId)).orderBy(asc(integrations.kind));
}

export async function findIntegration(db: Db, clientId: string, kind: IntegrationKind): Promise<IntegrationRow | null> {
  const [row] = await db.select().from(integrations).where(and(eq(integrations.clientId, clientId), eq(integrations.kind, kind)));
  return row ?? null;
}

export async function upsertIntegration(
  db: Db,
  input: { clientId: string; kind: IntegrationKind; config: Record<string, string>; secret: string; secretHint: string; secretBoundTo: string },
): Promise<IntegrationRow> {
  const [row] = await db
    .insert(integrations)
    .values(input)
    .onConflictDoUpdate({
      target: [integrations.clientId, integrations.kind],
      set: { config: input.config, secret: input.secret, secretHint: input.secretHint, secretBoundTo: input.secretBoundTo, updatedAt: sql`now()` },
    })
    .returning();
  return row!;
}

export async function deleteIntegration(db: Db, clientId: string, kind: IntegrationKind): Promise<boolean> {
  return deleteClientRows(db, integrations, clientId, eq(integrations.kind, kind));
}

export async function findBug(db: Db, bugId: string): Promise<BugRow | null> {
  const [row] = await db.select().from(bugs).where(eq(bugs.id, bugId));
  return row ?? null;
}

/** Where a bug was exported to, for the bug's answer (`exports` of the bugs contract). */
export async function listBugExports(db: Db, bugId: string): Promise<{ target: string; reference: string; url: string | null }[]> {
  const rows = await db.select().from(bugExports).where(eq(bugExports.bugId, bugId)).orderBy(asc(bugExports.createdAt));
  return rows.map((r) => ({ target: r.kind, reference: r.reference, url: r.url }));
}

export async function findBugExport(db: Db, bugId: string, kind: IntegrationKind): Promise<BugExportRow | null> {
  const [row] = await db.select().from(bugExports).where(and(eq(bugExports.bugId, bugId), eq(bugExports.kind, kind)));
  return row ?? null;
}

export async function insertBugExport(
  db: Db,
  input: { bugId: string; clientId: string; kind: IntegrationKind; reference: string; url: string | null; externalId: string },
): Promise<void> {
  await db.insert(bugExports).values(input).onConflictDoNothing();
}

/** The exported issues of bugs still waiting on the client's team: the ones a closed issue moves to fixed. */
export async function listSyncableExports(db: Db, clientId: string | null, statuses: readonly BugStatus[]): Promise<(BugExportRow & { bugStatus: BugStatus })[]> {
  const rows = await db
    .select({ e: bugExports, bugStatus: bugs.status })
    .from(bugExports)
    .innerJoin(bugs, eq(bugs.id, bugExports.bugId))
    .where(and(inArray(bugs.status, [...statuses]), inArray(bugExports.kind, ['github', 'jira']), clientId ? eq(bugExports.clientId, clientId) : undefined));
  return rows.map((r) => ({ ...r.e, bugStatus: r.bugStatus }));
}

export async function setExportState(db: Db, id: string, state: string): Promise<void> {
  await db.update(bugExports).set({ remoteState: state }).where(eq(bugExports.id, id));
}

/**
 * Moves a bug to `to` only while it is in one of `from` (a concurrent change wins), with its history row.
 * The bugs service should own this; until its helpers are reachable here, the same two writes.
 */
export async function moveBugStatus(
  db: Db,
  input: { bugId: string; from: readonly BugStatus[]; to: BugStatus; action: 'fixed'; by: string; reason: string },
): Promise<BugStatus | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ status: bugs.status })
      .from(bugs)
      .where(and(eq(bugs.id, input.bugId), inArray(bugs.status, [...input.from])))
      .for('update');
    if (!before) return null;
    await tx.update(bugs).set({ status: input.to, updatedAt: sql`now()` }).where(eq(bugs.id, input.bugId));
    await tx.insert(bugEvents).values({ bugId: input.bugId, fromStatus: before.status, toStatus: input.to, action: input.action, by: input.by, reason: input.reason });
    return before.status;
  });
}

export async function enqueueDelivery(
  db: Db,
  input: { clientId: string; kind: IntegrationKind; bugId: string | null; event: string; payload: Record<string, unknown> },
): Promise<DeliveryRow> {
  const [row] = await db
    .insert(integrationDeliveries)
    .values({ ...input, nextAttemptAt: sql`now()` })
    .returning();
  return row!;
}

/** Whether the bug's issue is already queued to be made in that tracker (not made twice). */
export async function issueCreationQueued(db: Db, bugId: string, kind: IntegrationKind): Promise<boolean> {
  const rows = await db
    .select({ id: integrationDeliveries.id })
    .from(integrationDeliveries)
    .where(and(eq(integrationDeliveries.bugId, bugId), eq(integrationDeliveries.kind, kind), eq(integrationDeliveries.event, 'bug.issue-created'), inArray(integrationDeliveries.status, ['pending'])))
    .limit(1);
  return rows.length > 0;
}

/** Where the outbox keeps this feature's deliveries and their attempts. */
export const integrationOutboxTables = { deliveries: integrationDeliveries, attempts: integrationAttempts };

/** The client's last 50 deliveries, newest first. */
export async function listDeliveries(db: Db, clientId: string, limit = 50): Promise<IntegrationDelivery[]> {
  const rows = await db
    .select({ d: integrationDeliveries, bugNumber: bugs.number })
    .from(integrationDeliveries)
    .leftJoin(bugs, eq(bugs.id, integrationDeliveries.bugId))
    .where(eq(integrationDeliveries.clientId, clientId))
    .orderBy(desc(integrationDeliveries.createdAt), desc(integrationDeliveries.id))
    .limit(limit);
  return rows.map(({ d, bugNumber }) => ({
    id: d.id,
    kind: d.kind,
    bugId: d.bugId,
    bugNumber: bugNumber ?? null,
    event: d.event,
    ...deliveryStateOf(d),
  }));
}

export async function listAttempts(db: Db, deliveryId: string) {
  return listDeliveryAttempts(db, integrationAttempts, deliveryId);
}
