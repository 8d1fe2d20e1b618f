import { testLatestResponse, type TestLatestResponse } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestClient, login, type TestClient } from '../helpers/app.ts';
import { buildEngineApp, clientWithSuite, importSuite, key, manifest, runAndWait, waitForRunEnd } from './helpers.ts';

/** GET /test/latest: how each test of the client's current suite last ended. */
describe('latest result of each test', () => {
  let app: FastifyInstance;
  let a: TestClient;
  let b: TestClient;
  const latest = async (c: TestClient): Promise<TestLatestResponse> => {
    const res = await app.inject({ url: '/test/latest', headers: key(c) });
    expect(res.statusCode, res.body).toBe(200);
    return testLatestResponse.parse(res.json());
  };

  beforeAll(async () => {
    app = await buildEngineApp(2);
    a = await clientWithSuite(app, {
      Frontend: [{ name: 'checkout', kind: 'browser', options: { outcome: 'pass' } }],
      Security: [{ name: 'zap scan', kind: 'security-scan' }],
    });
    // Another client with a test of the same name, whose result must never show up as a's.
    b = await clientWithSuite(app, { Frontend: [{ name: 'checkout', kind: 'browser', options: { outcome: 'fail' } }] });
  });
  afterAll(async () => app?.close());

  it('answers { tests: [] } for a client that never ran, and for one without a suite', async () => {
    expect(await latest(a)).toEqual({ tests: [] });
    expect(await latest(await createTestClient(app))).toEqual({ tests: [] });
  });

  it('lists the latest finished result of each test, the newest run winning, in suite order', async () => {
    const first = await runAndWait(app, a);
    expect(first.status).toBe('passed');
    let tests = (await latest(a)).tests;
    expect(tests.map((t) => [t.testName, t.group, t.status, t.runId])).toEqual([
      ['checkout', 'Frontend', 'passed', first.runId],
      ['zap scan', 'Security', 'passed', first.runId],
    ]);
    expect(tests[0]!.reportFormats).toEqual(expect.arrayContaining(['html', 'json']));
    expect(tests[0]!.finishedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(tests[0]!.durationMs).toBeGreaterThanOrEqual(0);
    expect(tests[0]!.totals?.totalTests).toBeGreaterThan(0);

    // The same test now fails: the newer result replaces the older one; the other test keeps its own.
    const next = await importSuite(app, a.clientId, {
      'suite.json': manifest({
        Frontend: [{ name: 'checkout', kind: 'browser', options: { outcome: 'fail' } }],
        Security: [{ name: 'zap scan', kind: 'security-scan' }],
      }),
    });
    expect(next.statusCode, next.body).toBe(201);
    const one = await app.inject({ url: '/test/run/checkout', headers: key(a) });
    const second = await waitForRunEnd(app, a.apiKey, one.json<{ runId: string }>().runId);
    tests = (await latest(a)).tests;
    expect(tests.map((t) => [t.testName, t.status, t.runId])).toEqual([
      ['checkout', 'failed', second.runId],
      ['zap scan', 'passed', first.runId],
    ]);
    expect(tests[0]!.runTestId).toBe(second.tests.find((t: { testName: string }) => t.testName === 'checkout').runTestId);
  });

  it('never shows another client’s results, whether asked with the API key or a user’s session', async () => {
    const theirs = await runAndWait(app, b);
    const ours = (await latest(a)).tests;
    expect(ours.some((t) => t.runId === theirs.runId)).toBe(false);
    expect((await latest(b)).tests.map((t) => [t.testName, t.status, t.runId])).toEqual([['checkout', 'failed', theirs.runId]]);
    const session = await login(app, a.email, a.password);
    const viaBearer = await app.inject({ url: '/test/latest', headers: bearer(session.accessToken) });
    expect(viaBearer.statusCode).toBe(200);
    expect(viaBearer.json()).toEqual({ tests: ours });
  });

  it('leaves out a test dropped from the suite, and refuses a caller without credentials', async () => {
    const res = await importSuite(app, a.clientId, { 'suite.json': manifest({ Security: [{ name: 'zap scan', kind: 'security-scan' }] }) });
    expect(res.statusCode, res.body).toBe(201);
    expect((await latest(a)).tests.map((t) => t.testName)).toEqual(['zap scan']);
    expect((await app.inject({ url: '/test/latest' })).statusCode).toBe(401);
  });
});
