import { VIEWER_READ_ONLY } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import { ATTACHMENT_QUOTA } from '../src/features/requests/plugin.ts';
import { bearer, buildTestApp, createTestClient, login, operatorBearer, type TestClient, useApp } from './helpers/app.ts';
import { teamUser } from './helpers/team.ts';
import { multipart } from './helpers/zip.ts';

/** Issue 24: viewers only read trackers and requests; a client's request files have a quota; report links are not kept. */

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (bytes: number) => Buffer.concat([PNG_HEAD, Buffer.alloc(bytes - PNG_HEAD.length, 1)]);
const refusedAsViewer = (res: { statusCode: number; json: () => { code: string; message: string } }, action: string) => {
  expect(res.statusCode).toBe(403);
  expect(res.json()).toEqual({ code: VIEWER_READ_ONLY, message: `Viewers cannot ${action}: ask an owner of your team for the member role` });
};

describe('viewers only read', () => {
  const fixture = useApp(() => buildTestApp({ env: { REQUEST_ATTACHMENTS_MAX_COUNT: 3, REQUEST_ATTACHMENTS_MAX_TOTAL_MB: 1 } }));
  let c: TestClient;
  let viewer: Record<string, string>;
  let member: Record<string, string>;
  const setUp = async () => {
    if (c) return;
    c = await createTestClient(fixture.app);
    viewer = bearer((await teamUser(fixture.app, c.clientId, 'viewer')).accessToken);
    member = bearer((await teamUser(fixture.app, c.clientId, 'member')).accessToken);
  };
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
    fixture.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const attach = (id: string, headers: Record<string, string>, content: Buffer, name = 'shot.png') => {
    const body = multipart(name, content, 'file', 'image/png');
    return fixture.app.inject({ method: 'POST', url: `/requests/${id}/attachments`, headers: { ...headers, ...body.headers }, payload: body.payload });
  };
  const newRequest = async (headers: Record<string, string>) => {
    const res = await call('POST', '/requests', headers, { kind: 'question', title: 'Coupons', details: 'Do you test them?' });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  };

  it('a viewer reads tracker connections but cannot connect, replace, disconnect, test or sync one; a member can', async () => {
    await setUp();
    const webhook = { url: 'https://hooks.example.test/bugs' };
    expect((await call('GET', '/integrations', viewer)).statusCode).toBe(200);
    expect((await call('GET', '/integrations/deliveries', viewer)).statusCode).toBe(200);
    refusedAsViewer(await call('PUT', '/integrations/webhook', viewer, webhook), 'connect trackers');
    refusedAsViewer(await call('DELETE', '/integrations/webhook', viewer), 'disconnect trackers');
    refusedAsViewer(await call('POST', '/integrations/webhook/test', viewer), 'test trackers');
    refusedAsViewer(await call('POST', '/integrations/sync', viewer), 'sync trackers');
    // A member passes the check: what follows is the route's own answer (no tracker yet: 404; sync: nothing to read).
    expect((await call('DELETE', '/integrations/webhook', member)).statusCode).toBe(404);
    expect((await call('POST', '/integrations/webhook/test', member)).statusCode).toBe(404);
    expect((await call('POST', '/integrations/sync', member)).statusCode).toBe(200);
    expect((await call('PUT', '/integrations/webhook', member, {})).statusCode).toBe(400);
  });

  it('a viewer reads requests but cannot open one, reply or attach a file; a member and the API key can', async () => {
    await setUp();
    refusedAsViewer(await call('POST', '/requests', viewer, { kind: 'question', title: 'Coupons', details: 'Do you test them?' }), 'send requests');
    const id = await newRequest(member);
    await newRequest({ 'x-api-key': c.apiKey });
    expect((await call('GET', '/requests', viewer)).json<unknown[]>()).toHaveLength(2);
    expect((await call('GET', `/requests/${id}`, viewer)).statusCode).toBe(200);
    refusedAsViewer(await call('POST', `/requests/${id}/messages`, viewer, { body: 'Any news?' }), 'reply to requests');
    refusedAsViewer(await attach(id, viewer, png(100)), 'attach files to requests');
    expect((await call('POST', `/requests/${id}/messages`, member, { body: 'Any news?' })).statusCode).toBe(201);
    expect((await attach(id, member, png(100))).statusCode).toBe(201);
  });

  it('quota: a client attaches at most REQUEST_ATTACHMENTS_MAX_COUNT files, then 413 naming the limit', async () => {
    const d = await createTestClient(fixture.app);
    const owner = bearer((await login(fixture.app, d.email, d.password)).accessToken);
    const [first, second] = [await newRequest(owner), await newRequest(owner)];
    expect((await attach(first, owner, png(100))).statusCode).toBe(201);
    expect((await attach(second, owner, png(100))).statusCode).toBe(201);
    expect((await attach(second, { 'x-api-key': d.apiKey }, png(100))).statusCode).toBe(201);
    const over = await attach(first, owner, png(100));
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ code: ATTACHMENT_QUOTA, field: 'file' });
    expect(over.json().message).toContain('at most 3 files (REQUEST_ATTACHMENTS_MAX_COUNT)');
    // The QA team's files do not count, and are not refused.
    const body = multipart('answer.png', png(100), 'file', 'image/png');
    const operatorFile = await fixture.app.inject({ method: 'POST', url: `/operator/requests/${first}/attachments`, headers: { ...operatorBearer(fixture.app), ...body.headers }, payload: body.payload });
    expect(operatorFile.statusCode, operatorFile.body).toBe(201);
  });

  it('quota: a client’s files take at most REQUEST_ATTACHMENTS_MAX_TOTAL_MB in all; the file that passes it is not kept', async () => {
    const e = await createTestClient(fixture.app);
    const owner = bearer((await login(fixture.app, e.email, e.password)).accessToken);
    const id = await newRequest(owner);
    expect((await attach(id, owner, png(600 * 1024))).statusCode).toBe(201);
    const over = await attach(id, owner, png(600 * 1024), 'second.png');
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ code: ATTACHMENT_QUOTA });
    expect(over.json().message).toContain('at most 1 MB in all (REQUEST_ATTACHMENTS_MAX_TOTAL_MB)');
    const thread = await call('GET', `/requests/${id}`, owner);
    expect(thread.json<{ attachments: { name: string }[] }>().attachments.map((a) => a.name)).toEqual(['shot.png']);
    // What is left still fits a small file.
    expect((await attach(id, owner, png(100 * 1024), 'small.png')).statusCode).toBe(201);
  });

  it('no-store: the answer of POST /report/link is never kept by a cache', async () => {
    await setUp();
    const res = await call('POST', '/report/link/Marketing%20pages/html', { 'x-api-key': c.apiKey });
    // No report yet: the answer is a 404, and the route's no-store holds for every answer it gives.
    expect(res.statusCode).toBe(404);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
