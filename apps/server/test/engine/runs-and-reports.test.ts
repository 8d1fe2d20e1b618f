import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../helpers/app.ts';
import { zipEntries } from '../helpers/zip.ts';
import { engineWithTwoClients, key, mixedSuite, operator, waitForRunEnd } from './helpers.ts';

/**
 * How long a run of the scripted suite may take before it is called stuck. It ends in seconds on an idle machine; on
 * CI's shared one (load average 15-20) it once took more than 30 s. A bound for a hang, not a speed limit.
 */
const RUN_END_MS = 150_000;

describe('runs, reports and insights', () => {
  let app: FastifyInstance;
  let a: TestClient;
  let b: TestClient;

  beforeAll(async () => {
    ({ app, a, b } = await engineWithTwoClients(3, mixedSuite([{ name: 'security checks', kind: 'security-checks', options: { errorOnAttempts: [1] } }])));
  });
  afterAll(async () => app?.close());

  it('lists the suite as group name to test names, the spec’s shape', async () => {
    const res = await app.inject({ url: '/test/fetch/all', headers: key(a) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ Frontend: ['marketing pages', 'checkout'], Performance: ['home load'], Security: ['zap scan', 'security checks'] });
    const none = await app.inject({ url: '/test/fetch/all', headers: key(b) });
    expect(none.json()).toEqual({});
  });

  it('says which test is unknown, and that a client without a suite has no tests', async () => {
    const res = await app.inject({ url: '/test/run/nope', headers: key(a) });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Test "nope" not found');
    const empty = await app.inject({ url: '/test/run/all', headers: key(b) });
    expect(empty.statusCode).toBe(404);
    expect(empty.json().message).toMatch(/no test suite/);
    expect((await app.inject({ url: '/test/run/all' })).statusCode).toBe(401);
  });

  it('queues a run at once, and with wait=true answers pass/fail with totals when it ends', async () => {
    const started = Date.now();
    const queued = await app.inject({ url: '/test/run/all', headers: key(a) });
    expect(queued.statusCode).toBe(200);
    expect(Object.keys(queued.json()).sort()).toEqual(['message', 'runId']);
    expect(queued.json().message).toMatch(/^All tests queued: 5 tests/);
    expect(Date.now() - started).toBeLessThan(3000);
    await waitForRunEnd(app, a.apiKey, queued.json().runId, RUN_END_MS);

    const waited = await app.inject({ url: '/test/run/marketing%20pages?wait=true', headers: key(a) });
    expect(waited.statusCode).toBe(200);
    const result = waited.json();
    expect(result).toMatchObject({ status: 'passed', passed: true, totals: { totalTests: 2, passedTests: 2, failedTests: 0, skippedTests: 0 } });
    expect(result.tests).toEqual([{ testName: 'marketing pages', status: 'passed', totals: { totalTests: 2, passedTests: 2, failedTests: 0, skippedTests: 0 }, error: null }]);
    }, 2 * RUN_END_MS);

  it('keeps every attempt of a retried test, with its log', async () => {
    const history = await app.inject({ url: '/test/runs?limit=10', headers: key(a) });
    const allRun = history.json().runs.find((r: { scope: string }) => r.scope === 'all');
    expect(allRun.status).toBe('failed');
    const detail = await waitForRunEnd(app, a.apiKey, allRun.runId, RUN_END_MS);
    const checks = detail.tests.find((t: { testName: string }) => t.testName === 'security checks');
    expect(checks.status).toBe('passed');
    expect(checks.attempts.map((x: { status: string }) => x.status)).toEqual(['error', 'passed']);
    expect(checks.attempts[0].error).toBe('planned error on attempt 1');

    const zip = await app.inject({ url: '/report/fetch/security%20checks/zip', headers: key(a) });
    expect(zip.statusCode).toBe(200);
    const names = await zipEntries(zip.rawPayload);
    expect(names).toEqual(expect.arrayContaining(['artifacts/attempt-1.log', 'artifacts/attempt-2.log', 'artifacts/attempt-2/evidence.txt', 'report.json', 'report.html', 'junit.xml']));
    }, RUN_END_MS + 30_000);

  it('lists reports in the spec’s shape and serves each format with its type and a safe name', async () => {
    const res = await app.inject({ url: '/report/fetch/all', headers: key(a) });
    expect(res.statusCode).toBe(200);
    const reports = res.json();
    // The test groups, and the run report of the Run all under "Full runs".
    expect(Object.keys(reports).sort()).toEqual(['Frontend', 'Full runs', 'Performance', 'Security']);
    const checkout = reports.Frontend.checkout;
    expect(checkout.formats.map((f: { format: string }) => f.format).sort()).toEqual(['html', 'json', 'xml', 'zip']);
    expect(reports.Performance['home load'].formats.map((f: { format: string }) => f.format).sort()).toEqual(['html', 'json', 'zip']);
    for (const f of checkout.formats) expect(Number.isNaN(Date.parse(f.lastUpdated))).toBe(false);

    const types = { json: 'application/json; charset=utf-8', html: 'text/html; charset=utf-8', zip: 'application/zip', xml: 'application/xml' };
    for (const [format, type] of Object.entries(types)) {
      const file = await app.inject({ url: `/report/fetch/checkout/${format}`, headers: key(a) });
      expect(file.statusCode, format).toBe(200);
      expect(file.headers['content-type']).toBe(type);
      // Shown: html and json; downloaded under the client's and the test's name: zip and xml.
      const disposition = ['html', 'json'].includes(format) ? 'inline' : 'attachment';
      expect(file.headers['content-disposition']).toMatch(new RegExp(`^${disposition}; filename="client-\\d+-checkout-\\d{4}-\\d{2}-\\d{2}\\.${format}"; filename\\*=UTF-8''`));
    }
    const html = (await app.inject({ url: '/report/fetch/checkout/html', headers: key(a) })).body;
    expect(html).toContain('expected &lt;b&gt;true&lt;/b&gt;');
    expect(html).not.toContain('<script');
    const junit = (await app.inject({ url: '/report/fetch/checkout/xml', headers: key(a) })).body;
    expect(junit).toContain('<testsuite name="checkout" tests="2" failures="1"');
    const json = (await app.inject({ url: '/report/fetch/checkout/json', headers: key(a) })).json();
    expect(json).toMatchObject({ testName: 'checkout', status: 'failed', group: 'Frontend' });

    expect((await app.inject({ url: '/report/fetch/checkout/pdf', headers: key(a) })).statusCode).toBe(404);
    expect((await app.inject({ url: '/report/fetch/home%20load/xml', headers: key(a) })).json().message).toBe('Report "home load" has no xml format');
  });

  it('computes the four insights from the latest runs, exactly the spec’s keys', async () => {
    const res = await app.inject({ url: '/insight/fetch/all', headers: key(a) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['frontend-report', 'load', 'security-report', 'zap']);
    expect(body.load).toEqual({
      averageResponseTime: 12.5, maxResponseTime: 40.2, minResponseTime: 1.1, ninetyFifthPercentileResponseTime: 30.3,
      failedRequestsCount: 2, totalRequests: 100, successfulRequests: 98, dataSentBytes: 5000, dataReceivedBytes: 90000,
      failedRequestsRate: 2, customMetricThresholdMet: true,
    });
    expect(body.zap).toEqual({ High: 1, Medium: 2, Low: 3, Informational: 1, 'False Positives': 0 });
    // Latest browser run is the single-test run of "marketing pages".
    expect(body['frontend-report']).toEqual({ totalTests: 2, passedTests: 2, failedTests: 0, skippedTests: 0, duration: 1.5 });
    expect(Object.keys(body['security-report']).sort()).toEqual(['duration', 'failedTests', 'passedTests', 'skippedTests', 'totalTests']);
  });

  it('counts alerts per rule as ZAP does, and false positives per alert and per instance', async () => {
    const mark = (payload: Record<string, string>, method: 'POST' | 'DELETE' = 'POST') =>
      app.inject({ method, url: `/operator/clients/${a.clientId}/false-positives`, headers: operator, payload });
    const listed = async () =>
      Object.fromEntries(((await app.inject({ url: `/operator/clients/${a.clientId}/alerts`, headers: operator })).json().alerts as { alertId: string; falsePositive: boolean }[]).map((x) => [x.alertId, x.falsePositive]));
    const zap = async () => (await app.inject({ url: '/insight/fetch/all', headers: key(a) })).json().zap;

    // Ten instances, seven alerts: the operator API lists instances, grouped per rule, highest risk first.
    const alerts = (await app.inject({ url: `/operator/clients/${a.clientId}/alerts`, headers: operator })).json().alerts as { alertId: string; ruleId: string; risk: string }[];
    expect(alerts.map((x) => x.alertId)).toEqual([
      '40018@http://site.test/item#id',
      '40018@http://site.test/search#q',
      '10038@http://site.test/',
      '10020@http://site.test/',
      '10010@http://site.test/#session',
      '10010@http://site.test/#tracking',
      '10036@http://site.test/',
      '10021@http://site.test/a',
      '10021@http://site.test/b',
      '10037@http://site.test/',
    ]);
    expect(await zap()).toEqual({ High: 1, Medium: 2, Low: 3, Informational: 1, 'False Positives': 0 });

    // The alert: every instance of 10021 set aside; one instance: only the SQL injection in /search's q and the
    // session cookie, the same rules' other instances still count at their risk.
    expect((await mark({ ruleId: '10021' })).statusCode).toBe(200);
    expect((await mark({ ruleId: '40018', url: 'http://site.test/search#q' })).json().message).toBe('Alert 40018 on http://site.test/search#q marked a false positive');
    expect((await mark({ ruleId: '10010', url: 'http://site.test/#session' })).statusCode).toBe(200);
    expect(await listed()).toMatchObject({
      '10021@http://site.test/a': true,
      '10021@http://site.test/b': true,
      '40018@http://site.test/search#q': true,
      '40018@http://site.test/item#id': false,
      '10010@http://site.test/#session': true,
      '10010@http://site.test/#tracking': false,
      '10038@http://site.test/': false,
    });
    // ZAP's summary: an alert counts at its risk while one instance is not a false positive, and once under
    // False Positives while one is.
    expect(await zap()).toEqual({ High: 1, Medium: 2, Low: 2, Informational: 1, 'False Positives': 3 });
    const trends = (await app.inject({ url: '/insight/trends', headers: key(a) })).json();
    expect(trends.zap.points.at(-1)).toMatchObject({ High: 1, Medium: 2, Low: 2, Informational: 1 });

    // The other SQL injection instance too: the alert is a false positive only.
    expect((await mark({ ruleId: '40018', url: 'http://site.test/item#id' })).statusCode).toBe(200);
    expect(await zap()).toEqual({ High: 0, Medium: 2, Low: 2, Informational: 1, 'False Positives': 3 });
    // Unmarking one instance counts it at its risk again.
    expect((await mark({ ruleId: '40018', url: 'http://site.test/search#q' }, 'DELETE')).statusCode).toBe(200);
    expect(await zap()).toEqual({ High: 1, Medium: 2, Low: 2, Informational: 1, 'False Positives': 3 });
    expect((await mark({ ruleId: '40018', url: 'http://site.test/item#id' }, 'DELETE')).statusCode).toBe(200);
    expect(await zap()).toEqual({ High: 1, Medium: 2, Low: 2, Informational: 1, 'False Positives': 2 });
    const fps = (await app.inject({ url: `/operator/clients/${a.clientId}/false-positives`, headers: operator })).json().falsePositives as { ruleId: string; url: string | null }[];
    expect(fps.map((f) => `${f.ruleId} ${f.url}`).sort()).toEqual(['10010 http://site.test/#session', '10021 null']);

    const clientTry = await app.inject({ method: 'POST', url: `/operator/clients/${a.clientId}/false-positives`, headers: key(a), payload: { ruleId: '10038' } });
    expect(clientTry.statusCode).toBe(403);
  });

  it('keeps each client to its own runs, reports and insights', async () => {
    expect((await app.inject({ url: '/report/fetch/all', headers: key(b) })).statusCode).toBe(404);
    expect((await app.inject({ url: '/report/fetch/all', headers: key(b) })).json().message).toBe('No reports available');
    expect((await app.inject({ url: '/report/fetch/checkout/json', headers: key(b) })).statusCode).toBe(404);
    expect((await app.inject({ url: '/insight/fetch/all', headers: key(b) })).json()).toEqual({});
    expect((await app.inject({ url: '/test/runs', headers: key(b) })).json()).toEqual({ runs: [] });
    const aRuns = (await app.inject({ url: '/test/runs', headers: key(a) })).json().runs;
    expect((await app.inject({ url: `/test/runs/${aRuns[0].runId}`, headers: key(b) })).statusCode).toBe(404);
    const sse = await app.inject({ method: 'POST', url: '/test/events/token', headers: key(b) });
    expect(sse.statusCode).toBe(200);
    expect(sse.json().token).not.toContain(a.clientId);
  });

  it('streams live status as server-sent events, opened with a short-lived token', async () => {
    const { token } = (await app.inject({ method: 'POST', url: '/test/events/token', headers: key(a) })).json();
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const ac = new AbortController();
    const res = await fetch(`${address}/test/events?token=${encodeURIComponent(token)}`, { signal: ac.signal });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = res.body!.getReader();
    let text = '';
    const readUntil = async (pred: (t: string) => boolean) => {
      const deadline = Date.now() + 15_000;
      while (!pred(text) && Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
    };
    await readUntil((t) => t.includes('event: snapshot'));
    const snapshot = JSON.parse(/event: snapshot\ndata: (.*)\n/.exec(text)![1]!);
    expect(Object.keys(snapshot.tests).sort()).toEqual(['checkout', 'home load', 'marketing pages', 'security checks', 'zap scan']);
    await app.inject({ url: '/test/run/checkout', headers: key(a) });
    await readUntil((t) => /event: test\ndata: .*"testName":"checkout".*"status":"failed"/.test(t) && /event: run\ndata: .*"status":"failed"/.test(t));
    expect(text).toMatch(/event: test\ndata: .*"testName":"checkout".*"status":"running"/);
    expect(text).toMatch(/event: run\ndata: .*"status":"failed"/);
    ac.abort();
    const bad = await fetch(`${address}/test/events?token=x.y.z`);
    expect(bad.status).toBe(401);
  });

  it('refuses client keys on the operator API', async () => {
    const res = await app.inject({ method: 'POST', url: `/operator/clients/${a.clientId}/suite`, headers: key(a), payload: { files: [{ path: 'suite.json', content: '{}' }] } });
    expect(res.statusCode).toBe(403);
  });
});
