import type { GuardedResponse } from '../../lib/http.ts';
import type { CaseResult } from '../../types.ts';

type Check = Omit<CaseResult, 'durationMs'>;

const pass = (name: string): Check => ({ name, status: 'passed' });
const fail = (name: string, error: string): Check => ({ name, status: 'failed', error });
const check = (name: string, ok: boolean, error: string): Check => (ok ? pass(name) : fail(name, error));

function cookieAttributes(setCookie: string): Set<string> {
  return new Set(
    setCookie
      .split(';')
      .slice(1)
      .map((p) => p.trim().toLowerCase().split('=')[0] ?? ''),
  );
}

/** Security headers and cookie flags of one page, one case each. */
export function headerChecks(path: string, response: GuardedResponse): Check[] {
  const h = response.headers;
  const https = response.url.startsWith('https:');
  const csp = h.get('content-security-policy') ?? '';
  const checks: Check[] = [
    check(`${path}: Content-Security-Policy header is set`, csp !== '', 'no Content-Security-Policy header'),
    check(
      `${path}: framing is restricted (X-Frame-Options or frame-ancestors)`,
      h.get('x-frame-options') !== null || /frame-ancestors/i.test(csp),
      'neither X-Frame-Options nor a CSP frame-ancestors directive',
    ),
    check(`${path}: X-Content-Type-Options is nosniff`, (h.get('x-content-type-options') ?? '').toLowerCase() === 'nosniff', `X-Content-Type-Options is ${h.get('x-content-type-options') ?? 'missing'}`),
    check(`${path}: Referrer-Policy header is set`, h.get('referrer-policy') !== null, 'no Referrer-Policy header'),
    check(`${path}: Permissions-Policy header is set`, h.get('permissions-policy') !== null, 'no Permissions-Policy header'),
    check(`${path}: Server header reveals no version`, !/\d/.test(h.get('server') ?? ''), `Server: ${h.get('server')}`),
    check(`${path}: no X-Powered-By header`, h.get('x-powered-by') === null, `X-Powered-By: ${h.get('x-powered-by')}`),
  ];
  checks.push(
    https
      ? check(`${path}: Strict-Transport-Security header is set`, h.get('strict-transport-security') !== null, 'no Strict-Transport-Security header')
      : { name: `${path}: Strict-Transport-Security header is set`, status: 'skipped', error: 'only meaningful over https' },
  );
  for (const cookie of response.setCookies) {
    const name = cookie.split('=', 1)[0]?.trim() ?? '';
    const attrs = cookieAttributes(cookie);
    checks.push(check(`${path}: cookie ${name} is HttpOnly`, attrs.has('httponly'), `cookie ${name} has no HttpOnly flag`));
    checks.push(check(`${path}: cookie ${name} has SameSite`, attrs.has('samesite'), `cookie ${name} has no SameSite attribute`));
    checks.push(
      https
        ? check(`${path}: cookie ${name} is Secure`, attrs.has('secure'), `cookie ${name} has no Secure flag`)
        : { name: `${path}: cookie ${name} is Secure`, status: 'skipped', error: 'only meaningful over https' },
    );
  }
  return checks;
}
