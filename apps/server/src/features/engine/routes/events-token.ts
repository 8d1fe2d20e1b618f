import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ServerKeys } from '../../../lib/server-keys.ts';

/** Long enough to open the stream; the stream itself stays open after the token expires. */
export const EVENTS_TOKEN_TTL_SECONDS = 60;

/** A key of its own for these tokens, derived from the lookup key so no key serves two purposes. */
function keyOf(keys: ServerKeys): Buffer {
  return createHmac('sha256', keys.lookup).update('fullstop engine events token').digest();
}

/** `<clientId>.<expiry>.<mac>`: read-only access to one client's run events, for EventSource's query string. */
export function signEventsToken(keys: ServerKeys, clientId: string, now = Date.now()): string {
  const body = `${Buffer.from(clientId).toString('base64url')}.${Math.floor(now / 1000) + EVENTS_TOKEN_TTL_SECONDS}`;
  return `${body}.${createHmac('sha256', keyOf(keys)).update(body).digest('base64url')}`;
}

export function verifyEventsToken(keys: ServerKeys, token: string, now = Date.now()): string | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [client, expiry, mac] = parts as [string, string, string];
  const expected = createHmac('sha256', keyOf(keys)).update(`${client}.${expiry}`).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (Number(expiry) * 1000 < now) return null;
  return Buffer.from(client, 'base64url').toString('utf8');
}
