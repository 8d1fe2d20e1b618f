import { and, asc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database.ts';

// SQL of the outbox, over any feature's pair of tables (alert deliveries, tracker deliveries, …): a delivery is due
// when it is pending, its next attempt has come and no process holds it; an attempt's result decides its next state.

/** The columns a delivery table keeps its retry state in. */
export interface DeliveryStateColumns {
  status: PgColumn;
  nextAttemptAt: PgColumn;
  lockedUntil: PgColumn;
}

/** A feature's delivery table: its own columns, and the outbox's id, client, attempt counter and retry state. */
export type DeliveryTable = PgTable & DeliveryStateColumns & { id: PgColumn; clientId: PgColumn; attempts: PgColumn };

/** A feature's table of attempts: one row per attempt of a delivery, what the far end answered. */
export type AttemptTable = PgTable & { deliveryId: PgColumn; statusCode: PgColumn; error: PgColumn; createdAt: PgColumn };

/** Pending, due now, and held by no process (a holder that died lets go when its hold runs out). */
export function dueDelivery(t: DeliveryStateColumns): SQL {
  return and(eq(t.status, 'pending'), sql`${t.nextAttemptAt} <= now()`, sql`(${t.lockedUntil} is null or ${t.lockedUntil} < now())`)!;
}

/** `seconds` from now, in the database's clock (the one every process compares against). */
export const secondsFromNow = (seconds: number): SQL => sql`now() + make_interval(secs => ${seconds})`;

export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  delivered: boolean;
  /** null: no more attempts (delivered or given up). */
  retryInSeconds: number | null;
}

/** The delivery's new state after an attempt (its attempt counter is the caller's, being its own column). */
export function afterAttempt(result: AttemptResult) {
  return {
    status: result.delivered ? ('delivered' as const) : result.retryInSeconds === null ? ('failed' as const) : ('pending' as const),
    statusCode: result.statusCode,
    error: result.error,
    lastAttemptAt: sql`now()`,
    lockedUntil: null,
    nextAttemptAt: result.retryInSeconds === null ? null : secondsFromNow(result.retryInSeconds),
  };
}

// Here a table is known only by the columns above, so drizzle cannot type its writes (`as never`); the feature's
// own types are checked where it names its tables.

/** Held now by some process: pending, and its hold has not run out. */
const heldDelivery = (t: DeliveryStateColumns): SQL => sql`${t.status} = 'pending' and ${t.lockedUntil} >= now()`;

/**
 * The clients with a delivery due and fewer than `perClient` held (by any process), the one waiting longest first,
 * each with how many more it may have held now.
 */
export async function clientsWithRoom(db: Db, deliveries: DeliveryTable, perClient: number, limit: number): Promise<{ clientId: string; room: number }[]> {
  const held = sql<number>`count(*) filter (where ${heldDelivery(deliveries)})`;
  const rows = await db
    .select({ clientId: sql<string>`${deliveries.clientId}`, held })
    .from(deliveries as PgTable)
    .where(eq(deliveries.status, 'pending'))
    .groupBy(deliveries.clientId)
    .having(sql`count(*) filter (where ${dueDelivery(deliveries)}) > 0 and ${held} < ${perClient}`)
    .orderBy(sql`min(${deliveries.nextAttemptAt}) filter (where ${dueDelivery(deliveries)})`)
    .limit(limit);
  return rows.map((r) => ({ clientId: r.clientId, room: perClient - Number(r.held) }));
}

/**
 * Takes up to `limit` due deliveries (of one client, if given) for this process, held for `holdSeconds`; other
 * processes skip them.
 */
export async function claimDueDeliveries<T extends DeliveryTable>(db: Db, deliveries: T, limit: number, holdSeconds: number, clientId?: string): Promise<T['$inferSelect'][]> {
  const due = db
    .select({ id: deliveries.id })
    .from(deliveries as PgTable)
    .where(clientId === undefined ? dueDelivery(deliveries) : and(dueDelivery(deliveries), eq(deliveries.clientId, clientId)))
    .orderBy(asc(deliveries.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(deliveries)
    .set({ lockedUntil: secondsFromNow(holdSeconds) } as never)
    .where(inArray(deliveries.id, due))
    .returning() as Promise<T['$inferSelect'][]>;
}

/** Holds the deliveries this process is still working for another `holdSeconds` (those already recorded are left). */
export async function renewClaims(db: Db, deliveries: DeliveryTable, ids: string[], holdSeconds: number): Promise<void> {
  if (!ids.length) return;
  await db
    .update(deliveries)
    .set({ lockedUntil: secondsFromNow(holdSeconds) } as never)
    .where(and(inArray(deliveries.id, ids), eq(deliveries.status, 'pending'), isNotNull(deliveries.lockedUntil)));
}

/** Records one attempt of a delivery and its new state. */
export async function recordAttempt(db: Db, tables: { deliveries: DeliveryTable; attempts: AttemptTable }, deliveryId: string, result: AttemptResult): Promise<void> {
  const { deliveries, attempts } = tables;
  await db.transaction(async (tx) => {
    await tx.insert(attempts).values({ deliveryId, statusCode: result.statusCode, error: result.error } as never);
    await tx
      .update(deliveries)
      .set({ ...afterAttempt(result), attempts: sql`${deliveries.attempts} + 1` } as never)
      .where(eq(deliveries.id, deliveryId));
  });
}

/** A delivery's attempts, oldest first. */
export async function listAttempts<T extends AttemptTable>(db: Db, attempts: T, deliveryId: string): Promise<T['$inferSelect'][]> {
  return db
    .select()
    .from(attempts as PgTable)
    .where(eq(attempts.deliveryId, deliveryId))
    .orderBy(asc(attempts.createdAt)) as Promise<T['$inferSelect'][]>;
}
