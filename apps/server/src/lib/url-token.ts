import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ServerKeys } from './server-keys.ts';

/** A key of its own for these tokens, derived from the lookup key so no key serves two purposes. */
function keyOf(keys: ServerKeys, purpose: string): Buffer {
  return createHmac('sha256', keys.lookup).update(purpose).digest();
}

/**
 * `<claims>.<expiry>.<mac>`: a short-lived bearer of some read-only right of one client, for URLs that cannot
 * carry headers (EventSource, a report opened in a new tab). `purpose` keeps one kind from passing as another.
 */
export function signUrlToken(keys: ServerKeys, purpose: string, claims: Record<string, unknown>, ttlSeconds: number, now = Date.now()): string {
  const body = `${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${Math.floor(now / 1000) + ttlSeconds}`;
  return `${body}.${createHmac('sha256', keyOf(keys, purpose)).update(body).digest('base64url')}`;
}

export function verifyUrlToken(keys: ServerKeys, purpose: string, token: string, now = Date.now()): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [claims, expiry, mac] = parts as [string, string, string];
  const expected = createHmac('sha256', keyOf(keys, purpose)).update(`${claims}.${expiry}`).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (!/^\d{1,12}$/.test(expiry) || Number(expiry) * 1000 < now) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
