import { eq } from 'drizzle-orm';
import { deleteClientRows } from '../../db/client-rows.ts';
import type { Db } from '../../db/database.ts';
import { engineTargetOrigins } from '../../db/schema/index.ts';

// Origins beyond its website that a client's tests may reach (engine_target_origins).

export async function listTargetOrigins(db: Db, clientId: string): Promise<string[]> {
  const rows = await db.select({ origin: engineTargetOrigins.origin }).from(engineTargetOrigins).where(eq(engineTargetOrigins.clientId, clientId));
  return rows.map((r) => r.origin);
}

/** Adding an origin already there changes nothing. */
export async function addTargetOrigin(db: Db, clientId: string, origin: string): Promise<void> {
  await db.insert(engineTargetOrigins).values({ clientId, origin }).onConflictDoNothing();
}

/** False when the origin was not added. */
export async function removeTargetOrigin(db: Db, clientId: string, origin: string): Promise<boolean> {
  return deleteClientRows(db, engineTargetOrigins, clientId, eq(engineTargetOrigins.origin, origin));
}
