import type { EvidenceListResponse, FlakyMark, RunHistoryDetail, TestLatestResponse } from '@fullstop/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, engineRuns, engineRunTests, engineSuites } from '../src/db/schema/index.ts';
import { detectFlaky } from '../src/features/flaky/flaky-detection.ts';
import { createTestClient, type TestClient } from './helpers/app.ts';
import { zipEntries } from './helpers/zip.ts';
import { buildEngineApp, clientWithSuite, importSuite, key, manifest, operator, useEngineApp } from './engine/helpers.ts';

const flakyUrl = (clientId: string, testName?: string, confirm = false) =>
  `/operator/clients/${clientId}/flaky${testName ? `/${encodeURIComponent(testName)}` : ''}${confirm ? '/confirm' : ''}`;

describe('flaky tests: a test that passed on retry is flagged, and the retry keeps the first attempt', () => {
  const fixture = useEngineApp(
    2,
    async (app) => {
      const a = await clientWithSuite(app, {
        Frontend: [
          { name: 'checkout', kind: 'browser', options: { outcome: 'pass', errorOnAttempts: [1], evidence: 'files' } },
          { name: 'steady', kind: 'browser', options: { outcome: 'pass' } },
        ],
      });
      const b = await clientWithSuite(app, { Frontend: [{ name: 'checkout', kind: 'browser', options: { outcome: 'pass' } }] });
      const run = await app.inject({ url: '/test/run/all?wait=true&timeout=60', headers: key(a) });
      expect(run.statusCode, run.body).toBe(200);
      const runId: string = run.json().runId;
      const res = await app.inject({ url: `/test/history/${runId}`, headers: key(a) });
      expect(res.statusCode, res.body).toBe(200);
      return { a, b, runId, detail: res.json<RunHistoryDetail>() };
    },
    90_000,
  );

  it('flags the test that passed on its second attempt in History, on the Tests page and in the console', async () => {
    const checkout = fixture.detail.tests.find((t) => t.testName === 'checkout')!;
    expect(checkout).toMatchObject({ status: 'passed', attempts: 2 });
    expect(checkout.flaky).toMatchObject({ source: 'detected', confirmed: false });
    expect(checkout.flaky!.reason).toContain(`Passed on retry (attempt 2 of ${checkout.maxAttempts}) in run ${fixture.runId}`);
    expect(fixture.detail.tests.find((t) => t.testName === 'steady')!.flaky).toBeNull();

    const latest = (await fixture.app.inject({ url: '/test/latest', headers: key(fixture.a) })).json() as TestLatestResponse;
    expect(latest.tests.find((t) => t.testName === 'checkout')!.flaky?.reason).toContain('Passed on retry');
    expect(latest.tests.find((t) => t.testName === 'steady')!.flaky).toBeNull();

    const marks = (await fixture.app.inject({ url: flakyUrl(fixture.a.clientId), headers: operator })).json().marks as FlakyMark[];
    expect(marks).toEqual([expect.objectContaining({ testName: 'checkout', source: 'detected', confirmed: false })]);
    const audited = await fixture.app.db.select().from(auditEvents).where(and(eq(auditEvents.clientId, fixture.a.clientId), eq(auditEvents.type, 'flaky.detected')));
    expect(audited).toHaveLength(1);
    expect(audited[0]!.userId).toBeNull();
  });

  it('keeps the first attempt’s log and evidence beside the second’s, listed and downloadable', async () => {
    const checkout = fixture.detail.tests.find((t) => t.testName === 'checkout')!;
    const runDetail = (await fixture.app.inject({ url: `/test/runs/${fixture.runId}`, headers: key(fixture.a) })).json();
    const attempts = runDetail.tests.find((t: { testName: string }) => t.testName === 'checkout').attempts as { status: string; error: string | null }[];
    expect(attempts.map((x) => x.status)).toEqual(['error', 'passed']);
    expect(attempts[0]!.error).toBe('planned error on attempt 1');

    const evidence = (await fixture.app.inject({ url: `/test/runs/${fixture.runId}/tests/${checkout.runTestId}/evidence`, headers: key(fixture.a) })).json() as EvidenceListResponse;
    expect(new Set(evidence.evidence.map((e) => e.attempt))).toEqual(new Set([1, 2]));
    expect(checkout.evidenceCount).toBe(evidence.evidence.length);
    const first = evidence.evidence.find((e) => e.attempt === 1)!;
    const link = await fixture.app.inject({ method: 'POST', url: `/test/runs/${fixture.runId}/tests/${checkout.runTestId}/evidence/${first.evidenceId}/link`, headers: key(fixture.a) });
    expect(link.statusCode, link.body).toBe(200);

    const zip = await fixture.app.inject({ url: '/report/fetch/checkout/zip', headers: key(fixture.a) });
    expect(zip.statusCode).toBe(200);
    const names = await zipEntries(zip.rawPayload);
    expect(names).toEqual(expect.arrayContaining(['artifacts/attempt-1.log', 'artifacts/attempt-2.log']));
    expect(names.some((n) => n.startsWith('artifacts/attempt-1/'))).toBe(true);
  });

  it('lets an operator confirm and clear the flag, audited; another client never sees it', async () => {
    const latestB = (await fixture.app.inject({ url: '/test/latest', headers: key(fixture.b) })).json() as TestLatestResponse;
    expect(latestB.tests.every((t) => !t.flaky)).toBe(true);
    expect((await fixture.app.inject({ url: `/test/history/${fixture.runId}`, headers: key(fixture.b) })).statusCode).toBe(404);
    expect((await fixture.app.inject({ url: flakyUrl(fixture.b.clientId), headers: operator })).json().marks).toEqual([]);
    expect((await fixture.app.inject({ method: 'POST', url: flakyUrl(fixture.b.clientId, 'checkout', true), headers: operator })).statusCode).toBe(404);
    // A client cannot confirm.
    expect((await fixture.app.inject({ method: 'POST', url: flakyUrl(fixture.a.clientId, 'checkout', true), headers: key(fixture.a) })).statusCode).toBeGreaterThanOrEqual(401);

    const confirmed = await fixture.app.inject({ method: 'POST', url: flakyUrl(fixture.a.clientId, 'checkout', true), headers: operator });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ testName: 'checkout', source: 'detected', confirmed: true });
    const after = (await fixture.app.inject({ url: `/test/history/${fixture.runId}`, headers: key(fixture.a) })).json() as RunHistoryDetail;
    expect(after.tests.find((t) => t.testName === 'checkout')!.flaky).toMatchObject({ confirmed: true });

    const cleared = await fixture.app.inject({ method: 'DELETE', url: flakyUrl(fixture.a.clientId, 'checkout'), headers: operator });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect((await fixture.app.inject({ url: flakyUrl(fixture.a.clientId), headers: operator })).json().marks).toEqual([]);
    const types = (await fixture.app.db.select().from(auditEvents).where(eq(auditEvents.clientId, fixture.a.clientId))).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['flaky.detected', 'flaky.confirmed', 'flaky.cleared']));
    expect((await fixture.app.db.select().from(auditEvents).where(eq(auditEvents.clientId, fixture.b.clientId))).map((e) => e.type)).not.toContain('flaky.confirmed');
  });
});

