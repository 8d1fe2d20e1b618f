import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_TOKEN, operator } from './engine/helpers.ts';
import { bearer, buildTestApp, createTestClient, login, type TestClient } from './helpers/app.ts';

/** The inputs a tester found answering 500 on main, and the rules that now refuse them with a 400 naming the field. */
describe('text, dates and ids are checked before they reach the database', () => {
  let app: FastifyInstance;
  let c: TestClient;
  let headers: Record<string, string>;
  beforeAll(async () => {
    app = await buildTestApp({ env: { OPERATOR_TOKEN } });
    c = await createTestClient(app);
    headers = bearer((await login(app, c.email, c.password)).accessToken);
  });
  afterAll(async () => app?.close());

  const refused = async (opts: InjectOptions, status: number | number[], field?: string) => {
    const res = await app.inject(opts);
    expect([status].flat(), `${opts.method ?? 'GET'} ${opts.url} -> ${res.body}`).toContain(res.statusCode);
    const body = res.json<{ message: string; code: string; field?: string }>();
    // The project's error shape, nothing more (no framework-specific fields).
    expect(Object.keys(body).every((k) => ['message', 'code', 'field'].includes(k)), res.body).toBe(true);
    expect(typeof body.message).toBe('string');
    expect(typeof body.code).toBe('string');
    if (field !== undefined) {
      expect(body.field).toBe(field);
      expect(body.message).toContain(field);
    }
    return body;
  };

  it('refuses NUL bytes and lone surrogates in every text field, naming it', async () => {
    const ok = { kind: 'retest', title: 'Checkout again', details: 'After the fix' };
    for (const [field, value] of [
      ['title', 'Check\u0000out'],
      ['details', 'a\u0000'],
      ['title', 'Half \uD83D pair'],
      ['details', 'trail \uDC00'],
    ] as const) {
      const body = await refused({ method: 'POST', url: '/requests', headers, payload: { ...ok, [field]: value } }, 400, field);
      expect(body).toEqual({ message: `${field} must not contain NUL bytes or unpaired surrogates`, code: 'VALIDATION_ERROR', field });
    }
    // The same request with whole surrogate pairs (emoji) is fine.
    const fine = await app.inject({ method: 'POST', url: '/requests', headers, payload: { ...ok, title: 'Retest 🧪 please' } });
    expect(fine.statusCode).toBe(201);
    expect(fine.json().title).toBe('Retest 🧪 please');
  });

  it('refuses them in operator bodies too', async () => {
    const client = { name: 'Acme\u0000', website: 'https://acme.test', email: 'nul@acme.test', password: 'long enough pw' };
    await refused({ method: 'POST', url: '/operator/clients', headers: operator, payload: client }, 400, 'name');
    await refused({ method: 'POST', url: `/operator/clients/${c.clientId}/false-positives`, headers: operator, payload: { ruleId: '10038', note: 'x\uDFFF' } }, 400, 'note');
    await refused({ method: 'POST', url: `/operator/clients/${c.clientId}/origins`, headers: operator, payload: { origin: 'https://a.test\u0000' } }, 400, 'origin');
    await refused(
      { method: 'POST', url: `/operator/clients/${c.clientId}/suite`, headers: operator, payload: { files: [{ path: 'suite\u0000.json', content: '{}' }] } },
      400,
      'files.0.path',
    );
  });

  it('refuses dates before 2000 or after 2100, and malformed ones', async () => {
    for (const before of ['0000-01-01T00:00:00Z', '1999-12-31T23:59:59Z', '2100-01-01T00:00:00Z', '+275760-09-13T00:00:00.000Z', '2024-02-30T25:00:00Z']) {
      await refused({ url: `/test/runs?before=${encodeURIComponent(before)}`, headers }, 400, 'before');
    }
    const ok = await app.inject({ url: `/test/runs?before=${encodeURIComponent('2030-01-01T00:00:00+02:00')}`, headers });
    expect(ok.statusCode).toBe(200);
  });

  it('answers a malformed id with 400 and an unknown one with 404, never 500', async () => {
    for (const id of ['%00', 'a%00b', '%ED%A0%80', "1'%20OR%20'1'%3D'1", 'x'.repeat(65)]) {
      await refused({ url: `/test/runs/${id}`, headers }, 400);
      await refused({ method: 'PATCH', url: `/operator/requests/${id}`, headers: operator, payload: { status: 'done' } }, 400);
      await refused({ url: `/operator/clients/${id}/suite`, headers: operator }, 400);
      await refused({ url: `/report/fetch/${id}/html`, headers }, [400, 404]);
    }
    await refused({ url: '/test/runs/not-a-uuid', headers }, 404);
    await refused({ url: '/test/runs/00000000-0000-0000-0000-000000000000', headers }, 404);
    await refused({ method: 'PATCH', url: '/operator/requests/00000000-0000-0000-0000-000000000000', headers: operator, payload: { status: 'done' } }, 404);
    await refused({ url: '/test/events?token=%00', headers }, 400, 'token');
  });

  it('keeps JSON bodies small: 64 KiB, except the suite import', async () => {
    const big = { kind: 'retest', title: 'Big', details: 'x'.repeat(70 * 1024) };
    const res = await app.inject({ method: 'POST', url: '/requests', headers, payload: big });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', message: 'The request body is too large' });
    const suite = JSON.stringify({ version: 1, groups: [{ name: 'G', tests: [{ name: 't', kind: 'api', options: { requests: [{ name: 'r', path: '/' }] } }] }] });
    const files = [{ path: 'suite.json', content: suite }, { path: 'notes/big.txt', content: 'n'.repeat(1024 * 1024) }];
    const imported = await app.inject({ method: 'POST', url: `/operator/clients/${c.clientId}/suite`, headers: operator, payload: { files } });
    expect(imported.statusCode, imported.body).not.toBe(413);
    expect(imported.statusCode).toBeLessThan(500);
  });
});
