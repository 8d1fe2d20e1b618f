import type { SuiteStatusResponse } from '@fullstop/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineSuites } from '../src/db/schema/index.ts';
import { bearer, createTestClient, createTestOperator, login, type TestClient } from './helpers/app.ts';
import { buildEngineApp, key, manifest } from './engine/helpers.ts';

/** Issue 39: a client's first day (where its suite stands), the console's clients without a suite, quiet audit. */

const suite = manifest({ Frontend: [{ name: 'alpha', kind: 'browser', options: { outcome: 'pass', specs: ['specs/home.spec.ts'] } }] });
const spec = "import { test } from '@playwright/test';\ntest('home', async () => {});\n";

/** The console's import form: makeCurrent, then the folder's files. */
function folderForm(makeCurrent: boolean) {
  const boundary = `----fullstop${Math.random().toString(16).slice(2)}`;
  const part = (head: string, body: string) => `--${boundary}\r\nContent-Disposition: form-data; ${head}\r\n\r\n${body}\r\n`;
  const payload =
    part('name="makeCurrent"', String(makeCurrent)) +
    part('name="files"; filename="s/suite.json"', suite) +
    part('name="files"; filename="s/specs/home.spec.ts"', spec) +
    `--${boundary}--\r\n`;
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('a client’s first day', () => {
  let app: FastifyInstance;
  let c: TestClient;
  let ops: { authorization: string };
  let operatorName: string;
  const status = async (who: TestClient = c) => {
    const res = await app.inject({ url: '/test/suite-status', headers: key(who) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<SuiteStatusResponse>();
  };
  const importSuite = (makeCurrent: boolean, clientId = c.clientId) => {
    const body = folderForm(makeCurrent);
    return app.inject({ method: 'POST', url: `/operator/clients/${clientId}/suites`, headers: { ...ops, ...body.headers }, payload: body.payload });
  };
  const health = async (clientId: string) => {
    const list = (await app.inject({ url: '/operator/clients', headers: ops })).json<{ clients: { id: string; createdAt: string; health: { hasSuite: boolean } }[] }>();
    return list.clients.find((x) => x.id === clientId)!;
  };

  beforeAll(async () => {
    app = await buildEngineApp();
    c = await createTestClient(app);
    const op = await createTestOperator(app, { email: `dana-${Date.now()}@fullstop.test` });
    operatorName = op.email.split('@')[0]!;
    ops = bearer((await login(app, op.email, op.password)).accessToken);
  }, 60_000);
  afterAll(async () => {
    await app.close();
  });

  it('tells a new client its suite is being prepared and when the first report is due (48 hours after signing)', async () => {
    const s = await status();
    expect(s.current).toBe(false);
    expect(s.proposal).toBeNull();
    expect(Date.parse(s.firstReportDue) - Date.parse(s.signedAt)).toBe(48 * 3600 * 1000);
    expect((await health(c.clientId)).health.hasSuite).toBe(false);
    // No reports yet keeps the spec's 404 ("none"); the portal's Reports page does not ask before a suite is current.
    expect((await app.inject({ url: '/report/fetch/all', headers: key(c) })).statusCode).toBe(404);
  });

  it('is read by the client’s own people, not by anyone', async () => {
    expect((await app.inject({ url: '/test/suite-status' })).statusCode).toBe(401);
    const owner = await login(app, c.email, c.password);
    expect((await app.inject({ url: '/test/suite-status', headers: bearer(owner.accessToken) })).statusCode).toBe(200);
  });

  it('makes the first import current even when it was to be kept for a trial, and the next one kept', async () => {
    const first = await importSuite(false);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ version: 1, current: true, message: expect.stringContaining('made current, as no version was') });
    expect((await status()).current).toBe(true);
    expect((await health(c.clientId)).health.hasSuite).toBe(true);
    expect((await app.inject({ url: '/test/fetch/all', headers: key(c) })).json()).toEqual({ Frontend: ['alpha'] });

    const second = await importSuite(false);
    expect(second.json()).toMatchObject({ version: 2, current: false });
  });

  it('names the operator who proposed a suite, and when, while none is current', async () => {
    const d = await createTestClient(app);
    expect((await importSuite(true, d.clientId)).statusCode).toBe(201);
    // As a starter suite proposal leaves it: a version that is not current.
    await app.db.update(engineSuites).set({ isCurrent: false }).where(eq(engineSuites.clientId, d.clientId));
    const s = await status(d);
    expect(s.current).toBe(false);
    expect(s.proposal).toMatchObject({ version: 1, proposedBy: operatorName, tests: 1 });
    expect(Date.parse(s.proposal!.proposedAt)).toBeGreaterThanOrEqual(Date.parse(s.signedAt));
  });

  it('hides console page views from the audit log unless asked for', async () => {
    const types = async (query: string) =>
      (await app.inject({ url: `/operator/audit?pageSize=100${query}`, headers: ops })).json<{ events: { type: string }[] }>().events.map((e) => e.type);
    const hidden = await types('');
    expect(hidden).toContain('suite.imported');
    expect(hidden).not.toContain('ops.access');
    expect(await types('&pageViews=show')).toContain('ops.access');
    expect(new Set(await types('&type=ops.access'))).toEqual(new Set(['ops.access']));
    expect((await app.inject({ url: '/operator/audit?pageViews=maybe', headers: ops })).statusCode).toBe(400);
  });

  it('lets operators, and only them, open a run’s report of a failed test through the console', async () => {
    const url = `/operator/clients/${c.clientId}/runs/00000000-0000-4000-8000-000000000000/tests/00000000-0000-4000-8000-000000000001/report/html/link`;
    expect((await app.inject({ method: 'POST', url, headers: ops })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url, headers: key(c) })).statusCode).toBe(403);
  });
});
