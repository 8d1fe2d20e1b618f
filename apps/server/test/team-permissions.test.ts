import { VIEWER_READ_ONLY } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import { bearer } from './helpers/app.ts';
import { teamUser } from './helpers/team.ts';
import { fakeApk, multipart } from './helpers/zip.ts';
import { clientWithSuite, mixedSuite, operator, useEngineApp } from './engine/helpers.ts';

describe('team roles: what a viewer may not do', () => {
  // No workers: runs stay queued, which is all these checks need.
  const fixture = useEngineApp(0, async (app) => {
    const c = await clientWithSuite(app, mixedSuite());
    return {
      c,
      viewer: (await teamUser(app, c.clientId, 'viewer')).accessToken,
      member: (await teamUser(app, c.clientId, 'member')).accessToken,
    };
  });

  const runAll = (headers: Record<string, string>) => fixture.app.inject({ url: '/test/run/all', headers });
  const runOne = (headers: Record<string, string>) => fixture.app.inject({ url: `/test/run/${encodeURIComponent('marketing pages')}`, headers });
  const newKey = (headers: Record<string, string>) => fixture.app.inject({ method: 'POST', url: `/clientProfile/generateAPIKey/${fixture.c.clientId}`, headers });
  const upload = async (headers: Record<string, string>) => {
    const body = multipart('app.apk', await fakeApk());
    return fixture.app.inject({ method: 'POST', url: `/upload/android/${fixture.c.clientId}`, headers: { ...headers, ...body.headers }, payload: body.payload });
  };

  it('a viewer gets 403 VIEWER_READ_ONLY on run all, run one, a new API key and an upload, with the reason', async () => {
    const calls = [
      [await runAll(bearer(fixture.viewer)), 'run tests'],
      [await runOne(bearer(fixture.viewer)), 'run tests'],
      [await newKey(bearer(fixture.viewer)), 'generate API keys'],
      [await upload(bearer(fixture.viewer)), 'upload builds'],
    ] as const;
    for (const [res, action] of calls) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({ code: VIEWER_READ_ONLY, message: `Viewers cannot ${action}: ask an owner of your team for the member role` });
    }
    // Nothing was queued, and the key still works.
    expect((await fixture.app.inject({ url: '/test/runs', headers: bearer(fixture.viewer) })).json().runs).toEqual([]);
    expect((await fixture.app.inject({ url: '/test/runs', headers: { 'x-api-key': fixture.c.apiKey } })).statusCode).toBe(200);
  });

  it('a viewer still reads the tests and the profile (requests: viewers-read-only.test.ts)', async () => {
    expect((await fixture.app.inject({ url: '/test/fetch/all', headers: bearer(fixture.viewer) })).statusCode).toBe(200);
    const profile = await fixture.app.inject({ url: `/clientProfile/${fixture.c.clientId}`, headers: bearer(fixture.viewer) });
    expect(profile.statusCode).toBe(200);
    // No key for a viewer (it would run tests as "the API key"); a member reads it whole.
    expect(profile.json().apiToken).toBe('');
    expect((await fixture.app.inject({ url: `/clientProfile/${fixture.c.clientId}`, headers: bearer(fixture.member) })).json().apiToken).toBe(fixture.c.apiKey);
  });

  it('a viewer reads a bug and writes in its thread, but answers it through nobody: no actions offered, 403 on each', async () => {
    const created = await fixture.app.inject({
      method: 'POST',
      url: `/operator/clients/${fixture.c.clientId}/bugs`,
      headers: operator,
      payload: { title: 'Checkout button does nothing', severity: 'high', publish: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const seen = await fixture.app.inject({ url: `/bugs/${id}`, headers: bearer(fixture.viewer) });
    expect(seen.statusCode).toBe(200);
    expect(seen.json().actions).toEqual([]);
    expect((await fixture.app.inject({ url: `/bugs/${id}`, headers: bearer(fixture.member) })).json().actions).toContain('accept');
    const answer = await fixture.app.inject({ method: 'POST', url: `/bugs/${id}/transition`, headers: bearer(fixture.viewer), payload: { action: 'accept' } });
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toBe('Viewers cannot answer bugs or ask for retests: ask an owner of your team for the member role');
    const severity = await fixture.app.inject({ method: 'PATCH', url: `/bugs/${id}/severity`, headers: bearer(fixture.viewer), payload: { severity: 'low' } });
    expect(severity.statusCode).toBe(403);
    const comment = await fixture.app.inject({ method: 'POST', url: `/bugs/${id}/comments`, headers: bearer(fixture.viewer), payload: { body: 'Seen on my phone too.' } });
    expect(comment.statusCode).toBe(200);
    expect((await fixture.app.inject({ url: `/bugs/${id}`, headers: bearer(fixture.member) })).json().status).toBe('open');
  });

  it('a member, the API key and an operator can run and upload', async () => {
    expect((await runAll(bearer(fixture.member))).statusCode).toBe(200);
    expect((await runOne(bearer(fixture.member))).statusCode).toBe(200);
    expect((await runAll({ 'x-api-key': fixture.c.apiKey })).statusCode).toBe(200);
    expect((await upload(bearer(fixture.member))).statusCode).toBe(200);
    expect((await upload(operator)).statusCode).toBe(200);
    const key = await newKey(bearer(fixture.member));
    expect(key.statusCode).toBe(200);
    expect((await runAll({ 'x-api-key': key.json().apiKey })).statusCode).toBe(200);
  });
});
