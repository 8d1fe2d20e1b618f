import type { ClientRequest, OperatorClientRequest } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createTestClient, login, type TestClient } from '../../../test/helpers/app.ts';

const OPERATOR_TOKEN = 'fso_requests-test-operator-token-0123456789';

describe('client requests', () => {
  let app: FastifyInstance;
  let a: TestClient;
  let b: TestClient;
  let tokenA: string;

  beforeAll(async () => {
    app = await buildTestApp({ env: { OPERATOR_TOKEN } });
    [a, b] = await Promise.all([createTestClient(app, { name: 'Acme' }), createTestClient(app, { name: 'Beta' })]);
    tokenA = (await login(app, a.email, a.password)).accessToken;
  });
  afterAll(() => app?.close());

  const create = (headers: Record<string, string>, payload: unknown) =>
    app.inject({ method: 'POST', url: '/requests', headers, payload: payload as object });

  it('creates a request and lists it, newest first, for its own client only', async () => {
    const first = await create(bearer(tokenA), { kind: 'new-feature', title: 'Checkout with coupons', details: 'Three scenarios' });
    expect(first.statusCode).toBe(201);
    expect(first.json<ClientRequest>()).toMatchObject({ kind: 'new-feature', status: 'open', title: 'Checkout with coupons' });
    // Through the API key too, as a client's CI would.
    const second = await create({ 'x-api-key': a.apiKey }, { kind: 'retest', title: 'Login bug fixed', details: 'Release 2.3' });
    expect(second.statusCode).toBe(201);

    const mine = await app.inject({ method: 'GET', url: '/requests', headers: bearer(tokenA) });
    expect(mine.statusCode).toBe(200);
    expect(mine.json<ClientRequest[]>().map((r) => r.title)).toEqual(['Login bug fixed', 'Checkout with coupons']);

    const theirs = await app.inject({ method: 'GET', url: '/requests', headers: { 'x-api-key': b.apiKey } });
    expect(theirs.json<ClientRequest[]>()).toEqual([]);
  });

  it('names the field at fault and never stores a bad request', async () => {
    const res = await create(bearer(tokenA), { kind: 'new-feature', title: 'ab', details: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/title/);
    const kind = await create(bearer(tokenA), { kind: 'free-lunch', title: 'Valid title', details: 'x' });
    expect(kind.statusCode).toBe(400);
    expect(kind.json<{ message: string }>().message).toMatch(/kind/);
  });

  it('answers 401 without credentials and with a wrong key', async () => {
    expect((await app.inject({ method: 'GET', url: '/requests' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/requests', headers: { 'x-api-key': 'nope' } })).statusCode).toBe(401);
  });

  it('lets operators list every request and change its status, and only operators', async () => {
    const operator = bearer(OPERATOR_TOKEN);
    const all = await app.inject({ method: 'GET', url: '/operator/requests?status=open', headers: operator });
    expect(all.statusCode).toBe(200);
    const list = all.json<OperatorClientRequest[]>();
    expect(list.length).toBeGreaterThanOrEqual(2);
    expect(list.every((r) => r.clientName === 'Acme')).toBe(true);

    const target = list[0]!;
    const patched = await app.inject({ method: 'PATCH', url: `/operator/requests/${target.id}`, headers: operator, payload: { status: 'in-progress' } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json<ClientRequest>().status).toBe('in-progress');

    const byClient = await app.inject({ method: 'PATCH', url: `/operator/requests/${target.id}`, headers: bearer(tokenA), payload: { status: 'done' } });
    expect(byClient.statusCode).toBe(403);
    const missing = await app.inject({ method: 'PATCH', url: '/operator/requests/no-such-id', headers: operator, payload: { status: 'done' } });
    expect(missing.statusCode).toBe(404);
    // An operator has no client of its own to file a request for.
    expect((await create(operator, { kind: 'manual-test', title: 'Valid title', details: 'x' })).statusCode).toBe(403);
  });
});
