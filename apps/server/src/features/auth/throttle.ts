import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { loginFailures } from '../../db/schema/index.ts';

export interface ThrottleLimits {
  perAccount: number;
  perAddress: number;
  windowSeconds: number;
}

export const accountKey = (email: string) => `account:${email}`;
export const addressKey = (ip: string) => `address:${ip}`;

/**
 * Failed logins counted per account and per address in a fixed window, in the database so every API process
 * shares the count. Returns the seconds to wait when either limit is reached, else 0.
 */
export async function secondsUntilAllowed(db: Db, limits: ThrottleLimits, email: string, ip: string): Promise<number> {
  const rows = await db.select().from(loginFailures).where(inArray(loginFailures.key, [accountKey(email), addressKey(ip)]));
  const now = Date.now();
  let wait = 0;
  for (const row of rows) {
    const limit = row.key.startsWith('account:') ? limits.perAccount : limits.perAddress;
    const ends = row.windowStart.getTime() + limits.windowSeconds * 1000;
    if (row.failures >= limit && ends > now) wait = Math.max(wait, (ends - now) / 1000);
  }
  return wait;
}

export async function recordFailure(db: Db, windowSeconds: number, keys: string[]): Promise<void> {
  const windowOver = sql`${loginFailures.windowStart} < now() - make_interval(secs => ${windowSeconds})`;
  for (const key of keys) {
    await db
      .insert(loginFailures)
      .values({ key, failures: 1, windowStart: sql`now()` })
      .onConflictDoUpdate({
        target: loginFailures.key,
        set: {
          failures: sql`CASE WHEN ${windowOver} THEN 1 ELSE ${loginFailures.failures} + 1 END`,
          windowStart: sql`CASE WHEN ${windowOver} THEN now() ELSE ${loginFailures.windowStart} END`,
        },
      });
  }
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(loginFailures).where(inArray(loginFailures.key, [key]));
}

export function throttleMessage(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
