import type { ServerKeys } from '../../lib/server-keys.ts';
import { signUrlToken, verifyUrlToken } from '../../lib/url-token.ts';

/** Long enough to open the stream; the stream itself stays open after the token expires. */
export const EVENTS_TOKEN_TTL_SECONDS = 60;

/** What a stream token stands for: the client, the user who minted it (null: the API key), and when. */
export interface EventsTokenClaims {
  clientId: string;
  userId: string | null;
  issuedAtMs: number;
}

const EVENTS_PURPOSE = 'fullstop engine events token v2';

/** Read-only access to one client's run events, for EventSource's query string. */
export function signEventsToken(keys: ServerKeys, clientId: string, userId: string | null, now = Date.now()): string {
  return signUrlToken(keys, EVENTS_PURPOSE, { c: clientId, u: userId, i: now }, EVENTS_TOKEN_TTL_SECONDS, now);
}

export function verifyEventsToken(keys: ServerKeys, token: string, now = Date.now()): EventsTokenClaims | null {
  const claims = verifyUrlToken(keys, EVENTS_PURPOSE, token, now);
  if (!claims || typeof claims.c !== 'string' || typeof claims.i !== 'number') return null;
  if (claims.u !== null && typeof claims.u !== 'string') return null;
  return { clientId: claims.c, userId: claims.u, issuedAtMs: claims.i };
}
