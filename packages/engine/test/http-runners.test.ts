import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { guardedRequest } from '../src/lib/http.ts';
import { createTargetGuard } from '../src/policy/target-guard.ts';
import { apiRunner } from '../src/runners/api/index.ts';
import { securityChecksRunner } from '../src/runners/security-checks/index.ts';
import type { CaseResult } from '../src/types.ts';
import { HARDENED_CREDENTIALS, startHardenedServer } from './fixtures/hardened-server.ts';
import { PLANTED, startPlantedServer } from './fixtures/planted-server.ts';
import { serverForSuite } from './fixtures/suite-server.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

const casesOf = (summary: { kind: string; cases?: CaseResult[] }) => summary.cases ?? [];
const byStatus = (cases: CaseResult[], status: CaseResult['status']) => cases.filter((c) => c.status === status).map((c) => c.name);

const checksTest = testOf('security-checks', {
  pages: ['/'],
  requireHttps: false,
  login: { path: '/login', badCredentials: { email: HARDENED_CREDENTIALS.email, password: 'wrong' } },
  protectedPaths: ['/account'],
});

describe('security-checks runner', () => {
  const planted = serverForSuite(startPlantedServer);
  const hardened = serverForSuite(startHardenedServer);

  it('fails every planted weakness by name', async () => {
    const result = await securityChecksRunner.run(checksTest, localTarget(planted.url), await makeContext());
    const cases = casesOf(result.summary);
    expect(result.status).toBe('failed');
    expect(result.totals).toEqual({ totalTests: 17, passedTests: 0, failedTests: 13, skippedTests: 4 });
    expect(byStatus(cases, 'failed')).toEqual([
      '/: Content-Security-Policy header is set',
      '/: framing is restricted (X-Frame-Options or frame-ancestors)',
      '/: X-Content-Type-Options is nosniff',
      '/: Referrer-Policy header is set',
      '/: Permissions-Policy header is set',
      '/: Server header reveals no version',
      '/: no X-Powered-By header',
      '/: cookie session is HttpOnly',
      '/: cookie session has SameSite',
      '/: cookie tracking is HttpOnly',
      '/: cookie tracking has SameSite',
      'Login /login rejects wrong credentials',
      '/account refuses anonymous access',
    ]);
    expect(cases.find((c) => c.name === 'Login /login rejects wrong credentials')?.error).toBe('answered 200 to wrong credentials, expected 400, 401, 403, 422');
    // Each check says what it wanted and what the site sent, a cookie by its name and flags, never its value.
    const words = (name: string) => {
      const c = cases.find((k) => k.name === name);
      return [c?.expected, c?.actual];
    };
    expect(words('Login /login rejects wrong credentials')).toEqual(['status 400 or 401 or 403 or 422', 'status 200']);
    expect(words('/account refuses anonymous access')).toEqual(['status 401 or 403, or a redirect to another page (a login)', 'status 200']);
    expect(words('/: Referrer-Policy header is set')).toEqual(['header Referrer-Policy present', 'header Referrer-Policy missing']);
    expect(words('/: no X-Powered-By header')).toEqual(['header X-Powered-By missing', `X-Powered-By: ${PLANTED.poweredBy}`]);
    expect(words('/: cookie session is HttpOnly')).toEqual(['cookie session with HttpOnly', 'cookie session without HttpOnly']);
    for (const c of cases.filter((k) => k.status !== 'skipped')) {
      expect(c.expected?.length).toBeGreaterThan(0);
      expect(c.actual?.length).toBeLessThanOrEqual(300);
      expect(c.actual).not.toContain('abc123');
    }
  });

  it('passes the hardened site', async () => {
    const result = await securityChecksRunner.run(checksTest, localTarget(hardened.url), await makeContext());
    expect(result.status).toBe('passed');
    expect(result.totals).toEqual({ totalTests: 14, passedTests: 11, failedTests: 0, skippedTests: 3 });
    const nosniff = casesOf(result.summary).find((c) => c.name === '/: X-Content-Type-Options is nosniff');
    expect(nosniff).toMatchObject({ expected: 'X-Content-Type-Options: nosniff', actual: 'X-Content-Type-Options: nosniff' });
  });

  it('fails plain http when https is required', async () => {
    const result = await securityChecksRunner.run(testOf('security-checks', {}), localTarget(hardened.url), await makeContext());
    expect(casesOf(result.summary)[0]).toMatchObject({ status: 'failed', error: `${hardened.url} is plain http` });
  });
});

