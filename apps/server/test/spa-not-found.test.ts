import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helpers/app.ts';

/** Every first path segment of the API (the routes say so; this list only checks they still do). */
const API_PREFIXES = ['/auth', '/clientProfile', '/upload', '/test', '/report', '/insight', '/requests', '/operator', '/docs', '/healthz'];

describe('an unknown path: the SPA’s 404 page, or JSON under the API', () => {
  const distDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-dist-'));
  let app: FastifyInstance;

  beforeAll(async () => {
    mkdirSync(path.join(distDir, 'assets'));
    writeFileSync(path.join(distDir, 'index.html'), '<html><head></head><body>home</body></html>');
    writeFileSync(path.join(distDir, '404.html'), '<html><head></head><body>not found</body></html>');
    writeFileSync(path.join(distDir, 'assets', 'app.js'), 'console.log(1)');
    app = await buildTestApp({ env: { WEB_DIST_DIR: distDir } });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  it('answers JSON 404 under every API prefix', async () => {
    for (const prefix of API_PREFIXES) {
      for (const url of [`${prefix}/no/such/thing/here`, `${prefix}/no/such/thing/here?x=1`]) {
        const res = await app.inject({ url });
        expect(res.statusCode, url).toBe(404);
        expect(res.json(), url).toMatchObject({ code: 'NOT_FOUND' });
      }
    }
  });

  it('answers the 404 page anywhere else, also beside the API’s prefixes and under the SPA’s own', async () => {
    for (const url of ['/no-such-page', '/authx', '/docsy/x', '/login/extra', '/assets/missing.js', '/dashboard/nope']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.body, url).toContain('not found');
    }
  });

  it('still serves the pages, the files and the API', async () => {
    expect((await app.inject({ url: '/login' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/assets/app.js' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/no-such-page' })).json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
