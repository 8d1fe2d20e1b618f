import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

// The retry rules every outbound delivery table shares (bug exports, alerts): a delivery is due when it is pending,
// its next attempt has come and no process holds it; an attempt's result decides its next state.

/** The columns a delivery table keeps its retry state in. */
export interface DeliveryStateColumns {
  status: PgColumn;
  nextAttemptAt: PgColumn;
  lockedUntil: PgColumn;
}

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
