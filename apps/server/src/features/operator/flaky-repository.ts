import type { FlakyMark } from '@fullstop/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { deleteClientRows } from '../../db/client-rows.ts';
import type { Db } from '../../db/database.ts';
import { testFlakyMarks, users } from '../../db/schema/index.ts';

/** Marks a test flaky, or replaces the note of its mark. */
export async function markFlaky(db: Db, clientId: string, testName: string, note: string | null, markedBy: string | null): Promise<void> {
  await db
    .insert(testFlakyMarks)
    .values({ clientId, testName, note, markedBy, source: 'operator' })
    .onConflictDoUpdate({ target: [testFlakyMarks.clientId, testFlakyMarks.testName], set: { note, markedBy, source: 'operator' } });
}

/** An operator confirms a flag (detected ones then stay until cleared); false when the test is not flagged. */
export async function confirmFlaky(db: Db, clientId: string, testName: string, confirmedBy: string | null): Promise<boolean> {
  const rows = await db
    .update(testFlakyMarks)
    .set({ confirmedBy, confirmedAt: new Date() })
    .where(and(eq(testFlakyMarks.clientId, clientId), eq(testFlakyMarks.testName, testName)))
    .returning({ id: testFlakyMarks.id });
  return rows.length > 0;
}

/** False when the test was not marked. */
export async function clearFlaky(db: Db, clientId: string, testName: string): Promise<boolean> {
  return deleteClientRows(db, testFlakyMarks, clientId, eq(testFlakyMarks.testName, testName));
}

export async function listFlaky(db: Db, clientId: string): Promise<FlakyMark[]> {
  const confirmer = alias(users, 'confirmer');
  const rows = await db
    .select({
      testName: testFlakyMarks.testName,
      note: testFlakyMarks.note,
      markedBy: users.email,
      createdAt: testFlakyMarks.createdAt,
      source: testFlakyMarks.source,
      reason: testFlakyMarks.reason,
      confirmedBy: confirmer.email,
      confirmedAt: testFlakyMarks.confirmedAt,
      detectedAt: testFlakyMarks.detectedAt,
    })
    .from(testFlakyMarks)
    .leftJoin(users, eq(users.id, testFlakyMarks.markedBy))
    .leftJoin(confirmer, eq(confirmer.id, testFlakyMarks.confirmedBy))
    .where(eq(testFlakyMarks.clientId, clientId))
    .orderBy(asc(testFlakyMarks.testName));
  return rows.map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    confirmed: r.source === 'operator' || r.confirmedAt !== null,
    confirmedAt: r.confirmedAt?.toISOString() ?? null,
    detectedAt: r.detectedAt?.toISOString() ?? null,
  }));
}

/** `clientId\ntestName` of every flaky mark of these clients. */
export async function flakyKeys(db: Db, clientIds: string[]): Promise<Set<string>> {
  if (clientIds.length === 0) return new Set();
  const rows = await db
    .select({ clientId: testFlakyMarks.clientId, testName: testFlakyMarks.testName })
    .from(testFlakyMarks)
    .where(inArray(testFlakyMarks.clientId, clientIds));
  return new Set(rows.map((r) => flakyKey(r.clientId, r.testName)));
}

export const flakyKey = (clientId: string, testName: string) => `${clientId}\n${testName}`;
