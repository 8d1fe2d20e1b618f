import { and, eq, gt, sql } from 'drizzle-orm';
import { deleteClientRows, findClientRow } from '../../db/client-rows.ts';
import type { Db } from '../../db/database.ts';
import { mobileAppUploads, mobileDeviceProviders } from '../../db/schema/index.ts';

// SQL of the mobile devices feature: a client's one device provider, and its builds in a cloud's app storage.

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
