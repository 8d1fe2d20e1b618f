import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createTestClient, createTestOperator, login, type TestClient } from './helpers/app.ts';
import { fakeApk, multipart } from './helpers/zip.ts';

type Auth = { name: string; headers: (c: TestClient) => Promise<Record<string, string>> };

/** Every route that takes a client id, with a request that would succeed for the caller's own client. */
const idRoutes = [
  { method: 'GET' as const, url: (id: string) => `/clientProfile/${id}`, body: () => ({}) },
  { method: 'POST' as const, url: (id: string) => `/clientProfile/generateAPIKey/${id}`, body: () => ({}) },
  { method: 'POST' as const, url: (id: string) => `/upload/android/${id}`, body: async () => multipart('app.apk', await fakeApk()) },
  { method: 'POST' as const, url: (id: string) => `/upload/ios/${id}`, body: async () => multipart('app.apk', await fakeApk()) },
];

describe('tenant isolation', () => {
  let app: FastifyInstance;
  let alice: TestClient;
  let bob: TestClient;
  let auths: Auth[];
  beforeAll(async () => {
    app = await buildTestApp();
    alice = await createTestClient(app, { name: 'Alice' });
    bob = await createTestClient(app, { name: 'Bob' });
    auths = [
      { name: 'bearer', headers: async (c) => bearer((await login(app, c.email, c.password)).accessToken) },
      // The key is read back each time: generateAPIKey replaces it during the run.
      { name: 'api key', headers: async (c) => ({ 'x-api-key': (await app.inject({ method: 'GET', url: `/clientProfile/${c.clientId}`, headers: bearer((await login(app, c.email, c.password)).accessToken) })).json().apiToken }) },
    ];
  });
  afterAll(async () => app?.close());

  for (const route of idRoutes) {
    for (const via of ['bearer', 'api key']) {
      it(`${route.method} ${route.url(':id')} with ${via}: another client's id and an unknown id look the same (404)`, async () => {
        const auth = auths.find((a) => a.name === via)!;
        const headers = await auth.headers(alice);
        const foreign = (await route.body()) as { payload?: Buffer; headers?: Record<string, string> };
        const other = await app.inject({ method: route.method, url: route.url(bob.clientId), headers: { ...headers, ...foreign.headers }, ...(foreign.payload ? { payload: foreign.payload } : {}) });
        const ghost = (await route.body()) as { payload?: Buffer; headers?: Record<string, string> };
        const unknown = await app.inject({ method: route.method, url: route.url(crypto.randomUUID()), headers: { ...headers, ...ghost.headers }, ...(ghost.payload ? { payload: ghost.payload } : {}) });
        expect(other.statusCode).toBe(404);
        expect(unknown.statusCode).toBe(404);
        expect(other.json()).toEqual(unknown.json());
        expect(other.body).not.toContain(bob.clientId);
      });
    }
  }

  it("leaves the other client's data untouched after refused calls", async () => {
    const op = await createTestOperator(app);
    const { accessToken } = await login(app, op.email, op.password);
    const profile = (await app.inject({ method: 'GET', url: `/clientProfile/${bob.clientId}`, headers: bearer(accessToken) })).json();
    // Operators see the key masked; bob's own key still reads the same profile whole.
    expect(profile.apiToken).toBe(`fsk_…${bob.apiKey.slice(-4)}`);
    expect(profile.androidAppPath).toBeNull();
    const own = (await app.inject({ method: 'GET', url: `/clientProfile/${bob.clientId}`, headers: { 'x-api-key': bob.apiKey } })).json();
    expect(own.apiToken).toBe(bob.apiKey);
  });

  it('lets operators (bearer and operator token) act on every client', async () => {
    const op = await createTestOperator(app);
    const { accessToken } = await login(app, op.email, op.password);
    const opToken = (await import('node:fs')).readFileSync(`${app.paths.dataDir}/operator-token`, 'utf8').trim();
    for (const headers of [bearer(accessToken), bearer(opToken)]) {
      for (const c of [alice, bob]) {
        const res = await app.inject({ method: 'GET', url: `/clientProfile/${c.clientId}`, headers });
        expect(res.statusCode).toBe(200);
        expect(res.json().id).toBe(c.clientId);
      }
    }
    const missing = await app.inject({ method: 'GET', url: `/clientProfile/${crypto.randomUUID()}`, headers: bearer(opToken) });
    expect(missing.statusCode).toBe(404);
  });

  it('stops the old API key at once when a new one is generated', async () => {
    const c = await createTestClient(app);
    const old = c.apiKey;
    const url = `/clientProfile/${c.clientId}`;
    expect((await app.inject({ method: 'GET', url, headers: { 'x-api-key': old } })).statusCode).toBe(200);
    const gen = await app.inject({ method: 'POST', url: `/clientProfile/generateAPIKey/${c.clientId}`, headers: { 'x-api-key': old } });
    expect(gen.statusCode).toBe(200);
    const { apiKey } = gen.json<{ apiKey: string }>();
    expect(apiKey).not.toBe(old);
    const refused = await app.inject({ method: 'GET', url, headers: { 'x-api-key': old } });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe('Invalid API key');
    const fresh = await app.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey } });
    expect(fresh.json().apiToken).toBe(apiKey);
  });

  it('refuses calls with no credentials, a forged token or an unknown key with 401', async () => {
    const url = `/clientProfile/${alice.clientId}`;
    for (const headers of [{}, bearer('not.a.jwt'), { 'x-api-key': 'fsk_unknown' }, { authorization: 'Basic abc' }]) {
      const res = await app.inject({ method: 'GET', url, headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBeTruthy();
    }
  });

  it('refuses the operator API to clients with 403', async () => {
    const { accessToken } = await login(app, alice.email, alice.password);
    for (const headers of [bearer(accessToken), { 'x-api-key': alice.apiKey }]) {
      const res = await app.inject({ method: 'GET', url: '/operator/clients', headers });
      expect([401, 403]).toContain(res.statusCode);
    }
  });
});
