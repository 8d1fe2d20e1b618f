import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { deleteClientRows, findClientRow } from '../../db/client-rows.ts';
import type { Db } from '../../db/database.ts';
import { cloudCellSessions, mobileAppUploads, mobileDeviceProviders } from '../../db/schema/index.ts';

// SQL of the mobile devices feature: a client's one device provider, its builds in a cloud's app storage, and the time
// browser tests' cloud cells hold a session on it.

export type MobileProviderRow = typeof mobileDeviceProviders.$inferSelect;
export type MobileProviderInput = Omit<typeof mobileDeviceProviders.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

export async function findMobileProvider(db: Db, clientId: string): Promise<MobileProviderRow | null> {
  return findClientRow(db, mobileDeviceProviders, clientId);
}

export async function upsertMobileProvider(db: Db, input: MobileProviderInput): Promise<MobileProviderRow> {
  const { clientId: _clientId, ...set } = input;
  const [row] = await db
    .insert(mobileDeviceProviders)
    .values(input)
    .onConflictDoUpdate({ target: [mobileDeviceProviders.clientId], set: { ...set, updatedAt: sql`now()` } })
    .returning();
  return row!;
}

export async function deleteMobileProvider(db: Db, clientId: string): Promise<boolean> {
  return deleteClientRows(db, mobileDeviceProviders, clientId);
}

/** The app id a cloud's storage gave this build (by sha256) since `since`, or null. */
export async function findAppUpload(db: Db, clientId: string, storage: string, sha256: string, since: Date): Promise<string | null> {
  const [row] = await db
    .select({ appId: mobileAppUploads.appId })
    .from(mobileAppUploads)
    .where(and(eq(mobileAppUploads.clientId, clientId), eq(mobileAppUploads.storage, storage), eq(mobileAppUploads.sha256, sha256), gt(mobileAppUploads.createdAt, since)))
    .limit(1);
  return row?.appId ?? null;
}

export async function saveAppUpload(db: Db, input: { clientId: string; storage: string; sha256: string; appId: string }): Promise<void> {
  await db
    .insert(mobileAppUploads)
    .values(input)
    .onConflictDoUpdate({ target: [mobileAppUploads.clientId, mobileAppUploads.storage, mobileAppUploads.sha256], set: { appId: input.appId, createdAt: sql`now()` } });
}

/** A cloud cell got its session: its time counts from now toward its run's cap. */
export async function startCloudCellSession(db: Db, input: { clientId: string; runId: string; attemptId: string; cellIndex: number; cell: string; provider: string }): Promise<string> {
  const [row] = await db.insert(cloudCellSessions).values(input).returning({ id: cloudCellSessions.id });
  return row!.id;
}

/** The cell let its session go (or its attempt ended). */
export async function endCloudCellSession(db: Db, id: string): Promise<void> {
  await db.update(cloudCellSessions).set({ endedAt: sql`now()` }).where(and(eq(cloudCellSessions.id, id), isNull(cloudCellSessions.endedAt)));
}

/** The minutes a run's cloud cells have held sessions so far (an open one up to now), across its tests and processes. */
export async function cloudMinutesUsed(db: Db, runId: string): Promise<number> {
  const [row] = await db
    .select({ seconds: sql<string | number | null>`coalesce(sum(extract(epoch from (coalesce(${cloudCellSessions.endedAt}, now()) - ${cloudCellSessions.startedAt}))), 0)` })
    .from(cloudCellSessions)
    .where(eq(cloudCellSessions.runId, runId));
  return Number(row?.seconds ?? 0) / 60;
}
