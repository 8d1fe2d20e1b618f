import type { GuardedResponse } from '../../lib/http.ts';
import type { CaseResult } from '../../types.ts';
import { expectedActual, shownHeader } from '../expected-actual.ts';

type Check = Omit<CaseResult, 'durationMs'>;

/** One check: passed or failed with its error, and in both cases what was expected and what the page sent. */
const check = (name: string, ok: boolean, error: string, expected: string, actual: string): Check => ({
  name,
  status: ok ? 'passed' : 'failed',
  ...(ok ? {} : { error }),
  ...expectedActual(expected, actual),
});

function cookieAttributes(setCookie: string): Set<string> {
  return new Set(
    setCookie
      .split(';')
      .slice(1)
      .map((p) => p.trim().toLowerCase().split('=')[0] ?? ''),
  );
}

/** A header in words: its value when present (`Referrer-Policy: no-referrer`), else `header X missing`. */
function sent(headers: Headers, name: string): string {
  const value = headers.get(name);
  return value === null ? `header ${name} missing` : shownHeader(name, value);
}

/** Security headers and cookie flags of one page, one case each. */
export function headerChecks(path: string, response: GuardedResponse): Check[] {
  const h = response.headers;
  const https = response.url.startsWith('https:');
  const csp = h.get('content-security-policy') ?? '';
  const framing = h.get('x-frame-options') !== null ? sent(h, 'X-Frame-Options') : /frame-ancestors/i.test(csp) ? 'CSP frame-ancestors directive present' : 'neither X-Frame-Options nor CSP frame-ancestors';
  const checks: Check[] = [
    check(`${path}: Content-Security-Policy header is set`, csp !== '', 'no Content-Security-Policy header', 'header Content-Security-Policy present', sent(h, 'Content-Security-Policy')),
    check(
      `${path}: framing is restricted (X-Frame-Options or frame-ancestors)`,
      h.get('x-frame-options') !== null || /frame-ancestors/i.test(csp),
      'neither X-Frame-Options nor a CSP frame-ancestors directive',
      'header X-Frame-Options or a CSP frame-ancestors directive',
      framing,
    ),
    check(
      `${path}: X-Content-Type-Options is nosniff`,
      (h.get('x-content-type-options') ?? '').toLowerCase() === 'nosniff',
      `X-Content-Type-Options is ${h.get('x-content-type-options') ?? 'missing'}`,
      'X-Content-Type-Options: nosniff',
      sent(h, 'X-Content-Type-Options'),
    ),
    check(`${path}: Referrer-Policy header is set`, h.get('referrer-policy') !== null, 'no Referrer-Policy header', 'header Referrer-Policy present', sent(h, 'Referrer-Policy')),
    check(`${path}: Permissions-Policy header is set`, h.get('permissions-policy') !== null, 'no Permissions-Policy header', 'header Permissions-Policy present', sent(h, 'Permissions-Policy')),
    check(`${path}: Server header reveals no version`, !/\d/.test(h.get('server') ?? ''), `Server: ${h.get('server')}`, 'no version in the Server header', sent(h, 'Server')),
    check(`${path}: no X-Powered-By header`, h.get('x-powered-by') === null, `X-Powered-By: ${h.get('x-powered-by')}`, 'header X-Powered-By missing', sent(h, 'X-Powered-By')),
  ];
  checks.push(
    https
      ? check(
          `${path}: Strict-Transport-Security header is set`,
          h.get('strict-transport-security') !== null,
          'no Strict-Transport-Security header',
          'header Strict-Transport-Security present',
          sent(h, 'Strict-Transport-Security'),
        )
      : { name: `${path}: Strict-Transport-Security header is set`, status: 'skipped', error: 'only meaningful over https' },
  );
  for (const cookie of response.setCookies) {
    // The cookie's name and flags only: its value may be a session.
    const name = cookie.split('=', 1)[0]?.trim() ?? '';
    const attrs = cookieAttributes(cookie);
    const flag = (has: boolean, label: string) => `cookie ${name} ${has ? 'with' : 'without'} ${label}`;
    checks.push(check(`${path}: cookie ${name} is HttpOnly`, attrs.has('httponly'), `cookie ${name} has no HttpOnly flag`, flag(true, 'HttpOnly'), flag(attrs.has('httponly'), 'HttpOnly')));
    checks.push(check(`${path}: cookie ${name} has SameSite`, attrs.has('samesite'), `cookie ${name} has no SameSite attribute`, flag(true, 'SameSite'), flag(attrs.has('samesite'), 'SameSite')));
    checks.push(
      https
        ? check(`${path}: cookie ${name} is Secure`, attrs.has('secure'), `cookie ${name} has no Secure flag`, flag(true, 'Secure'), flag(attrs.has('secure'), 'Secure'))
        : { name: `${path}: cookie ${name} is Secure`, status: 'skipped', error: 'only meaningful over https' },
    );
  }
  return checks;
}
