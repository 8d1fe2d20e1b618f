import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_SECRETS, startLoginServer, type LoginServer } from '../../../../packages/engine/test/fixtures/login-server.ts';
import { auditEvents, suiteSecrets } from '../../src/db/schema/index.ts';
import { bearer, buildTestApp, createTestClient, login, type TestClient } from '../helpers/app.ts';
import { importSuite, key, operator, OPERATOR_TOKEN, runAndWait, useEngineApp } from './helpers.ts';

const PASSWORD = 'a client password: 42';
const secretsUrl = (c: TestClient, name?: string) => `/operator/clients/${c.clientId}/secrets${name ? `/${name}` : ''}`;

const LOGIN_SUITE = (login: unknown, tests: unknown[]) => JSON.stringify({ version: 1, login, groups: [{ name: 'Account', tests }] });

describe('login secrets: operators set them per client, nobody reads them back', () => {
  const fixture = useEngineApp(0, async (app) => ({ a: await createTestClient(app), b: await createTestClient(app) }));

  it('sets, lists (names and dates only), replaces and deletes a secret, stored sealed and audited', async () => {
    const set = await fixture.app.inject({ method: 'PUT', url: secretsUrl(fixture.a, 'password'), headers: operator, payload: { value: PASSWORD } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().message).toBe('secret "password" set');
    expect(set.headers['cache-control']).toContain('no-store');

    const list = await fixture.app.inject({ url: secretsUrl(fixture.a), headers: operator });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ secrets: [{ name: 'password', setAt: expect.any(String) }], missing: [] });
    expect(list.body).not.toContain(PASSWORD);

    const replaced = await fixture.app.inject({ method: 'PUT', url: secretsUrl(fixture.a, 'password'), headers: operator, payload: { value: `${PASSWORD}!` } });
    expect(replaced.json().message).toBe('secret "password" replaced');

    const [row] = await fixture.app.db.select().from(suiteSecrets).where(eq(suiteSecrets.clientId, fixture.a.clientId));
    expect(row!.encrypted).not.toContain(PASSWORD);
    expect(row!.encrypted).not.toContain(Buffer.from(PASSWORD).toString('base64url').slice(0, 12));

    const audits = await fixture.app.db.select().from(auditEvents).where(and(eq(auditEvents.clientId, fixture.a.clientId), eq(auditEvents.type, 'secret.set')));
    expect(audits.map((r) => r.details)).toEqual([
      { name: 'password', replaced: false },
      { name: 'password', replaced: true },
    ]);
    expect(JSON.stringify(audits)).not.toContain(PASSWORD);

    const removed = await fixture.app.inject({ method: 'DELETE', url: secretsUrl(fixture.a, 'password'), headers: operator });
    expect(removed.json().message).toBe('secret "password" deleted');
    expect((await fixture.app.inject({ url: secretsUrl(fixture.a), headers: operator })).json().secrets).toEqual([]);
  });

  it('answers 400 with a clear message for a bad name or value, 404 for an unknown client or secret', async () => {
    const cases: { url: string; payload?: unknown; status: number; message: RegExp }[] = [
      { url: secretsUrl(fixture.a, 'has%20space'), payload: { value: PASSWORD }, status: 400, message: /name must be 1-64 letters, digits and \. _ -/ },
      { url: secretsUrl(fixture.a, 'x'.repeat(65)), payload: { value: PASSWORD }, status: 400, message: /name must be 1-64/ },
      { url: secretsUrl(fixture.a, 'pin'), payload: { value: 'abc' }, status: 400, message: /value must be at least 4 characters/ },
      { url: secretsUrl(fixture.a, 'pin'), payload: { value: 'x'.repeat(4097) }, status: 400, message: /value must be at most 4096 characters/ },
      { url: secretsUrl(fixture.a, 'pin'), payload: { value: 1234 }, status: 400, message: /value is required \(a string\)/ },
      { url: secretsUrl(fixture.a, 'pin'), payload: {}, status: 400, message: /value is required/ },
      { url: secretsUrl(fixture.a, 'pin'), payload: { value: PASSWORD, extra: 1 }, status: 400, message: /extra/ },
      { url: '/operator/clients/no-such-client/secrets/pin', payload: { value: PASSWORD }, status: 404, message: /./ },
    ];
    for (const c of cases) {
      const res = await fixture.app.inject({ method: 'PUT', url: c.url, headers: operator, ...(c.payload === undefined ? {} : { payload: c.payload as object }) });
      expect(res.statusCode, `${c.url} ${JSON.stringify(c.payload)}: ${res.body}`).toBe(c.status);
      expect(res.json().message).toMatch(c.message);
      expect(res.body).not.toContain(PASSWORD);
    }
    const missing = await fixture.app.inject({ method: 'DELETE', url: secretsUrl(fixture.a, 'never-set'), headers: operator });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('the client has no secret "never-set"');
  });

  it('is for operators only: a client (key or login) gets 403, nobody 401', async () => {
    const session = await login(fixture.app, fixture.a.email, fixture.a.password);
    for (const headers of [key(fixture.a), bearer(session.accessToken)]) {
      for (const [method, url] of [['GET', secretsUrl(fixture.a)], ['PUT', secretsUrl(fixture.a, 'password')], ['DELETE', secretsUrl(fixture.a, 'password')]] as const) {
        const res = await fixture.app.inject({ method, url, headers, ...(method === 'PUT' ? { payload: { value: PASSWORD } } : {}) });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
      }
    }
    expect((await fixture.app.inject({ url: secretsUrl(fixture.a) })).statusCode).toBe(401);
    expect((await fixture.app.db.select().from(suiteSecrets).where(eq(suiteSecrets.clientId, fixture.a.clientId))).length).toBe(0);
  });

  it('keeps each client’s secrets to itself', async () => {
    await fixture.app.inject({ method: 'PUT', url: secretsUrl(fixture.a, 'token'), headers: operator, payload: { value: PASSWORD } });
    expect((await fixture.app.inject({ url: secretsUrl(fixture.b), headers: operator })).json().secrets).toEqual([]);
    expect((await fixture.app.inject({ method: 'DELETE', url: secretsUrl(fixture.b, 'token'), headers: operator })).statusCode).toBe(404);
    expect((await fixture.app.inject({ url: secretsUrl(fixture.a), headers: operator })).json().secrets.map((s: { name: string }) => s.name)).toEqual(['token']);
  });

  it('says which secrets the current suite’s login names but lacks', async () => {
    const suite = LOGIN_SUITE({ type: 'header', headers: { Authorization: 'Bearer {{secret:token}}', 'X-Team': '{{secret:team}}' } }, [
      { name: 'Me', kind: 'api', options: { requests: [{ path: '/api/me' }] } },
    ]);
    const imported = await importSuite(fixture.app, fixture.a.clientId, { 'suite.json': suite });
    expect(imported.statusCode, imported.body).toBe(201);
    expect((await fixture.app.inject({ url: secretsUrl(fixture.a), headers: operator })).json().missing).toEqual(['team']);
  });

  it('refuses a suite whose login is malformed, naming the field', async () => {
    const bad = await importSuite(fixture.app, fixture.b.clientId, {
      'suite.json': LOGIN_SUITE({ type: 'form', url: '/login', fields: [{ selector: '#p', value: '{{secret:bad name}}' }], submit: '#go', success: {} }, [
        { name: 'Me', kind: 'api', options: { requests: [{ path: '/' }] } },
      ]),
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('login.fields.0.value');
    expect(bad.body).toContain('names no valid secret');
    expect(bad.body).toContain('login.success');
    expect(bad.body).toContain('give a url pattern, a selector, or both');
  });
});

describe('a run behind a login, through the server and a real runner process', () => {
  let app: FastifyInstance;
  let site: LoginServer;
  beforeAll(async () => {
    site = await startLoginServer();
    app = await buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_ALLOW_PRIVATE_TARGETS: true } });
    await app.engine.startWorkers(1);
  });
  afterAll(async () => {
    await app?.close();
    await site?.close();
  });

  it('logs in with the secret the operator set, reaches the protected API, and the run folder never holds the secret', async () => {
    const c = await createTestClient(app, { website: site.url });
    const suite = LOGIN_SUITE(
      { type: 'form', url: '/login', fields: [{ selector: '#email', value: 'alice@example.com' }, { selector: '#password', value: '{{secret:password}}' }], submit: '#submit', success: { url: '**/account' } },
      [
        { name: 'Me', kind: 'api', options: { requests: [{ path: '/api/me', expect: { status: 200, json: { user: 'alice' } } }] } },
        { name: 'Me anonymous', kind: 'api', login: false, options: { requests: [{ path: '/api/me', expect: { status: 401 } }] } },
      ],
    );
    expect((await importSuite(app, c.clientId, { 'suite.json': suite })).statusCode).toBe(201);
    const set = await app.inject({ method: 'PUT', url: `/operator/clients/${c.clientId}/secrets/password`, headers: operator, payload: { value: LOGIN_SECRETS.password } });
    expect(set.statusCode).toBe(200);

    const run = await runAndWait(app, c, 'all', 120_000);
    expect(run.status, JSON.stringify(run)).toBe('passed');
    expect(site.loggedIn.get('/api/me')).toBe(1);

    const dir = path.join(app.paths.dataDir);
    const forms = [LOGIN_SECRETS.password, encodeURIComponent(LOGIN_SECRETS.password), Buffer.from(LOGIN_SECRETS.password).toString('base64')];
    let files = 0;
    for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/runs|reports|engine/.test(entry.parentPath)) continue;
      const text = (await readFile(path.join(entry.parentPath, entry.name))).toString('latin1');
      files++;
      for (const f of forms) expect(text.includes(f), `${f} in ${entry.parentPath}/${entry.name}`).toBe(false);
    }
    expect(files).toBeGreaterThan(0);
  }, 180_000);
});
