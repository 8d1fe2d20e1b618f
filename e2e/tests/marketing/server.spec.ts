import { expect, test } from '@playwright/test';
import { PUBLIC_ROUTES } from './fixtures.ts';

test.describe('the server serving the public site', () => {
  test('every public route answers 200 with its prerendered page', async ({ request }) => {
    for (const route of PUBLIC_ROUTES) {
      const res = await request.get(route);
      expect(res.status(), route).toBe(200);
      expect(res.headers()['content-type']).toContain('text/html');
      expect(res.headers()['cache-control']).toBe('no-cache');
      const html = await res.text();
      expect(html, route).toMatch(/<h1[^>]*>/);
    }
  });

  test('an unknown path answers the 404 page with HTTP status 404', async ({ request }) => {
    const res = await request.get('/no-such-page');
    expect(res.status()).toBe(404);
    expect(res.headers()['content-type']).toContain('text/html');
    expect(await res.text()).toContain('Sorry, the page you are looking for does not exist.');
    expect((await request.get('/services/extra')).status()).toBe(404);
  });

  test('security headers are on every response, with a CSP that forbids inline scripts', async ({ request }) => {
    for (const url of ['/', '/pricing', '/no-such-page', '/healthz']) {
      const res = await request.get(url);
      const h = res.headers();
      const csp = h['content-security-policy'] ?? '';
      const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
      expect(scriptSrc, url).toContain("'self'");
      expect(scriptSrc, url).not.toContain('unsafe-inline');
      expect(scriptSrc, url).not.toContain('unsafe-eval');
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(h['x-content-type-options'], url).toBe('nosniff');
      expect(h['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(h['permissions-policy'], url).toContain('camera=()');
      expect(h['x-powered-by'], url).toBeUndefined();
      expect(h['server'], url).toBeUndefined();
      // HSTS only over TLS: this server speaks plain HTTP.
      expect(h['strict-transport-security'], url).toBeUndefined();
    }
  });

  test('pages carry no inline script, and the contact mailbox is configured through a meta tag', async ({ request }) => {
    const html = await (await request.get('/contact-us')).text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).toContain('<meta name="fullstop-contact-email" content="contact@fullstop.test">');
  });

  test('hashed assets are cached immutably and compressed with gzip or brotli', async ({ request }) => {
    const html = await (await request.get('/')).text();
    const script = html.match(/<script[^>]+src="(\/assets\/[^"]+\.js)"/)?.[1];
    const style = html.match(/<link[^>]+href="(\/assets\/[^"]+\.css)"/)?.[1];
    expect(script).toMatch(/-[\w-]{8}\.js$/);
    expect(style).toBeTruthy();
    for (const asset of [script!, style!]) {
      const gz = await request.get(asset, { headers: { 'accept-encoding': 'gzip' } });
      expect(gz.status()).toBe(200);
      expect(gz.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(gz.headers()['content-encoding']).toBe('gzip');
      const br = await request.get(asset, { headers: { 'accept-encoding': 'br' } });
      expect(br.headers()['content-encoding']).toBe('br');
    }
    const page = await request.get('/', { headers: { 'accept-encoding': 'gzip' } });
    expect(page.headers()['content-encoding']).toBe('gzip');
  });
});
