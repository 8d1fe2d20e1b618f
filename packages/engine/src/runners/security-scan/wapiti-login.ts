import type { LoginSession } from '../../lib/login-session.ts';
import { withLoginHeaders } from '../../lib/login-session.ts';

/**
 * wapiti's arguments for a logged-in scan: each header of the session, and its cookies for the start URL as one
 * Cookie header (`-H` sets a header on every request wapiti sends). Empty without a login.
 */
export function wapitiLoginArgs(session: LoginSession | undefined, startUrl: string): string[] {
  if (!session) return [];
  return Object.entries(withLoginHeaders(session, startUrl)).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
}
