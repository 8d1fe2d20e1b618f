import type { TargetGuard } from '../policy/target-guard.ts';

/** A cookie of the logged-in session, in Playwright's shape (what `storageState()` answers and contexts take). */
export interface SessionCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: 'Strict' | 'Lax' | 'None';
}

/**
 * What a resolved login gives every request of an attempt: headers, cookies, and (form logins) the pages' local
 * storage for browser contexts. `masks` are the values no artifact may show: the secrets and the session's own.
 */
export interface LoginSession {
  headers: Record<string, string>;
  cookies: SessionCookie[];
  origins: { origin: string; localStorage: { name: string; value: string }[] }[];
  masks: string[];
}

/** Each run's session, by the guard that run created (one guard per run, see define-runner.ts). */
const sessions = new WeakMap<TargetGuard, LoginSession>();

export function attachLogin(guard: TargetGuard, session: LoginSession | undefined): void {
  if (session) sessions.set(guard, session);
}

export function loginOf(guard: TargetGuard): LoginSession | undefined {
  return sessions.get(guard);
}

/** Whether a cookie goes with a request to `url` (RFC 6265: domain, path, secure). */
function cookieMatches(cookie: SessionCookie, url: URL): boolean {
  const host = url.hostname;
  const domain = cookie.domain.replace(/^\./, '');
  const hostOk = cookie.domain.startsWith('.') ? host === domain || host.endsWith(`.${domain}`) : host === domain;
  const path = cookie.path || '/';
  const pathOk = url.pathname === path || url.pathname.startsWith(path.endsWith('/') ? path : `${path}/`);
  return hostOk && pathOk && (!cookie.secure || url.protocol === 'https:' || host === '127.0.0.1' || host === 'localhost');
}

/** The `Cookie` header value the session sends to `url`, or undefined when none of its cookies goes there. */
export function cookieHeaderFor(session: LoginSession, url: string): string | undefined {
  const target = new URL(url);
  const pairs = session.cookies.filter((c) => cookieMatches(c, target)).map((c) => `${c.name}=${c.value}`);
  return pairs.length ? pairs.join('; ') : undefined;
}

/**
 * The headers of a request to `url` with the session's headers and cookies added. The request's own headers win
 * (an api test may send its own Authorization); its own Cookie header is kept and the session's cookies appended.
 */
export function withLoginHeaders(session: LoginSession | undefined, url: string, headers: Record<string, string> = {}): Record<string, string> {
  if (!session) return headers;
  const merged: Record<string, string> = { ...session.headers };
  const own = new Map(Object.keys(headers).map((k) => [k.toLowerCase(), k]));
  for (const k of Object.keys(merged)) if (own.has(k.toLowerCase())) delete merged[k];
  Object.assign(merged, headers);
  const cookies = cookieHeaderFor(session, url);
  if (cookies) {
    const key = own.get('cookie');
    if (key) merged[key] = `${headers[key]}; ${cookies}`;
    else merged.cookie = cookies;
  }
  return merged;
}

/** Options for a Playwright browser context that starts logged in. */
export function loginContextOptions(session: LoginSession): {
  storageState: { cookies: SessionCookie[]; origins: LoginSession['origins'] };
  extraHTTPHeaders?: Record<string, string>;
} {
  return {
    storageState: { cookies: session.cookies, origins: session.origins },
    ...(Object.keys(session.headers).length ? { extraHTTPHeaders: session.headers } : {}),
  };
}