describe('api runner', () => {
  const server = serverForSuite(startHardenedServer);

  it('asserts status, JSON fields, types and latency per request', async () => {
    const result = await apiRunner.run(
      testOf('api', {
        requests: [
          { name: 'items', path: '/api/items', expect: { status: 200, json: { count: 2, 'items.1.name': 'pear' }, jsonTypes: { items: 'array' }, headers: { 'content-type': 'json' }, maxLatencyMs: 5000 } },
          { name: 'login', method: 'POST', path: '/login', body: HARDENED_CREDENTIALS, expect: { json: { token: 't' } } },
          { name: 'wrong field', path: '/api/items', expect: { json: { count: 3, 'items.0.id': 1 }, jsonTypes: { 'items.0.price': 'number' } } },
          { name: 'wrong status', path: '/account', expect: { status: [200, 204] } },
        ],
      }),
      localTarget(server.url),
      await makeContext(),
    );
    expect(result.status).toBe('failed');
    expect(result.totals).toEqual({ totalTests: 4, passedTests: 2, failedTests: 2, skippedTests: 0 });
    const cases = casesOf(result.summary);
    expect(cases.map((c) => [c.name, c.status, c.error])).toEqual([
      ['items', 'passed', undefined],
      ['login', 'passed', undefined],
      ['wrong field', 'failed', 'count is 2, expected 3; items.0.price is missing, expected a number'],
      ['wrong status', 'failed', 'status 401, expected 200 or 204'],
    ]);
    // A failed case shows the failed assertions only; a passed one all of them. The token the login returns and
    // the credentials sent are the client's: they show only as far as the manifest asserted them.
    expect(cases.map((c) => [c.expected, c.actual])).toEqual([
      [
        'status 200; within 5000 ms; header content-type containing "json"; count = 2; items.1.name = "pear"; items: an array',
        expect.stringMatching(/^status 200; \d+\.\d ms; content-type: application\/json[^;]*; count = 2; items.1.name = "pear"; items: an array$/),
      ],
      ['status 200; token = "t"', 'status 200; token = "t"'],
      ['count = 3; items.0.price: a number', 'count = 2; items.0.price missing'],
      ['status 200 or 204', 'status 401'],
    ]);
    expect(JSON.stringify(cases)).not.toContain(HARDENED_CREDENTIALS.password);
    expect(cases[0]!.durationMs).toBeGreaterThan(0);
  });

  it('refuses a URL on another origin before sending anything', async () => {
    server.resetCounters();
    const result = await apiRunner.run(
      testOf('api', { requests: [{ path: '/api/items' }, { path: 'http://203.0.113.9/steal' }] }),
      localTarget(server.url),
      await makeContext(),
    );
    expect(result).toMatchObject({ status: 'error', errorCode: 'target_policy' });
    expect(result.error).toContain('origin http://203.0.113.9 is not the target');
    expect(server.requests).toBe(0);
  });

  it('names the bad field of a request', () => {
    expect(() => apiRunner.validate(testOf('api', { requests: [{ path: '/x', expect: { status: 'ok' } }] }))).toThrow(/options\.requests\.0\.expect\.status/);
    expect(() => apiRunner.validate(testOf('api', {}))).toThrow(/options\.requests/);
  });
});

describe('guarded request', () => {
  it('cuts an endless body instead of buffering it, and stops downloading', async () => {
    let written = 0;
    const chunk = 'x'.repeat(64 * 1024);
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const pump = () => {
        while (!res.destroyed && written < 200_000_000 && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const guard = createTargetGuard(localTarget(url));
      const response = await guardedRequest(guard, url, { signal: new AbortController().signal });
      expect(response.body.length).toBe(2_000_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const after = written;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(written - after).toBeLessThan(5_000_000);
      expect(written).toBeLessThan(50_000_000);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
