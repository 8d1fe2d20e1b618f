import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../src/db/schema/index.ts';
import { bearer, buildTestApp, createTestClient, login, type TestClient } from './helpers/app.ts';

describe('server-side caches', () => {
  let app: FastifyInstance;
  let c: TestClient;
  let other: TestClient;
  let auth: Record<string, string>;
  const profile = async () => (await app.inject({ method: 'GET', url: `/clientProfile/${c.clientId}`, headers: auth })).json();
  beforeAll(async () => {
    app = await buildTestApp();
    c = await createTestClient(app, { website: 'https://before.test' });
    other = await createTestClient(app);
    auth = bearer((await login(app, c.email, c.password)).accessToken);
  });
  afterAll(async () => app?.close());

  it('serves the profile from cache until clearCache empties it', async () => {
    expect((await profile()).website).toBe('https://before.test');
    // A change behind the API's back is not seen while cached ...
    await app.db.update(clients).set({ website: 'https://after.test' }).where(eq(clients.id, c.clientId));
    expect((await profile()).website).toBe('https://before.test');
    // ... and is seen once the portal's logout call empties the cache.
    const res = await app.inject({ method: 'POST', url: '/clientProfile/clearCache', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBeTruthy();
    expect((await profile()).website).toBe('https://after.test');
  });

  it('empties only the caller\'s client', async () => {
    app.cache.set(other.clientId, 'tests', { group: ['x'] });
    app.cache.set(c.clientId, 'tests', { group: ['y'] });
    app.cache.set(c.clientId, 'reports', { r: 1 });
    expect((await app.inject({ method: 'POST', url: '/test/clearCache', headers: auth })).statusCode).toBe(200);
    expect(app.cache.get(c.clientId, 'tests')).toBeUndefined();
    expect(app.cache.get(c.clientId, 'reports')).toEqual({ r: 1 });
    expect(app.cache.get(other.clientId, 'tests')).toEqual({ group: ['x'] });
    expect((await app.inject({ method: 'POST', url: '/report/clearCache', headers: { 'x-api-key': c.apiKey } })).statusCode).toBe(200);
    expect(app.cache.get(c.clientId, 'reports')).toBeUndefined();
  });

  it('invalidates the profile on writes (new key)', async () => {
    const before = await profile();
    const { apiKey } = (await app.inject({ method: 'POST', url: `/clientProfile/generateAPIKey/${c.clientId}`, headers: auth })).json();
    const after = await profile();
    expect(after.apiToken).toBe(apiKey);
    expect(after.apiToken).not.toBe(before.apiToken);
  });

  it('refuses clearCache without credentials', async () => {
    for (const url of ['/clientProfile/clearCache', '/test/clearCache', '/report/clearCache']) {
      expect((await app.inject({ method: 'POST', url })).statusCode).toBe(401);
    }
  });
});
