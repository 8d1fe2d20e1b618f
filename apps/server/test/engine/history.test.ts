import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { RunHistoryDetail, RunHistoryPage } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestClient, createTestOperator, login, type TestClient } from '../helpers/app.ts';
import { buildEngineApp, importSuite, key, manifest, operator, type SuiteTest } from './helpers.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/fullstop.js');
const site = 'http://site.test';
const csp = { ruleId: '10038', name: 'Content Security Policy (CSP) Header Not Set', risk: 'Medium', url: `${site}/` };
const clickjacking = { ruleId: '10020', name: 'Missing Anti-clickjacking Header', risk: 'Medium', url: `${site}/` };
const cookieX = { ruleId: '10010', name: 'Cookie No HttpOnly Flag', risk: 'Low', url: `${site}/a`, param: 'x' };
const cookieY = { ...cookieX, param: 'y' };
const marked = { ruleId: '10055', name: 'CSP: Wildcard Directive', risk: 'Medium', url: `${site}/` };

/** The same three tests twice: alpha passes then fails, beta fails then passes, the scan fails both times. */
const suiteV1: Record<string, SuiteTest[]> = {
  Frontend: [
    { name: 'alpha', kind: 'browser', options: { outcome: 'pass' } },
    { name: 'beta', kind: 'browser', options: { outcome: 'fail' } },
  ],
  Security: [{ name: 'scan', kind: 'security-scan', options: { outcome: 'fail', findings: [csp, clickjacking, cookieX] } }],
};
const suiteV2: Record<string, SuiteTest[]> = {
  Frontend: [
    { name: 'alpha', kind: 'browser', options: { outcome: 'fail', evidence: 'files' } },
    { name: 'beta', kind: 'browser', options: { outcome: 'pass' } },
  ],
  Security: [{ name: 'scan', kind: 'security-scan', options: { outcome: 'fail', findings: [csp, cookieY, marked] } }],
};

