import type { ManualPlatformValue, ManualSettings } from '@fullstop/contracts';
import { and, asc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { clients, engineRunTests, manualSettings, manualWork, type ManualStepRow } from '../../db/schema/index.ts';

// The manual work's rows (db/schema/manual.ts): the queue's reads and each change a tester makes, every change
// conditional on the work still being where the caller found it.

export type ManualWorkRow = typeof manualWork.$inferSelect;

/** A piece of work with what the queue shows beside it: its test (name, group, status, run) and its client's name. */
export interface ManualWorkView extends ManualWorkRow {
  runId: string;
  testName: string;
  groupName: string;
  testStatus: string;
  clientName: string;
}

const view = {
  work: manualWork,
  runId: engineRunTests.runId,
  testName: engineRunTests.testName,
  groupName: engineRunTests.groupName,
  testStatus: engineRunTests.status,
  clientName: clients.name,
};

const flatten = (r: { work: ManualWorkRow; runId: string; testName: string; groupName: string; testStatus: string; clientName: string }): ManualWorkView => ({
  ...r.work,
  runId: r.runId,
  testName: r.testName,
  groupName: r.groupName,
  testStatus: r.testStatus,
  clientName: r.clientName,
});

/** Work not yet done whose test still waits (a cancelled run's work leaves the queue with it), soonest due first. */
export async function openWork(db: Db): Promise<ManualWorkView[]> {
  const rows = await db
    .select(view)
    .from(manualWork)
    .innerJoin(engineRunTests, eq(engineRunTests.id, manualWork.runTestId))
    .innerJoin(clients, eq(clients.id, manualWork.clientId))
    .where(and(inArray(manualWork.status, ['waiting', 'claimed']), inArray(engineRunTests.status, ['queued', 'running'])))
    .orderBy(asc(manualWork.dueAt), asc(manualWork.createdAt), asc(manualWork.platformIndex))
    .limit(500);
  return rows.map(flatten);
}

export async function findWork(db: Db, id: string): Promise<ManualWorkView | null> {
  const [row] = await db
    .select(view)
    .from(manualWork)
    .innerJoin(engineRunTests, eq(engineRunTests.id, manualWork.runTestId))
    .innerJoin(clients, eq(clients.id, manualWork.clientId))
    .where(eq(manualWork.id, id))
    .limit(1);
  return row ? flatten(row) : null;
}

/** Every piece of one run test's work (its platforms, in order). */
export async function workOfRunTest(db: Db, runTestId: string): Promise<ManualWorkRow[]> {
  return db.select().from(manualWork).where(eq(manualWork.runTestId, runTestId)).orderBy(asc(manualWork.platformIndex));
}

/** The work this operator holds (an unexpired claim), if any. */
export async function heldBy(db: Db, operator: string, now: Date): Promise<ManualWorkRow | null> {
  const [row] = await db
    .select()
    .from(manualWork)
    .where(and(eq(manualWork.status, 'claimed'), eq(manualWork.claimedBy, operator), sql`${manualWork.claimExpiresAt} > ${now}`))
    .limit(1);
  return row ?? null;
}

/**
 * Claims the work for `operator` until `expiresAt`: only when it waits, or its claim ran out, or it is the caller's
 * own (a renewal). Null when someone else holds it or it is done.
 */
export async function claimWork(db: Db, id: string, operator: { id: string; name: string }, now: Date, expiresAt: Date): Promise<ManualWorkRow | null> {
  const [row] = await db
    .update(manualWork)
    .set({ status: 'claimed', claimedBy: operator.id, claimedByName: operator.name, claimedAt: now, claimExpiresAt: expiresAt, startedAt: sql`coalesce(${manualWork.startedAt}, ${now})` })
    .where(
      and(
        eq(manualWork.id, id),
        or(eq(manualWork.status, 'waiting'), and(eq(manualWork.status, 'claimed'), or(lt(manualWork.claimExpiresAt, now), eq(manualWork.claimedBy, operator.id)))),
      ),
    )
    .returning();
  return row ?? null;
}

/** Gives the work back to the queue (what the tester recorded stays for the next one). */
export async function releaseWork(db: Db, id: string, operator: string): Promise<boolean> {
  const rows = await db
    .update(manualWork)
    .set({ status: 'waiting', claimedBy: null, claimedByName: null, claimedAt: null, claimExpiresAt: null })
    .where(and(eq(manualWork.id, id), eq(manualWork.status, 'claimed'), eq(manualWork.claimedBy, operator)))
    .returning({ id: manualWork.id });
  return rows.length > 0;
}

/** Writes the steps of work the caller holds; null when it no longer does. A write renews the claim. */
export async function writeSteps(db: Db, id: string, operator: string, steps: ManualStepRow[], now: Date, expiresAt: Date): Promise<ManualWorkRow | null> {
  const [row] = await db
    .update(manualWork)
    .set({ steps, claimExpiresAt: expiresAt })
    .where(and(eq(manualWork.id, id), eq(manualWork.status, 'claimed'), eq(manualWork.claimedBy, operator), sql`${manualWork.claimExpiresAt} > ${now}`))
    .returning();
  return row ?? null;
}

/** Submits the work the caller holds. */
export async function submitWork(db: Db, id: string, operator: { id: string; name: string }, used: ManualPlatformValue, now: Date): Promise<ManualWorkRow | null> {
  const [row] = await db
    .update(manualWork)
    .set({ status: 'submitted', used, testerName: operator.name, submittedAt: now, claimExpiresAt: null })
    .where(and(eq(manualWork.id, id), eq(manualWork.status, 'claimed'), eq(manualWork.claimedBy, operator.id), sql`${manualWork.claimExpiresAt} > ${now}`))
    .returning();
  return row ?? null;
}

/** Ends every open piece of work past its due time as not run; returns the run tests they belong to. */
export async function expireOverdue(db: Db, now: Date): Promise<string[]> {
  const rows = await db
    .update(manualWork)
    .set({ status: 'not-run', claimExpiresAt: null })
    .where(and(inArray(manualWork.status, ['waiting', 'claimed']), lt(manualWork.dueAt, now)))
    .returning({ runTestId: manualWork.runTestId });
  return [...new Set(rows.map((r) => r.runTestId))];
}

export async function saveManualSettings(db: Db, clientId: string, settings: ManualSettings): Promise<void> {
  await db
    .insert(manualSettings)
    .values({ clientId, ...settings, updatedAt: new Date() })
    .onConflictDoUpdate({ target: manualSettings.clientId, set: { ...settings, updatedAt: new Date() } });
}
