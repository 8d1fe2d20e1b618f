import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './database.ts';

/** A table whose rows belong to one client each. */
type ClientTable = PgTable & { id: PgColumn; clientId: PgColumn };

/**
 * Deletes the client's rows that match every condition; false when there were none. A client can only ever remove
 * its own rows, so the client condition is written here once rather than in each repository.
 */
export async function deleteClientRows(db: Db, table: ClientTable, clientId: string, ...matches: SQL[]): Promise<boolean> {
  const removed = await db
    .delete(table)
    .where(and(eq(table.clientId, clientId), ...matches))
    .returning({ id: table.id });
  return removed.length > 0;
}

/** The client's one row that matches every condition, or null. */
export async function findClientRow<T extends ClientTable>(db: Db, table: T, clientId: string, ...matches: SQL[]): Promise<T['$inferSelect'] | null> {
  const [row] = await db
    .select()
    .from(table as ClientTable)
    .where(and(eq(table.clientId, clientId), ...matches))
    .limit(1);
  return (row as T['$inferSelect'] | undefined) ?? null;
}
