import { sql } from 'drizzle-orm';
import { deleteClientRows, findClientRow } from '../../db/client-rows.ts';
import type { Db } from '../../db/database.ts';
import { mobileDeviceProviders } from '../../db/schema/index.ts';

// SQL of the mobile devices feature: a client's one device provider.

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
