import type { AlertChannelKind, AlertDelivery, AlertRule } from '@fullstop/contracts';
import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { deleteClientRows } from '../../db/client-rows.ts';
import type { Db } from '../../db/database.ts';
import { alertAttempts, alertChannels, alertDeliveries, alertEvents, alertRunEvaluations, clients, engineRuns, engineRunTests, testFlakyMarks } from '../../db/schema/index.ts';
import { deliveryStateOf, listAttempts } from '../outbox/index.ts';

// SQL of the alerts feature: channels, the evaluation of finished runs, alerts raised, deliveries and attempts.

export type ChannelRow = typeof alertChannels.$inferSelect;
export type AlertDeliveryRow = typeof alertDeliveries.$inferSelect;
export type RunRow = typeof engineRuns.$inferSelect;
export type RunTestRow = typeof engineRunTests.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export async function listChannels(db: Db | Tx, clientId: string): Promise<ChannelRow[]> {
  return db.select().from(alertChannels).where(eq(alertChannels.clientId, clientId)).orderBy(asc(alertChannels.createdAt), asc(alertChannels.id));
}

/** The client's channel, or null (another client's is null too). */
export async function findChannel(db: Db, clientId: string, id: string): Promise<ChannelRow | null> {
  const [row] = await db.select().from(alertChannels).where(and(eq(alertChannels.id, id), eq(alertChannels.clientId, clientId)));
  return row ?? null;
}

type ChannelChange = Partial<Pick<ChannelRow, 'name' | 'target' | 'targetSealed' | 'secret' | 'secretHint' | 'enabled' | 'rules' | 'confirmedAt' | 'confirmTokenHash' | 'confirmExpiresAt' | 'confirmSentAt'>>;

/** A new channel, unless the client already has `max` (null then): counted and inserted under the client's row lock. */
export async function insertChannel(
  db: Db,
  input: { clientId: string; kind: AlertChannelKind; name: string; target: string; enabled: boolean; rules: AlertRule[] } & ChannelChange,
  max: number,
): Promise<ChannelRow | null> {
  return db.transaction(async (tx) => {
    await tx.select({ id: clients.id }).from(clients).where(eq(clients.id, input.clientId)).for('update');
    const [had] = await tx.select({ n: count() }).from(alertChannels).where(eq(alertChannels.clientId, input.clientId));
    if (Number(had?.n ?? 0) >= max) return null;
    const [row] = await tx.insert(alertChannels).values(input).returning();
    return row!;
  });
}

export async function updateChannel(db: Db, id: string, set: ChannelChange): Promise<ChannelRow> {
  const [row] = await db.update(alertChannels).set({ ...set, updatedAt: sql`now()` }).where(eq(alertChannels.id, id)).returning();
  return row!;
}

export async function deleteChannel(db: Db, clientId: string, id: string): Promise<boolean> {
  return deleteClientRows(db, alertChannels, clientId, eq(alertChannels.id, id));
}

/** Confirms the e-mail channel whose link holds this token, once and before it expires: the channel, or null. */
export async function confirmChannel(db: Db, tokenHash: string): Promise<ChannelRow | null> {
  const [row] = await db
    .update(alertChannels)
    .set({ confirmedAt: sql`now()`, confirmTokenHash: null, confirmExpiresAt: null, updatedAt: sql`now()` })
    .where(and(eq(alertChannels.confirmTokenHash, tokenHash), gt(alertChannels.confirmExpiresAt, sql`now()`)))
    .returning();
  return row ?? null;
}

/** Slack and Teams channels made before their URL was sealed (decision 0076). */
export async function listUnsealedChannels(db: Db): Promise<ChannelRow[]> {
  return db.select().from(alertChannels).where(and(inArray(alertChannels.kind, ['slack', 'teams']), isNull(alertChannels.targetSealed)));
}

/** Seals one such channel's URL, unless another process already did. */
export async function sealChannelTarget(db: Db, id: string, set: { target: string; targetSealed: string }): Promise<void> {
  await db.update(alertChannels).set(set).where(and(eq(alertChannels.id, id), isNull(alertChannels.targetSealed)));
}

