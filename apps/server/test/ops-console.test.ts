import type { OpsAuditPage, OpsClientDetail, OpsClientList, OpsRunsPage, RunStatus } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, bugs, clientRequests, engineRunTests, engineRuns, engineSuites } from '../src/db/schema/index.ts';
import { bearer, buildTestApp, createTestClient, createTestOperator, login, operatorBearer, type TestClient } from './helpers/app.ts';

type Headers = Record<string, string>;

/** A suite, then a run with these tests, written straight to the database (no runner needed). */
async function seedRun(
  app: FastifyInstance,
  clientId: string,
  status: RunStatus,
  tests: { name: string; status: RunStatus; kind?: string; error?: string; summary?: unknown; finishedAt?: Date }[],
  createdAt = new Date(),
): Promise<{ runId: string; runTestIds: string[] }> {
  let [suite] = await app.db.select().from(engineSuites).where(eq(engineSuites.clientId, clientId)).limit(1);
  if (!suite) {
    [suite] = await app.db
      .insert(engineSuites)
      .values({ clientId, version: 1, dir: '/tmp/none', manifest: { tests: [] } as never, fileCount: 0, isCurrent: true })
      .returning();
  }
  const [run] = await app.db
    .insert(engineRuns)
    .values({ clientId, suiteId: suite!.id, scope: 'all', status, trigger: 'api', createdAt, finishedAt: createdAt, totals: { totalTests: tests.length, passedTests: tests.filter((t) => t.status === 'passed').length, failedTests: tests.filter((t) => t.status !== 'passed').length, skippedTests: 0 } })
    .returning();
  const rows = await app.db
    .insert(engineRunTests)
    .values(
      tests.map((t) => ({
        runId: run!.id,
        clientId,
        testName: t.name,
        groupName: 'Frontend',
        kind: (t.kind ?? 'browser') as never,
        status: t.status,
        error: t.error ?? null,
        summary: (t.summary ?? null) as never,
        finishedAt: t.finishedAt ?? createdAt,
      })),
    )
    .returning({ id: engineRunTests.id });
  return { runId: run!.id, runTestIds: rows.map((r) => r.id) };
}

/** The access audit is written once the answer has gone: wait for it. */
async function auditRowsFor(app: FastifyInstance, route: string, address = '127.0.0.1', expected = 1) {
  for (let i = 0; i < 50; i += 1) {
    const rows = await app.db.select().from(auditEvents).where(and(eq(auditEvents.type, 'ops.access'), eq(auditEvents.address, address)));
    const matching = rows.filter((r) => (r.details as { route?: string } | null)?.route === route);
    if (matching.length >= expected) return matching;
    await new Promise((r) => setTimeout(r, 20));
  }
  return [];
}

const SCAN_SUMMARY = {
  kind: 'security-scan',
  findings: [
    { ruleId: '10038', name: 'Content Security Policy Header Not Set', risk: 'Medium', url: 'https://a.test/' },
    { ruleId: '40012', name: 'Cross Site Scripting (Reflected)', risk: 'High', url: 'https://a.test/search' },
  ],
};

