import { VIEWER_READ_ONLY } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type TestClient } from './helpers/app.ts';
import { teamUser } from './helpers/team.ts';
import { fakeApk, multipart } from './helpers/zip.ts';
import { buildEngineApp, clientWithSuite, mixedSuite, operator } from './engine/helpers.ts';

describe('team roles: what a viewer may not do', () => {
  let app: FastifyInstance;
  let c: TestClient;
  let viewer: string;
  let member: string;
  beforeAll(async () => {
    // No workers: runs stay queued, which is all these checks need.
    app = await buildEngineApp(0);
    c = await clientWithSuite(app, mixedSuite());
    viewer = (await teamUser(app, c.clientId, 'viewer')).accessToken;
    member = (await teamUser(app, c.clientId, 'member')).accessToken;
  });
  afterAll(async () => app?.close());

  const runAll = (headers: Record<string, string>) => app.inject({ url: '/test/run/all', headers });
  const runOne = (headers: Record<string, string>) => app.inject({ url: `/test/run/${encodeURIComponent('marketing pages')}`, headers });
  const newKey = (headers: Record<string, string>) => app.inject({ method: 'POST', url: `/clientProfile/generateAPIKey/${c.clientId}`, headers });
  const upload = async (headers: Record<string, string>) => {
    const body = multipart('app.apk', await fakeApk());
    return app.inject({ method: 'POST', url: `/upload/android/${c.clientId}`, headers: { ...headers, ...body.headers }, payload: body.payload });
  };

  it('a viewer gets 403 VIEWER_READ_ONLY on run all, run one, a new API key and an upload, with the reason', async () => {
    const calls = [
      [await runAll(bearer(viewer)), 'run tests'],
      [await runOne(bearer(viewer)), 'run tests'],
      [await newKey(bearer(viewer)), 'generate API keys'],
      [await upload(bearer(viewer)), 'upload builds'],
    ] as const;
    for (const [res, action] of calls) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({ code: VIEWER_READ_ONLY, message: `Viewers cannot ${action}: ask an owner of your team for the member role` });
    }
    // Nothing was queued, and the key still works.
    expect((await app.inject({ url: '/test/runs', headers: bearer(viewer) })).json().runs).toEqual([]);
    expect((await app.inject({ url: '/test/runs', headers: { 'x-api-key': c.apiKey } })).statusCode).toBe(200);
  });

  it('a viewer still reads the tests and the profile, and sends requests', async () => {
    expect((await app.inject({ url: '/test/fetch/all', headers: bearer(viewer) })).statusCode).toBe(200);
    const profile = await app.inject({ url: `/clientProfile/${c.clientId}`, headers: bearer(viewer) });
    expect(profile.statusCode).toBe(200);
    // No key for a viewer (it would run tests as "the API key"); a member reads it whole.
    expect(profile.json().apiToken).toBe('');
    expect((await app.inject({ url: `/clientProfile/${c.clientId}`, headers: bearer(member) })).json().apiToken).toBe(c.apiKey);
    const sent = await app.inject({
      method: 'POST',
      url: '/requests',
      headers: bearer(viewer),
      payload: { kind: 'manual-test', title: 'Check the checkout by hand', details: 'Please test the coupon field.' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
  });

  it('a viewer reads a bug and writes in its thread, but answers it through nobody: no actions offered, 403 on each', async () => {
    const created = await app.inject({
      method: 'POST',
      url: `/operator/clients/${c.clientId}/bugs`,
      headers: operator,
      payload: { title: 'Checkout button does nothing', severity: 'high', publish: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const seen = await app.inject({ url: `/bugs/${id}`, headers: bearer(viewer) });
    expect(seen.statusCode).toBe(200);
    expect(seen.json().actions).toEqual([]);
    expect((await app.inject({ url: `/bugs/${id}`, headers: bearer(member) })).json().actions).toContain('accept');
    const answer = await app.inject({ method: 'POST', url: `/bugs/${id}/transition`, headers: bearer(viewer), payload: { action: 'accept' } });
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toBe('Viewers cannot answer bugs or ask for retests: ask an owner of your team for the member role');
    const severity = await app.inject({ method: 'PATCH', url: `/bugs/${id}/severity`, headers: bearer(viewer), payload: { severity: 'low' } });
    expect(severity.statusCode).toBe(403);
    const comment = await app.inject({ method: 'POST', url: `/bugs/${id}/comments`, headers: bearer(viewer), payload: { body: 'Seen on my phone too.' } });
    expect(comment.statusCode).toBe(200);
    expect((await app.inject({ url: `/bugs/${id}`, headers: bearer(member) })).json().status).toBe('open');
  });

  it('a member, the API key and an operator can run and upload', async () => {
    expect((await runAll(bearer(member))).statusCode).toBe(200);
    expect((await runOne(bearer(member))).statusCode).toBe(200);
    expect((await runAll({ 'x-api-key': c.apiKey })).statusCode).toBe(200);
    expect((await upload(bearer(member))).statusCode).toBe(200);
    expect((await upload(operator)).statusCode).toBe(200);
    const key = await newKey(bearer(member));
    expect(key.statusCode).toBe(200);
    expect((await runAll({ 'x-api-key': key.json().apiKey })).statusCode).toBe(200);
  });
});
