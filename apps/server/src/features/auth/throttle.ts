import type { Db } from '../../db/database.ts';
import { countAttempt, giveBack, keySeenWithin, touchKey } from './throttle-repository.ts';

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
  await touchKey(db, trustedKey(email, ip));
}

export async function isTrustedAddress(db: Db, email: string, ip: string): Promise<boolean> {
  return keySeenWithin(db, trustedKey(email, ip), TRUSTED_ADDRESS_DAYS);
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

export function throttleMessage(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
