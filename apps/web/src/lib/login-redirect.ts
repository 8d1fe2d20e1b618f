import { paths } from '@fullstop/contracts';

/**
 * The query parameters /login reads: where to return after logging in, why the user is there, and the token a
 * password-reset mail links with.
 */
export const LOGIN_PARAMS = { next: 'next', session: 'session', resetToken: 'resetToken' } as const;
export const SESSION_ENDED = 'ended';

/**
 * `raw` as a path to return to after logging in, or null. Only a portal or console path of our own origin qualifies: a
 * `next` of `https://evil.test`, `//evil.test` or `/dashboard/../x` would otherwise turn the login into an
 * open redirect.
 */
export function safeNext(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return null;
  let url: URL;
  try {
    url = new URL(raw, 'http://portal.invalid');
  } catch {
    return null;
  }
  if (url.origin !== 'http://portal.invalid') return null;
  const under = (root: string) => url.pathname === root || url.pathname.startsWith(`${root}/`);
  const inPortal = under(paths.dashboard) || under(paths.ops);
  return inPortal ? `${url.pathname}${url.search}${url.hash}` : null;
}

/** /login, with the page to return to (when it is a portal page other than the home) and the session-ended note. */
export function loginUrl(options: { next?: string | null; sessionEnded?: boolean } = {}): string {
  const params = new URLSearchParams();
  const next = safeNext(options.next);
  if (options.sessionEnded) params.set(LOGIN_PARAMS.session, SESSION_ENDED);
  if (next && next !== paths.dashboard) params.set(LOGIN_PARAMS.next, next);
  const query = params.toString();
  return query ? `${paths.login}?${query}` : paths.login;
}
