import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createTestClient, login, type TestClient } from './helpers/app.ts';

/** Bodies of every shape a careless or hostile caller may send. */
const badBodies: { name: string; opts: Partial<InjectOptions> }[] = [
  { name: 'no body', opts: {} },
  { name: 'empty JSON body', opts: { headers: { 'content-type': 'application/json' }, payload: '' } },
  { name: 'invalid JSON', opts: { headers: { 'content-type': 'application/json' }, payload: '{"email":' } },
  { name: 'JSON null', opts: { headers: { 'content-type': 'application/json' }, payload: 'null' } },
  { name: 'JSON string', opts: { headers: { 'content-type': 'application/json' }, payload: '"hello"' } },
  { name: 'JSON number', opts: { headers: { 'content-type': 'application/json' }, payload: '42' } },
  { name: 'JSON array', opts: { payload: [1, 2, 3] as unknown as string } },
  { name: 'wrong field types', opts: { payload: { email: 12, password: {}, token: [], name: false, website: 3, clientId: {} } } },
  { name: 'empty strings', opts: { payload: { email: '', password: '', token: '', name: '', website: '', clientId: '' } } },
  { name: 'huge strings', opts: { payload: { email: `${'a'.repeat(5000)}@x.test`, password: 'p'.repeat(5000), token: 't'.repeat(5000), name: 'n'.repeat(5000), website: `https://${'w'.repeat(5000)}.test` } } },
  { name: 'prototype pollution', opts: { headers: { 'content-type': 'application/json' }, payload: '{"__proto__":{"role":"operator"},"constructor":{"prototype":{}}}' } },
  { name: 'form-encoded', opts: { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=a&password=b' } },
  { name: 'text body', opts: { headers: { 'content-type': 'text/plain' }, payload: 'hello' } },
  { name: 'unknown content type', opts: { headers: { 'content-type': 'application/x-weird' }, payload: 'x' } },
  { name: 'body over 1 MiB', opts: { headers: { 'content-type': 'application/json' }, payload: `{"email":"${'a'.repeat(1_100_000)}"}` } },
];

const badIds = ['%00', 'x'.repeat(65), '..%2F..%2Fetc', "1' OR '1'='1", '%E0%A4%A', '-1', 'null'];

describe('bad inputs never answer 500', () => {
  let app: FastifyInstance;
  let c: TestClient;
  let headers: Record<string, string>;
  let opToken: string;
  beforeAll(async () => {
    app = await buildTestApp();
    c = await createTestClient(app);
    headers = bearer((await login(app, c.email, c.password)).accessToken);
    opToken = (await import('node:fs')).readFileSync(`${app.paths.dataDir}/operator-token`, 'utf8').trim();
  });
  afterAll(async () => app?.close());

  const check = async (opts: InjectOptions) => {
    const res = await app.inject(opts);
    expect(res.statusCode, `${opts.method} ${opts.url} -> ${res.statusCode} ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, `${opts.method} ${opts.url} -> ${res.body.slice(0, 200)}`).toBeLessThan(500);
    const body = res.json();
    expect(typeof body.message).toBe('string');
    expect(body.message.length).toBeGreaterThan(0);
    expect(body.message).not.toMatch(/Internal server error|stack|at .*\.ts:/);
    return res;
  };

  const bodyRoutes = () => [
    { url: '/auth/login', headers: {} },
    { url: '/auth/refresh-token', headers: {} },
    { url: '/auth/forgot-password', headers: {} },
    { url: '/auth/reset-password', headers: {} },
    { url: '/operator/clients', headers: bearer(opToken) },
    { url: '/operator/users', headers: bearer(opToken) },
    { url: `/upload/android/${c.clientId}`, headers },
    { url: `/upload/ios/${c.clientId}`, headers },
  ];

  it('every body route refuses every bad body with a 4xx JSON message', async () => {
    for (const route of bodyRoutes()) {
      for (const bad of badBodies) {
        await check({ method: 'POST', url: route.url, ...bad.opts, headers: { ...route.headers, ...(bad.opts.headers as Record<string, string>) } });
      }
    }
  });

  it('names the field at fault', async () => {
    const res = await check({ method: 'POST', url: '/auth/login', payload: { email: 'not-an-email', password: 'x' } });
    expect(res.json()).toMatchObject({ field: 'email', message: 'email must be a valid email address' });
    const missing = await check({ method: 'POST', url: '/auth/login', payload: { email: 'a@b.test' } });
    expect(missing.json().field).toBe('password');
    const site = await check({ method: 'POST', url: '/operator/clients', headers: bearer(opToken), payload: { name: 'X', website: 'javascript:alert(1)', email: 'a@b.test', password: 'long enough pw' } });
    expect(site.json().field).toBe('website');
    const user = await check({ method: 'POST', url: '/operator/users', headers: bearer(opToken), payload: { email: 'z@b.test', password: 'long enough pw' } });
    expect(user.json().field).toBe('clientId');
  });

  it('every id route refuses odd ids with a 4xx JSON message', async () => {
    for (const id of badIds) {
      for (const [method, url] of [
        ['GET', `/clientProfile/${id}`],
        ['POST', `/clientProfile/generateAPIKey/${id}`],
        ['POST', `/upload/android/${id}`],
        ['POST', `/upload/${id}/${c.clientId}`],
      ] as const) {
        await check({ method, url, headers });
        await check({ method, url, headers: bearer(opToken) });
      }
    }
  });

  it('odd credentials are 401, never 500', async () => {
    const url = `/clientProfile/${c.clientId}`;
    const odd = [
      { authorization: 'Bearer' },
      { authorization: `Bearer ${'a'.repeat(10_000)}` },
      { authorization: 'Bearer a.b.c' },
      { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4Iiwicm9sZSI6Im9wZXJhdG9yIn0.' },
      { 'x-api-key': '' },
      { 'x-api-key': 'fsk_' + 'k'.repeat(5000) },
      { 'x-api-key': "' OR 1=1 --" },
    ];
    for (const h of odd) {
      const res = await check({ method: 'GET', url, headers: h });
      expect(res.statusCode).toBe(401);
    }
  });

  it('unknown API paths answer JSON 404', async () => {
    const res = await check({ method: 'GET', url: '/clientProfile' });
    expect(res.statusCode).toBe(404);
    await check({ method: 'DELETE', url: `/clientProfile/${c.clientId}`, headers });
    await check({ method: 'POST', url: '/operator/nothing', headers: bearer(opToken) });
  });

  it('operator routes refuse duplicates (409) and unknown clients (404)', async () => {
    const dup = await check({ method: 'POST', url: '/operator/clients', headers: bearer(opToken), payload: { name: 'Dup', website: 'https://dup.test', email: c.email, password: 'long enough pw' } });
    expect(dup.statusCode).toBe(409);
    const ghost = await check({ method: 'POST', url: '/operator/users', headers: bearer(opToken), payload: { clientId: 'nope', email: 'new@b.test', password: 'long enough pw' } });
    expect(ghost.statusCode).toBe(404);
  });
});