describe('run history: who started each run, pages and filters, what changed since the run before', () => {
  let app: FastifyInstance;
  let a: TestClient;
  let b: TestClient;
  let operatorEmail: string;
  /** Oldest first: api (run all), ci (run all), portal login, operator login, portal page with the key. */
  const runIds: string[] = [];
  const history = (query = '', c = a) => app.inject({ url: `/test/history${query}`, headers: key(c) });
  const detail = async (runId: string, c = a) => app.inject({ url: `/test/history/${runId}`, headers: key(c) });
  const ran = (res: { statusCode: number; body: string; json(): { runId: string } }) => {
    expect(res.statusCode, res.body).toBe(200);
    runIds.push(res.json().runId);
  };

  beforeAll(async () => {
    app = await buildEngineApp(2);
    a = await createTestClient(app);
    b = await createTestClient(app);
    expect((await importSuite(app, a.clientId, { 'suite.json': manifest(suiteV1) })).statusCode).toBe(201);
    ran(await app.inject({ url: '/test/run/all?wait=true&timeout=60', headers: key(a) }));

    expect((await importSuite(app, a.clientId, { 'suite.json': manifest(suiteV2) })).statusCode).toBe(201);
    const fp = await app.inject({ method: 'POST', url: `/operator/clients/${a.clientId}/false-positives`, headers: operator, payload: { ruleId: '10055' } });
    expect(fp.statusCode).toBe(200);
    ran(await app.inject({ url: '/test/run/all?wait=true&timeout=60', headers: { ...key(a), 'x-fullstop-trigger': 'ci' } }));

    const session = await login(app, a.email, a.password);
    ran(await app.inject({ url: '/test/run/alpha?wait=true&timeout=60', headers: bearer(session.accessToken) }));

    const op = await createTestOperator(app);
    operatorEmail = op.email;
    const opSession = await login(app, op.email, op.password);
    ran(
      await app.inject({
        method: 'POST',
        url: `/operator/clients/${a.clientId}/runs`,
        headers: bearer(opSession.accessToken),
        payload: { testName: 'beta', wait: true, timeout: 60 },
      }),
    );
    ran(await app.inject({ url: '/test/run/alpha?wait=true&timeout=60', headers: { ...key(a), 'sec-fetch-site': 'same-origin' } }));
  }, 120_000);
  afterAll(async () => {
    await app.close();
  });

  it('lists runs newest first with how each started, who started it, its duration and totals', async () => {
    const res = await history();
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as RunHistoryPage;
    expect(page).toMatchObject({ total: 5, page: 1, pageSize: 20 });
    expect(page.runs.map((r) => r.runId)).toEqual([...runIds].reverse());
    expect(page.runs.map((r) => [r.trigger, r.requestedBy, r.scope, r.testCount])).toEqual([
      ['portal', null, 'alpha', 1],
      ['operator', operatorEmail, 'beta', 1],
      ['portal', a.email, 'alpha', 1],
      ['ci', null, 'all', 3],
      ['api', null, 'all', 3],
    ]);
    const first = page.runs.at(-1)!;
    expect(first).toMatchObject({ status: 'failed', totals: { totalTests: 6, passedTests: 4, failedTests: 2 } });
    expect(first.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('pages through the runs and filters them by status and by test', async () => {
    const second = (await history('?page=2&pageSize=2')).json() as RunHistoryPage;
    expect(second).toMatchObject({ total: 5, page: 2, pageSize: 2 });
    expect(second.runs.map((r) => r.runId)).toEqual([runIds[2], runIds[1]]);
    expect(((await history('?page=3&pageSize=2')).json() as RunHistoryPage).runs.map((r) => r.runId)).toEqual([runIds[0]]);
    expect(((await history('?page=9&pageSize=2')).json() as RunHistoryPage)).toMatchObject({ runs: [], total: 5 });

    const passed = (await history('?status=passed')).json() as RunHistoryPage;
    expect(passed.runs.map((r) => r.runId)).toEqual([runIds[3]]);
    expect(passed.total).toBe(1);
    const withBetaRes = await history('?test=beta');
    expect(withBetaRes.statusCode, withBetaRes.body).toBe(200);
    const withBeta = withBetaRes.json() as RunHistoryPage;
    expect(withBeta.runs.map((r) => r.runId)).toEqual([runIds[3], runIds[1], runIds[0]]);
    const failedAlpha = (await history('?test=alpha&status=failed')).json() as RunHistoryPage;
    expect(failedAlpha.runs.map((r) => r.runId)).toEqual([runIds[4], runIds[2], runIds[1], runIds[0]]);
    expect(((await history('?test=nothing-like-it')).json() as RunHistoryPage)).toMatchObject({ runs: [], total: 0 });
  });

  it('refuses a bad query with 400 naming the field', async () => {
    for (const [query, field] of [
      ['?page=0', 'page'],
      ['?page=abc', 'page'],
      ['?pageSize=500', 'pageSize'],
      ['?status=broken', 'status'],
      [`?test=${'x'.repeat(101)}`, 'test'],
    ] as const) {
      const res = await history(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().field, query).toBe(field);
    }
  });

  it('shows a run’s tests and what changed since the run before: newly failing, fixed, still failing, alerts', async () => {
    const res = await detail(runIds[1]!);
    expect(res.statusCode, res.body).toBe(200);
    const run = res.json() as RunHistoryDetail;
    expect(run).toMatchObject({ runId: runIds[1], trigger: 'ci', status: 'failed', testCount: 3 });
    expect(run.comparison).toMatchObject({
      previousRunId: runIds[0],
      newlyFailing: ['alpha'],
      fixed: ['beta'],
      stillFailing: ['scan'],
    });
    // The parameter is part of an alert's identity; the operator's false positive is neither new nor resolved.
    expect(run.comparison.newAlerts).toEqual([{ testName: 'scan', ruleId: '10010', name: cookieY.name, risk: 'Low', url: cookieY.url, param: 'y' }]);
    expect(run.comparison.resolvedAlerts.map((x) => [x.ruleId, x.param])).toEqual([
      ['10020', null],
      ['10010', 'x'],
    ]);

    const alpha = run.tests.find((t) => t.testName === 'alpha')!;
    expect(alpha).toMatchObject({ group: 'Frontend', kind: 'browser', status: 'failed', attempts: 1, evidenceCount: 3, error: null });
    expect(alpha.reportFormats).toEqual(expect.arrayContaining(['html', 'json']));
    expect(run.tests.find((t) => t.testName === 'beta')).toMatchObject({ status: 'passed', evidenceCount: 0 });
    // A run-all offers its run report once written (just after the run ends; no pdf without a browser in tests).
    await expect.poll(async () => ((await detail(runIds[1]!)).json() as RunHistoryDetail).runReportFormats).toEqual(['html']);
    // The first run had nothing before it.
    const first = (await detail(runIds[0]!)).json() as RunHistoryDetail;
    expect(first.comparison).toEqual({ previousRunId: null, previousRunAt: null, newlyFailing: [], fixed: [], stillFailing: [], newAlerts: [], resolvedAlerts: [] });
  });

  it('opens that run’s own report of a test, not the latest one, through a short-lived link', async () => {
    const firstRun = (await detail(runIds[0]!)).json() as RunHistoryDetail;
    const alpha = firstRun.tests.find((t) => t.testName === 'alpha')!;
    const base = `/test/history/${runIds[0]}/tests/${alpha.runTestId}/report`;
    const link = await app.inject({ method: 'POST', url: `${base}/json/link`, headers: key(a) });
    expect(link.statusCode, link.body).toBe(200);
    expect(link.headers['cache-control']).toBe('no-store');
    const { url, expiresIn } = link.json();
    expect(expiresIn).toBeGreaterThan(0);
    const shown = await app.inject({ url });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'/);
    // The first run's alpha passed; its latest report (the fifth run's) failed.
    expect(shown.json()).toMatchObject({ status: 'passed' });

    const html = await app.inject({ url: (await app.inject({ method: 'POST', url: `${base}/HTML/link`, headers: key(a) })).json().url });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toMatch(/^text\/html/);

    // The token opens this report only: not another test's, not after tampering.
    const beta = firstRun.tests.find((t) => t.testName === 'beta')!;
    expect((await app.inject({ url: url.replace(alpha.runTestId, beta.runTestId) })).statusCode).toBe(401);
    expect((await app.inject({ url: `${url}x` })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: `${base}/pdf/link`, headers: key(a) })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: `${base}/json/link` })).statusCode).toBe(401);
  });

  it('opens the report of a whole run (Run all) through its own short-lived link, and only for its client', async () => {
    await expect.poll(async () => ((await detail(runIds[1]!)).json() as RunHistoryDetail).runReportFormats).toEqual(['html']);
    const base = `/test/history/${runIds[1]}/report`;
    const link = await app.inject({ method: 'POST', url: `${base}/html/link`, headers: key(a) });
    expect(link.statusCode, link.body).toBe(200);
    expect(link.headers['cache-control']).toBe('no-store');
    const { url } = link.json();
    const shown = await app.inject({ url });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.headers['content-type']).toMatch(/^text\/html/);
    expect(shown.headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'/);
    expect(shown.body).toContain('alpha');
    expect(shown.body).toContain('beta');

    // Not for a run of one test (it writes none), not in a format not written, not for another client.
    expect((await app.inject({ method: 'POST', url: `/test/history/${runIds[2]}/report/html/link`, headers: key(a) })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: `${base}/pdf/link`, headers: key(a) })).statusCode).toBe(404);
    const other = await app.inject({ method: 'POST', url: `${base}/html/link`, headers: key(b) });
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('Run not found');
    // A run report's token opens no test's report, and a test report's token opens no run report.
    const run = (await detail(runIds[1]!)).json() as RunHistoryDetail;
    const testPath = `/test/history/${runIds[1]}/tests/${run.tests[0]!.runTestId}/report/html`;
    expect((await app.inject({ url: url.replace(`${base}/html`, testPath) })).statusCode).toBe(401);
    const testLink = (await app.inject({ method: 'POST', url: `${testPath}/link`, headers: key(a) })).json().url as string;
    expect((await app.inject({ url: testLink.replace(testPath, `${base}/html`) })).statusCode).toBe(401);
  });

  it('answers another client 404 for a run’s detail and report link, and shows it none of the runs', async () => {
    const run = (await detail(runIds[0]!)).json() as RunHistoryDetail;
    const res = await detail(runIds[0]!, b);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Run not found');
    const link = await app.inject({ method: 'POST', url: `/test/history/${runIds[0]}/tests/${run.tests[0]!.runTestId}/report/json/link`, headers: key(b) });
    expect(link.statusCode).toBe(404);
    expect(((await history('', b)).json() as RunHistoryPage)).toMatchObject({ runs: [], total: 0 });
    expect((await detail('no-such-run')).statusCode).toBe(404);
    expect((await detail('bad id!')).statusCode).toBe(400);
  });

  it('records a run that `fullstop run` starts in a CI job (CI set) as CI', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const server = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, '--server', server, 'run', '--api-key', a.apiKey, '--test', 'beta'], {
      timeout: 30_000,
      env: { ...process.env, CI: 'true' },
    });
    expect(stdout).toContain('Test beta queued');
    const newest = ((await history('?pageSize=1')).json() as RunHistoryPage).runs[0]!;
    expect(newest).toMatchObject({ trigger: 'ci', scope: 'beta', requestedBy: null });
    expect(stdout).toContain(newest.runId);
  }, 60_000);
});
