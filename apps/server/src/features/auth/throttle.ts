import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { loginFailures } from '../../db/schema/index.ts';

export interface Limit {
  key: string;
  max: number;
  windowSeconds: number;
}

export const accountKey = (email: string) => `account:${email}`;
export const addressKey = (ip: string) => `address:${ip}`;
export const resetAccountKey = (email: string) => `reset-account:${email}`;
export const resetAddressKey = (ip: string) => `reset-address:${ip}`;
const trustedKey = (email: string, ip: string) => `trusted:${email}:${ip}`;
/** The failures of one account from one trusted address, counted apart from everyone else's. */
export const trustedAccountKey = (email: string, ip: string) => `account-at:${email}:${ip}`;

/** How long an address stays trusted for an account after a login or a password reset from it. */
export const TRUSTED_ADDRESS_DAYS = 30;

/**
 * Remembers that the account's owner proved itself from this address (a login, or a reset through the mail).
 * This address's failures on the account are then counted apart (same limit), so an attacker guessing from
 * elsewhere cannot keep the owner out by re-locking the account again and again.
 */
export async function trustAddress(db: Db, email: string, ip: string): Promise<void> {
  await db
    .insert(loginFailures)
    .values({ key: trustedKey(email, ip), failures: 0, windowStart: sql`now()` })
    .onConflictDoUpdate({ target: loginFailures.key, set: { windowStart: sql`now()` } });
}

export async function isTrustedAddress(db: Db, email: string, ip: string): Promise<boolean> {
  const [row] = await db
    .select({ key: loginFailures.key })
    .from(loginFailures)
    .where(
      and(
        eq(loginFailures.key, trustedKey(email, ip)),
        gt(loginFailures.windowStart, sql`now() - make_interval(days => ${TRUSTED_ADDRESS_DAYS})`),
      ),
    )
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

/**
 * Counts an attempt against each limit in turn. Returns 0 when all allow it, else the seconds until the
 * exceeded window ends; a refused attempt is taken back from every count it reached, so waiting is enough.
 * Put the cheapest key first (the source address): once it is exceeded, the later keys (an email, perhaps
 * invented) are not even written.
 */
export async function takeAttempt(db: Db, limits: Limit[]): Promise<number> {
  const counted: string[] = [];
  for (const limit of limits) {
    const { count, windowEnds } = await countAttempt(db, limit.key, limit.windowSeconds);
    counted.push(limit.key);
    if (count > limit.max) {
      await giveBack(db, counted);
      return Math.max(1, (windowEnds - Date.now()) / 1000);
    }
  }
  return 0;
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

export function throttleMessage(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
