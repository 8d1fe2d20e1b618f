import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { loginFailures } from '../../db/schema/index.ts';

/** The throttle's counters (login_failures), by key; what a key means is throttle.ts's business. */

/** Marks a key as seen now (a trusted address: see trustAddress). */
export async function touchKey(db: Db, key: string): Promise<void> {
  await db
    .insert(loginFailures)
    .values({ key, failures: 0, windowStart: sql`now()` })
    .onConflictDoUpdate({ target: loginFailures.key, set: { windowStart: sql`now()` } });
}

/** True when the key was seen within the last `days` days. */
export async function keySeenWithin(db: Db, key: string, days: number): Promise<boolean> {
  const [row] = await db
    .select({ key: loginFailures.key })
    .from(loginFailures)
    .where(and(eq(loginFailures.key, key), gt(loginFailures.windowStart, sql`now() - make_interval(days => ${days})`)))
    .limit(1);
  return Boolean(row);
}

/**
 * Counts one attempt against a key in a fixed window, atomically (an upsert with RETURNING), and answers the
 * count including this attempt. Because the count is taken before the attempt is judged, N concurrent
 * attempts see N different counts, and at most `max` of them are allowed on PGlite and PostgreSQL alike.
 */
export async function countAttempt(db: Db, key: string, windowSeconds: number): Promise<{ count: number; windowEnds: number }> {
  const windowOver = sql`${loginFailures.windowStart} < now() - make_interval(secs => ${windowSeconds})`;
  const [row] = await db
    .insert(loginFailures)
    .values({ key, failures: 1, windowStart: sql`now()` })
    .onConflictDoUpdate({
      target: loginFailures.key,
      set: {
        failures: sql`CASE WHEN ${windowOver} THEN 1 ELSE ${loginFailures.failures} + 1 END`,
        windowStart: sql`CASE WHEN ${windowOver} THEN now() ELSE ${loginFailures.windowStart} END`,
      },
    })
    .returning({ failures: loginFailures.failures, windowStart: loginFailures.windowStart });
  return { count: row!.failures, windowEnds: row!.windowStart.getTime() + windowSeconds * 1000 };
}

/** Takes back one counted attempt (it was refused, or it turned out not to be a failure). */
export async function giveBack(db: Db, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db
    .update(loginFailures)
    .set({ failures: sql`${loginFailures.failures} - 1` })
    .where(and(inArray(loginFailures.key, keys), gt(loginFailures.failures, 0)));
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.key, key));
}