/** Finished runs not evaluated yet, oldest first. */
export async function unevaluatedRuns(db: Db, limit: number): Promise<RunRow[]> {
  return db
    .select()
    .from(engineRuns)
    // Only the last day's runs (an index range, not the whole history every few seconds): a run that ended longer
    // ago than that, while no process evaluated alerts, is old news and raises none.
    .where(
      and(
        isNotNull(engineRuns.finishedAt),
        sql`${engineRuns.finishedAt} > now() - interval '1 day'`,
        sql`not exists (select 1 from ${alertRunEvaluations} e where e.run_id = ${engineRuns.id})`,
      ),
    )
    .orderBy(asc(engineRuns.finishedAt))
    .limit(limit);
}

/**
 * Claims a run for evaluation inside `tx`: true for exactly one caller. A concurrent claim waits for this
 * transaction and then finds the row; if this one rolls back, the run stays to be evaluated again.
 */
export async function claimRun(tx: Tx, run: RunRow): Promise<boolean> {
  const rows = await tx.insert(alertRunEvaluations).values({ runId: run.id, clientId: run.clientId }).onConflictDoNothing().returning({ runId: alertRunEvaluations.runId });
  return rows.length > 0;
}

export async function runTestsOf(tx: Tx, runId: string): Promise<RunTestRow[]> {
  return tx.select().from(engineRunTests).where(eq(engineRunTests.runId, runId)).orderBy(asc(engineRunTests.createdAt), asc(engineRunTests.id));
}

/** The finished result of the same client's test just before this one (from another run), or null. */
export async function previousResult(tx: Tx, test: RunTestRow): Promise<RunTestRow | null> {
  const [row] = await tx
    .select()
    .from(engineRunTests)
    .where(
      and(
        eq(engineRunTests.clientId, test.clientId),
        eq(engineRunTests.testName, test.testName),
        sql`${engineRunTests.runId} <> ${test.runId}`,
        inArray(engineRunTests.status, ['passed', 'failed', 'error']),
        isNotNull(engineRunTests.finishedAt),
        lt(engineRunTests.finishedAt, test.finishedAt ?? new Date()),
      ),
    )
    .orderBy(desc(engineRunTests.finishedAt))
    .limit(1);
  return row ?? null;
}

export async function flakyTestNames(tx: Tx, clientId: string): Promise<Set<string>> {
  const rows = await tx.select({ name: testFlakyMarks.testName }).from(testFlakyMarks).where(eq(testFlakyMarks.clientId, clientId));
  return new Set(rows.map((r) => r.name));
}

/** Records an alert once per (client, rule, subject, run): the id when new, null when it was already raised. */
export async function insertEvent(tx: Tx, input: { clientId: string; rule: AlertRule; subject: string; state: string; lastRunId: string; title: string }): Promise<string | null> {
  const rows = await tx.insert(alertEvents).values(input).onConflictDoNothing().returning({ id: alertEvents.id });
  return rows[0]?.id ?? null;
}

export async function enqueueAlertDelivery(
  db: Db | Tx,
  input: { clientId: string; channel: ChannelRow; eventId: string | null; rule: string; title: string; runId: string | null; message: Record<string, unknown>; due?: boolean },
): Promise<AlertDeliveryRow> {
  const { channel, due = true, ...rest } = input;
  const [row] = await db
    .insert(alertDeliveries)
    .values({ ...rest, channelId: channel.id, channelName: channel.name, kind: channel.kind, nextAttemptAt: due ? sql`now()` : null })
    .returning();
  return row!;
}

/** Where the outbox keeps this feature's deliveries and their attempts. */
export const alertOutboxTables = { deliveries: alertDeliveries, attempts: alertAttempts };

/** The client's last 50 alert deliveries, newest first. */
export async function listAlertDeliveries(db: Db, clientId: string, limit = 50): Promise<AlertDelivery[]> {
  const rows = await db
    .select()
    .from(alertDeliveries)
    .where(eq(alertDeliveries.clientId, clientId))
    .orderBy(desc(alertDeliveries.createdAt), desc(alertDeliveries.id))
    .limit(limit);
  return rows.map((d) => ({
    id: d.id,
    channelId: d.channelId,
    channelName: d.channelName,
    kind: d.kind,
    rule: d.rule,
    title: d.title,
    runId: d.runId,
    ...deliveryStateOf(d),
  }));
}

export async function listAlertAttempts(db: Db, deliveryId: string) {
  return listAttempts(db, alertAttempts, deliveryId);
}
