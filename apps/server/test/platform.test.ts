import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '../src/app.ts';
import { DataDirLockedError } from '../src/lib/data-dir.ts';
import { buildTestApp, login, TEST_DATABASE_URL } from './helpers/app.ts';
import { freshDatabase } from './helpers/database.ts';

describe('data directory', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('refuses to start a second server on the same data directory, naming the reason', async () => {
    const first = await buildTestApp();
    try {
      const second = build({ database: await freshDatabase(), logger: false, env: { DATA_DIR: first.paths.dataDir, LOG_LEVEL: 'silent', FULLSTOP_DEMO: false } });
      await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
      await expect(second).rejects.toThrow(/already running on the data directory/);
    } finally {
      await first.close();
    }
  });

  it('creates the operator token and server key readable only by their owner', async () => {
    const app = await buildTestApp();
    try {
      for (const name of ['operator-token', 'server-key']) {
        expect(statSync(path.join(app.paths.dataDir, name)).mode & 0o777).toBe(0o600);
      }
    } finally {
      await app.close();
    }
  });

  it('creates the demo client and user on the embedded database, once', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-demo-'));
    dirs.push(dataDir);
    // FULLSTOP_DEMO unset: on for the embedded database only (test/demo.test.ts covers FULLSTOP_DEMO=1).
    const app = await buildTestApp({ env: { FULLSTOP_DEMO: undefined, PUBLIC_URL: 'http://qa.example.test', DATA_DIR: dataDir } });
    try {
      if (TEST_DATABASE_URL) {
        expect(app.demoClientId).toBeNull();
        return;
      }
      expect(app.demoClientId).toBeTruthy();
      const session = await login(app, 'demo@fullstop.test', 'fullstop-demo');
      expect(session.userData.clientId).toBe(app.demoClientId);
      const profile = await app.inject({ method: 'GET', url: `/clientProfile/${app.demoClientId}`, headers: { authorization: `Bearer ${session.accessToken}` } });
      expect(profile.json()).toMatchObject({ website: 'http://qa.example.test', clientName: 'Fullstop Demo' });
    } finally {
      await app.close();
    }
  });
});

describe('OpenAPI', () => {
  it('documents every route from its schemas, and serves the docs page', async () => {
    const app = await buildTestApp();
    try {
      const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json();
      for (const p of ['/auth/login', '/auth/refresh-token', '/auth/forgot-password', '/auth/reset-password', '/clientProfile/{id}', '/clientProfile/generateAPIKey/{id}', '/upload/{platform}/{id}', '/clientProfile/clearCache', '/test/clearCache', '/report/clearCache', '/operator/clients', '/operator/users']) {
        expect(doc.paths[p], p).toBeDefined();
      }
      expect(doc.paths['/auth/login'].post.requestBody.content['application/json'].schema.properties.email).toBeDefined();
      const page = await app.inject({ method: 'GET', url: '/docs/' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('swagger');
    } finally {
      await app.close();
    }
  });
});