describe('flaky tests: flips on one suite version, and 10 passes in a row', () => {
  let app: FastifyInstance;
  let c: TestClient;
  let v1: string;
  let v2: string;
  let tick = 0;

  beforeAll(async () => {
    app = await buildEngineApp(0);
    const groups = { Frontend: [{ name: 'login', kind: 'browser' }, { name: 'search', kind: 'browser' }, { name: 'cart', kind: 'browser' }] };
    c = await clientWithSuite(app, groups);
    expect((await importSuite(app, c.clientId, { 'suite.json': manifest(groups) })).statusCode).toBe(201);
    const suites = await app.db.select().from(engineSuites).where(eq(engineSuites.clientId, c.clientId));
    v1 = suites.find((s) => s.version === 1)!.id;
    v2 = suites.find((s) => s.version === 2)!.id;
  });
  afterAll(async () => {
    await app?.close();
  });

  /** One finished result of a test, stored as a finished run would, then detection as the engine runs it. */
  async function result(testName: string, suiteId: string, status: 'passed' | 'failed', attempts = 1) {
    const finishedAt = new Date(Date.now() + ++tick * 1000);
    const [run] = await app.db.insert(engineRuns).values({ clientId: c.clientId, suiteId, scope: testName, status, finishedAt }).returning();
    const [rt] = await app.db
      .insert(engineRunTests)
      .values({ runId: run!.id, clientId: c.clientId, testName, groupName: 'Frontend', kind: 'browser', status, attempts, maxAttempts: 3, finishedAt })
      .returning();
    await detectFlaky(app.db, app.log, rt!);
  }
  const flags = async () => {
    const marks = (await app.inject({ url: flakyUrl(c.clientId), headers: operator })).json().marks as FlakyMark[];
    return new Map(marks.map((m) => [m.testName, m]));
  };

  it('flags a test whose result flipped twice on one suite version, not one that flips only across versions', async () => {
    await result('login', v1, 'passed');
    await result('login', v1, 'failed');
    expect((await flags()).has('login')).toBe(false);
    await result('login', v1, 'passed');
    expect((await flags()).get('login')).toMatchObject({ source: 'detected', reason: 'Its result flipped 2 times in its last 3 runs on suite version 1' });

    for (const [suite, status] of [[v1, 'passed'], [v2, 'failed'], [v1, 'passed'], [v2, 'failed'], [v1, 'passed'], [v2, 'failed']] as const) {
      await result('search', suite, status);
    }
    expect((await flags()).has('search')).toBe(false);
  });

  it('clears a detected flag after 10 passes in a row, but keeps one an operator confirmed', async () => {
    for (const s of ['passed', 'failed', 'passed'] as const) await result('cart', v2, s);
    expect((await flags()).has('cart')).toBe(true);
    expect((await app.inject({ method: 'POST', url: flakyUrl(c.clientId, 'cart', true), headers: operator })).statusCode).toBe(200);

    for (let i = 0; i < 9; i++) {
      await result('login', v1, 'passed');
      await result('cart', v2, 'passed');
    }
    expect((await flags()).has('login')).toBe(true);
    // A pass on retry is no clean pass: the count starts again.
    await result('login', v1, 'passed', 2);
    for (let i = 0; i < 9; i++) await result('login', v1, 'passed');
    expect((await flags()).get('login')?.reason).toContain('Passed on retry');
    await result('login', v1, 'passed');
    await result('cart', v2, 'passed');
    const now = await flags();
    expect(now.has('login')).toBe(false);
    expect(now.get('cart')).toMatchObject({ confirmed: true });
    const cleared = await app.db.select().from(auditEvents).where(and(eq(auditEvents.clientId, c.clientId), eq(auditEvents.type, 'flaky.cleared')));
    expect(cleared).toHaveLength(1);
    expect(cleared[0]!.details).toMatchObject({ testName: 'login', automatic: true });

    const other = await createTestClient(app);
    expect((await app.inject({ url: flakyUrl(other.clientId), headers: operator })).json().marks).toEqual([]);
  });
});
