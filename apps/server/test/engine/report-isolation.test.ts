import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUrlToken } from '../../src/lib/url-token.ts';
import { bearer, createTestClient, login, type TestClient } from '../helpers/app.ts';
import { buildEngineApp, clientWithSuite, key, runAndWait } from './helpers.ts';

/** Reports hold strings from the client's own site: they are served in a sandbox, never in the portal's origin. */
describe('reports are isolated from the portal', () => {
  let app: FastifyInstance;
  let a: TestClient;
  let b: TestClient;
  const NAME = 'checkout (cart)';
  const url = (format: string, name = NAME) => `/report/fetch/${encodeURIComponent(name)}/${format}`;

  beforeAll(async () => {
    app = await buildEngineApp(1);
    a = await clientWithSuite(app, { Frontend: [{ name: NAME, kind: 'browser', options: { outcome: 'fail' } }] });
    b = await createTestClient(app);
    await runAndWait(app, a);
  });
  afterAll(async () => app?.close());

  it('serves every format with a sandbox policy (no allow-same-origin, no script) and nosniff', async () => {
    for (const format of ['html', 'json', 'xml', 'zip']) {
      const res = await app.inject({ url: url(format), headers: key(a) });
      expect(res.statusCode, format).toBe(200);
      const csp = res.headers['content-security-policy'] as string;
      const directives = csp.split(';').map((d) => d.trim());
      expect(directives).toContain('sandbox');
      expect(directives).toContain("default-src 'none'");
      expect(directives).toContain("style-src 'unsafe-inline'");
      expect(directives).toContain('img-src data:');
      expect(csp).not.toMatch(/allow-same-origin|allow-scripts|script-src/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const disposition = ['html', 'json'].includes(format) ? 'inline' : 'attachment';
      expect(res.headers['content-disposition']).toMatch(new RegExp(`^${disposition}; filename="client-\\d+-checkout-cart-\\d{4}-\\d{2}-\\d{2}\\.${format}"; `));
    }
    // The HTML reporter escapes what the site gave it: the sandbox is the defence in depth behind that.
    const html = (await app.inject({ url: url('html'), headers: key(a) })).body;
    expect(html).toContain('expected &lt;b&gt;true&lt;/b&gt;');
    expect(html).not.toMatch(/<script/);
  });

  it('mints a short-lived view link for the caller’s own report only, and serves it sandboxed', async () => {
    const link = await app.inject({ method: 'POST', url: url('html').replace('/fetch/', '/link/'), headers: key(a) });
    expect(link.statusCode, link.body).toBe(200);
    const { url: view, expiresIn } = link.json<{ url: string; expiresIn: number }>();
    expect(expiresIn).toBe(60);
    expect(view).toMatch(/^\/report\/view\/[^?]+\/html\?token=/);
    const page = await app.inject({ url: view });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toMatch(/(^|; )sandbox(;|$)/);
    expect(page.headers['content-security-policy']).not.toMatch(/allow-same-origin/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['content-disposition']).toMatch(/^inline; /);

    // Also with the user's bearer token.
    const session = await login(app, a.email, a.password);
    expect((await app.inject({ method: 'POST', url: url('html').replace('/fetch/', '/link/'), headers: bearer(session.accessToken) })).statusCode).toBe(200);

    // A zip opened in a browser is a download.
    const zipLink = (await app.inject({ method: 'POST', url: url('zip').replace('/fetch/', '/link/'), headers: key(a) })).json<{ url: string }>().url;
    expect((await app.inject({ url: zipLink })).headers['content-disposition']).toMatch(/^attachment; filename="[^"]+\.zip"; /);
  });

  it('another tenant can neither mint a link to the report nor reuse a link for another report', async () => {
    const theirs = await app.inject({ method: 'POST', url: url('html').replace('/fetch/', '/link/'), headers: key(b) });
    expect(theirs.statusCode).toBe(404);
    // b's token names b's client: pointing it at a's report name finds nothing.
    const forged = signUrlToken(app.keys, 'fullstop report view token v1', { c: b.clientId, r: NAME, f: 'html' }, 60);
    expect((await app.inject({ url: `${url('html').replace('/fetch/', '/view/')}?token=${encodeURIComponent(forged)}` })).statusCode).toBe(404);
    // a's link is for one report and one format.
    const view = (await app.inject({ method: 'POST', url: url('html').replace('/fetch/', '/link/'), headers: key(a) })).json<{ url: string }>().url;
    const token = new URL(view, 'http://x').searchParams.get('token')!;
    expect((await app.inject({ url: `${url('json').replace('/fetch/', '/view/')}?token=${encodeURIComponent(token)}` })).statusCode).toBe(401);
    expect((await app.inject({ url: `${url('html', 'other').replace('/fetch/', '/view/')}?token=${encodeURIComponent(token)}` })).statusCode).toBe(401);
    // Tampered, expired, or signed for another purpose (an events token): refused.
    expect((await app.inject({ url: `${view}x` })).statusCode).toBe(401);
    const expired = signUrlToken(app.keys, 'fullstop report view token v1', { c: a.clientId, r: NAME, f: 'html' }, 60, Date.now() - 120_000);
    expect((await app.inject({ url: `${url('html').replace('/fetch/', '/view/')}?token=${encodeURIComponent(expired)}` })).statusCode).toBe(401);
    const events = (await app.inject({ method: 'POST', url: '/test/events/token', headers: key(a) })).json<{ token: string }>().token;
    expect((await app.inject({ url: `${url('html').replace('/fetch/', '/view/')}?token=${encodeURIComponent(events)}` })).statusCode).toBe(401);
    expect((await app.inject({ url: url('html').replace('/fetch/', '/view/') })).statusCode).toBe(400);
  });
});