describe('operators’ console', () => {
  let app: FastifyInstance;
  let a: TestClient;
  let b: TestClient;
  let operator: Headers;
  let staff: { userId: string; headers: Headers };
  let clientBearer: Headers;
  let failedRun: { runId: string; runTestIds: string[] };

  beforeAll(async () => {
    app = await buildTestApp();
    a = await createTestClient(app, { name: 'Acme Shop' });
    b = await createTestClient(app, { name: 'Beta Bank' });
    operator = operatorBearer(app);
    const op = await createTestOperator(app);
    staff = { userId: op.userId, headers: bearer((await login(app, op.email, op.password)).accessToken) };
    clientBearer = bearer((await login(app, a.email, a.password)).accessToken);

    // A: an old passing run, then a newer failed one; "checkout" fails now, "login" passes now (failed before).
    await seedRun(app, a.clientId, 'passed', [{ name: 'checkout', status: 'passed' }, { name: 'login', status: 'failed' }], new Date(Date.now() - 60_000));
    failedRun = await seedRun(app, a.clientId, 'failed', [
      { name: 'checkout', status: 'failed', error: 'expected "Thank you" on the page' },
      { name: 'login', status: 'passed' },
      { name: 'zap', status: 'failed', kind: 'security-scan', summary: SCAN_SUMMARY },
    ]);
    // B: only a newer passing run, so a newest-first order would put it before A's failure.
    await seedRun(app, b.clientId, 'passed', [{ name: 'home', status: 'passed' }], new Date(Date.now() + 1000));
    await app.db.insert(bugs).values([
      { clientId: a.clientId, number: 1, title: 'Checkout broken', severity: 'high', status: 'open' },
      { clientId: a.clientId, number: 2, title: 'Old', severity: 'low', status: 'verified' },
      { clientId: a.clientId, number: 3, title: 'Draft', severity: 'low', status: 'draft' },
    ]);
    await app.db.insert(clientRequests).values([
      { clientId: a.clientId, kind: 'manual-test', title: 'Test the cart', details: 'please', status: 'new' },
      { clientId: a.clientId, kind: 'retest', title: 'Retest', details: 'please', status: 'done' },
    ]);
  });
  afterAll(async () => app?.close());

  const NEW_ROUTES = (c: string) => [
    { method: 'GET' as const, url: `/operator/clients/${c}` },
    { method: 'GET' as const, url: '/operator/runs' },
    { method: 'GET' as const, url: '/operator/audit' },
    { method: 'GET' as const, url: `/operator/clients/${c}/flaky` },
    { method: 'POST' as const, url: `/operator/clients/${c}/flaky`, payload: { testName: 'checkout' } },
    { method: 'DELETE' as const, url: `/operator/clients/${c}/flaky/checkout` },
  ];

  it('refuses client users and API keys on every console route (403), and strangers (401)', async () => {
    for (const route of NEW_ROUTES(a.clientId)) {
      for (const headers of [clientBearer, { 'x-api-key': a.apiKey }]) {
        const res = await app.inject({ ...route, headers });
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      }
      expect((await app.inject(route)).statusCode).toBe(401);
    }
  });

  it('lists clients with their health, keeping the CLI’s fields', async () => {
    const res = await app.inject({ method: 'GET', url: '/operator/clients', headers: staff.headers });
    expect(res.statusCode).toBe(200);
    const list = res.json<OpsClientList>().clients;
    const acme = list.find((c) => c.id === a.clientId)!;
    expect(acme).toMatchObject({ clientName: 'Acme Shop', users: 1, apiKeyMasked: `fsk_…${a.apiKey.slice(-4)}` });
    expect(acme.health).toMatchObject({ failingTests: 2, openBugs: 1, requestsWaiting: 1, lastRun: { id: failedRun.runId, status: 'failed' } });
    const beta = list.find((c) => c.id === b.clientId)!;
    expect(beta.health).toMatchObject({ failingTests: 0, openBugs: 0, requestsWaiting: 0, lastRun: { status: 'passed' } });
  });

  it('shows one client: users, origins, masked key, health; 404 for an unknown one', async () => {
    await app.inject({ method: 'POST', url: `/operator/clients/${a.clientId}/origins`, headers: operator, payload: { origin: 'https://api.acme.test' } });
    const res = await app.inject({ method: 'GET', url: `/operator/clients/${a.clientId}`, headers: operator });
    expect(res.statusCode).toBe(200);
    const detail = res.json<OpsClientDetail>();
    expect(detail).toMatchObject({ clientName: 'Acme Shop', origins: ['https://api.acme.test'], suiteVersion: 1, secretNames: [] });
    expect(detail.users.map((u) => u.email)).toEqual([a.email]);
    // A client's user by their team role: the first one is its owner.
    expect(detail.users.map((u) => u.role)).toEqual(['owner']);
    expect(detail.health.failingTests).toBe(2);
    expect(res.body).not.toContain(a.apiKey);
    expect((await app.inject({ method: 'GET', url: '/operator/clients/no-such-client', headers: operator })).statusCode).toBe(404);
  });

  it('puts failures first across clients, each run with its own client’s failing tests and findings', async () => {
    const res = await app.inject({ method: 'GET', url: '/operator/runs', headers: operator });
    expect(res.statusCode).toBe(200);
    const feed = res.json<OpsRunsPage>();
    expect(feed.total).toBe(3);
    expect(feed.runs.map((r) => r.status)).toEqual(['failed', 'passed', 'passed']);
    expect(feed.runs[1]!.clientName).toBe('Beta Bank');
    const first = feed.runs[0]!;
    expect(first).toMatchObject({ runId: failedRun.runId, clientId: a.clientId, clientName: 'Acme Shop' });
    expect(first.failingTests.map((t) => t.testName)).toEqual(['checkout', 'zap']);
    expect(first.failingTests[0]).toMatchObject({ runTestId: failedRun.runTestIds[0], error: 'expected "Thank you" on the page', findings: [], flaky: false });
    expect(first.failingTests[1]!.findings.map((f) => [f.ruleId, f.severity])).toEqual([['40012', 'High'], ['10038', 'Medium']]);
    // B's passing run carries none of A's tests.
    expect(feed.runs.find((r) => r.clientId === b.clientId)!.failingTests).toEqual([]);

    const onlyB = await app.inject({ method: 'GET', url: `/operator/runs?clientId=${b.clientId}`, headers: operator });
    expect(onlyB.json<OpsRunsPage>().runs.every((r) => r.clientId === b.clientId && r.clientName === 'Beta Bank')).toBe(true);
    const second = await app.inject({ method: 'GET', url: '/operator/runs?pageSize=1&page=2', headers: operator });
    expect(second.json<OpsRunsPage>()).toMatchObject({ total: 3, page: 2, pageSize: 1, runs: [{ runId: feed.runs[1]!.runId }] });
    const failed = await app.inject({ method: 'GET', url: '/operator/runs?status=failed', headers: operator });
    expect(failed.json<OpsRunsPage>().runs.map((r) => r.runId)).toEqual([failedRun.runId]);
  });

  it('marks a test flaky and clears it; the feed says so', async () => {
    const url = `/operator/clients/${a.clientId}/flaky`;
    const marked = await app.inject({ method: 'POST', url, headers: staff.headers, payload: { testName: 'checkout', note: 'timing on CI' } });
    expect(marked.statusCode).toBe(200);
    expect(marked.json()).toMatchObject({ testName: 'checkout', note: 'timing on CI' });
    // Marking again replaces the note, no duplicate.
    await app.inject({ method: 'POST', url, headers: operator, payload: { testName: 'checkout', note: 'again' } });
    const list = await app.inject({ method: 'GET', url, headers: operator });
    expect(list.json().marks).toEqual([expect.objectContaining({ testName: 'checkout', note: 'again' })]);
    const feed = (await app.inject({ method: 'GET', url: '/operator/runs?status=failed', headers: operator })).json<OpsRunsPage>();
    expect(feed.runs[0]!.failingTests.find((t) => t.testName === 'checkout')!.flaky).toBe(true);
    // The mark is A's: B's feed shows nothing flaky, and clearing it on B finds nothing.
    expect((await app.inject({ method: 'DELETE', url: `/operator/clients/${b.clientId}/flaky/checkout`, headers: operator })).statusCode).toBe(404);
    const cleared = await app.inject({ method: 'DELETE', url: `${url}/checkout`, headers: operator });
    expect(cleared.statusCode).toBe(200);
    expect((await app.inject({ method: 'DELETE', url: `${url}/checkout`, headers: operator })).statusCode).toBe(404);
  });

  it('audits each operator call with route, status, client, user and address', async () => {
    await app.inject({ method: 'GET', url: `/operator/clients/${b.clientId}`, headers: staff.headers, remoteAddress: '203.0.113.7' });
    const [row] = await auditRowsFor(app, '/operator/clients/:id', '203.0.113.7');
    expect(row).toMatchObject({ clientId: b.clientId, userId: staff.userId, address: '203.0.113.7' });
    expect(row!.details).toMatchObject({ method: 'GET', statusCode: 200, via: 'bearer' });

    await app.inject({ method: 'GET', url: `/operator/clients/${a.clientId}/origins`, headers: operator, remoteAddress: '203.0.113.8' });
    const [byToken] = await auditRowsFor(app, '/operator/clients/:id/origins', '203.0.113.8');
    expect(byToken).toMatchObject({ clientId: a.clientId, userId: null });
    expect(byToken!.details).toMatchObject({ via: 'operator-token', statusCode: 200 });

    // A user created for a client is recorded against that client (its id is in the body).
    await app.inject({ method: 'POST', url: '/operator/users', headers: operator, remoteAddress: '203.0.113.10', payload: { clientId: b.clientId, email: 'new@beta.test', password: 'beta password 12' } });
    const [created] = await auditRowsFor(app, '/operator/users', '203.0.113.10');
    expect(created).toMatchObject({ clientId: b.clientId });
    expect(created!.details).toMatchObject({ method: 'POST', statusCode: 201 });

    // A client's probe is recorded too, as refused.
    await app.inject({ method: 'GET', url: '/operator/runs?clientId=' + b.clientId, headers: { 'x-api-key': a.apiKey }, remoteAddress: '203.0.113.9' });
    const probes = await auditRowsFor(app, '/operator/runs', '203.0.113.9');
    expect(probes.some((r) => (r.details as { statusCode: number }).statusCode === 403 && r.clientId === b.clientId)).toBe(true);
  });

  it('reads the audit log with filters, newest first, with names; not recording its own reads', async () => {
    await login(app, a.email, a.password, '198.51.100.9');
    await app.inject({ method: 'GET', url: `/operator/clients/${a.clientId}/flaky`, headers: staff.headers, remoteAddress: '198.51.100.10' });
    await auditRowsFor(app, '/operator/clients/:id/flaky', '198.51.100.10');
    const get = async (query: string) => {
      const res = await app.inject({ method: 'GET', url: `/operator/audit?${query}`, headers: operator });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<OpsAuditPage>();
    };
    const logins = await get(`type=login&address=198.51.100.9`);
    expect(logins.events).toHaveLength(1);
    expect(logins.events[0]).toMatchObject({ type: 'login.success', userEmail: a.email, clientName: 'Acme Shop' });

    const byUser = await get(`type=ops.access&userId=${staff.userId}&clientId=${a.clientId}`);
    expect(byUser.events.length).toBeGreaterThan(0);
    expect(byUser.events.every((e) => e.userId === staff.userId && e.clientId === a.clientId)).toBe(true);
    const times = byUser.events.map((e) => Date.parse(e.createdAt));
    expect([...times].sort((x, y) => y - x)).toEqual(times);

    const future = await get(`from=${encodeURIComponent('2099-01-01T00:00:00Z')}`);
    expect(future).toMatchObject({ events: [], total: 0 });
    const paged = await get('pageSize=2&page=1');
    expect(paged.events).toHaveLength(2);
    expect(paged.total).toBeGreaterThan(2);
    const reads = await app.db.select().from(auditEvents).where(eq(auditEvents.type, 'ops.access'));
    expect(reads.some((r) => (r.details as { route: string }).route === '/operator/audit')).toBe(false);
  });

  it('answers bad input with 400 naming the field', async () => {
    const cases: [string, string, unknown?][] = [
      ['GET', '/operator/audit?from=yesterday', undefined],
      ['GET', '/operator/audit?to=2026-13-40T00:00:00Z', undefined],
      ['GET', '/operator/audit?page=0', undefined],
      ['GET', '/operator/audit?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', undefined],
      ['GET', '/operator/runs?status=broken', undefined],
      ['GET', '/operator/runs?clientId=a%20b', undefined],
      ['POST', `/operator/clients/${a.clientId}/flaky`, { testName: '' }],
      ['POST', `/operator/clients/${a.clientId}/flaky`, { testName: 'x', note: 'n'.repeat(1001) }],
    ];
    const fields = ['from', 'to', 'page', 'from', 'status', 'clientId', 'testName', 'note'];
    for (const [i, [method, url, payload]] of cases.entries()) {
      const res = await app.inject({ method: method as 'GET', url, headers: operator, ...(payload ? { payload: payload as object } : {}) });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().field, url).toBe(fields[i]);
    }
  });
});
