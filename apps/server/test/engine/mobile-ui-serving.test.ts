import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Bug, BugPrefill } from '@fullstop/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppiumServer, FAKE_APP, FAKE_CAPABILITIES, FAKE_SUITE, startAppium } from '../../../../packages/engine/test/fixtures/appium-server.ts';
import { writeAxml } from '../../../../packages/engine/test/fixtures/axml-writer.ts';
import { auditEvents } from '../../src/db/schema/index.ts';
import { bearer, buildTestApp, createTestClient, login, signedInClient, type TestClient } from '../helpers/app.ts';
import { makeZip, multipart } from '../helpers/zip.ts';
import { importSuite, manifest, OPERATOR_TOKEN, operator, runAndWait } from './helpers.ts';

const ACCESS_KEY = 'appium-access-key-do-not-leak-7f3a';

/** An APK the upload accepts; the fake driver opens its own XML app instead (the provider's `app` capability). */
const apk = () =>
  makeZip({
    'AndroidManifest.xml': writeAxml({ name: 'manifest', attributes: { package: 'com.acme.shop', versionCode: 7, versionName: '7.1.0' }, children: [{ name: 'application', attributes: { label: 'Acme Shop' } }] }),
    'classes.dex': 'dex\n035\0',
  });

interface RunDetail {
  runId: string;
  status: string;
  tests: { runTestId: string; testName: string; status: string; error: string | null }[];
}

/** Every file under a folder, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/**
 * Mobile UI tests served end to end (issue 28): an operator sets the client's device provider to a real Appium 3
 * with Appium's fake driver, imports a suite of two mobile UI tests, the client uploads a build and runs all on the
 * real runner; the failed step's screenshot and page source are the run's evidence and a bug's attachments.
 */
describe('mobile UI tests on the client’s device provider', () => {
  let app: FastifyInstance;
  let appium: AppiumServer;
  let c: TestClient;
  let owner: Record<string, string>;
  const providerUrl = (clientId: string) => `/operator/clients/${clientId}/mobile-devices`;
  const setProvider = (clientId: string, body: Record<string, unknown>, headers: Record<string, string> = operator) =>
    app.inject({ method: 'PUT', url: providerUrl(clientId), headers, payload: body });
  const upload = async (client: TestClient) => {
    const body = multipart('shop.apk', await apk());
    const res = await app.inject({ method: 'POST', url: `/upload/android/${client.clientId}`, headers: { ...bearer((await login(app, client.email, client.password)).accessToken), ...body.headers }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(200);
  };
  const suiteFiles = async () => ({
    'suite.json': manifest({
      Mobile: [
        { name: 'app signs in', kind: 'mobile-ui', options: { specs: 'mobile/sign-in.spec.ts', platform: 'android', capabilities: FAKE_CAPABILITIES, stepTimeoutSeconds: 10, waitforTimeoutSeconds: 1 } },
        { name: 'app checks out', kind: 'mobile-ui', options: { specs: 'mobile/checkout.spec.ts', platform: 'android', capabilities: FAKE_CAPABILITIES, stepTimeoutSeconds: 10, waitforTimeoutSeconds: 1 } },
      ],
    }),
    'mobile/sign-in.spec.ts': await readFile(path.join(FAKE_SUITE, 'specs/sign-in.spec.ts'), 'utf8'),
    'mobile/checkout.spec.ts': await readFile(path.join(FAKE_SUITE, 'specs/checkout.spec.ts'), 'utf8'),
  });

  beforeAll(async () => {
    appium = await startAppium();
    app = await buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_ALLOW_PRIVATE_TARGETS: true } });
    await app.engine.startWorkers(1);
    c = await createTestClient(app);
    owner = bearer((await login(app, c.email, c.password)).accessToken);
  }, 90_000);
  afterAll(async () => {
    await app?.close();
    await appium?.close();
  });

  it('lets an operator set, test and read the provider; the key is write-only and bound to the endpoint', async () => {
    // Bad input: a clear 400 naming the field.
    const bad = await setProvider(c.clientId, { kind: 'appium', url: 'ftp://devices.example/' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'url' });
    const huge = await setProvider(c.clientId, { kind: 'appium', url: appium.url, capabilities: { blob: 'x'.repeat(9000) } });
    expect(huge.statusCode).toBe(400);
    expect(huge.json()).toMatchObject({ field: 'capabilities' });
    const cloud = await setProvider(c.clientId, { kind: 'perfecto', url: appium.url });
    expect(cloud.statusCode).toBe(400);
    expect(cloud.json()).toMatchObject({ field: 'kind' });
    // Only operators set it.
    expect((await setProvider(c.clientId, { kind: 'appium', url: appium.url }, owner)).statusCode).toBe(403);

    const set = await setProvider(c.clientId, { kind: 'appium', url: appium.url, username: 'qa-lab', accessKey: ACCESS_KEY, capabilities: { app: FAKE_APP } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.body).not.toContain(ACCESS_KEY);
    expect(set.json().provider).toMatchObject({ kind: 'appium', url: appium.url, username: 'qa-lab', accessKeyHint: '••••7f3a', capabilities: { app: FAKE_APP } });
    const read = await app.inject({ url: providerUrl(c.clientId), headers: operator });
    expect(read.body).not.toContain(ACCESS_KEY);
    expect(read.json().provider.accessKeyHint).toBe('••••7f3a');

    // Another origin without the key again: refused, the key is never sent there.
    const moved = await setProvider(c.clientId, { kind: 'appium', url: appium.url.replace('127.0.0.1', 'localhost'), username: 'qa-lab' });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({ field: 'accessKey', message: expect.stringMatching(/^the access key is required again: the stored key was given for http:\/\/127\.0\.0\.1:\d+ only$/) });
    // The same origin keeps it.
    const kept = await setProvider(c.clientId, { kind: 'appium', url: appium.url, username: 'qa-lab', capabilities: { app: FAKE_APP } });
    expect(kept.json().provider.accessKeyHint).toBe('••••7f3a');

    const test = await app.inject({ method: 'POST', url: `${providerUrl(c.clientId)}/test`, headers: operator });
    expect(test.statusCode, test.body).toBe(200);
    expect(test.json()).toMatchObject({ ok: true, status: 200, message: expect.stringMatching(/^Appium 3\.\d+\.\d+ answered: ready/) });

    // The client's people see that one is set, its kind and host; another client's owner sees nothing.
    const mine = await app.inject({ url: `/clientProfile/mobile-devices/${c.clientId}`, headers: owner });
    expect(mine.json()).toEqual({ set: true, kind: 'appium', host: new URL(appium.url).host });
    const stranger = await signedInClient(app);
    expect((await app.inject({ url: `/clientProfile/mobile-devices/${c.clientId}`, headers: bearer(stranger.token) })).statusCode).toBe(404);
    expect((await app.inject({ url: providerUrl(c.clientId), headers: bearer(stranger.token) })).statusCode).toBe(403);

    const audited = await app.db.select().from(auditEvents).where(and(eq(auditEvents.clientId, c.clientId), eq(auditEvents.type, 'mobile-provider.set')));
    expect(audited).toHaveLength(2);
    expect(JSON.stringify(audited)).not.toContain(ACCESS_KEY);
  });

  it('runs the suite on the uploaded build: the failed step’s screenshot and page source reach the report and a bug', async () => {
    const imported = await importSuite(app, c.clientId, await suiteFiles());
    expect(imported.statusCode, imported.body).toBe(201);
    await upload(c);
    const run: RunDetail = await runAndWait(app, c, 'all', 120_000);
    const byName = Object.fromEntries(run.tests.map((t) => [t.testName, t]));
    expect(byName['app signs in']).toMatchObject({ status: 'passed', error: null });
    expect(byName['app checks out']).toMatchObject({ status: 'failed' });
    expect(await appium.sessions()).toEqual([]);

    // The frontend card counts the mobile UI tests' steps, and its trend has the run.
    const insights = await app.inject({ url: '/insight/fetch/all', headers: { 'x-api-key': c.apiKey } });
    expect(insights.json()['frontend-report']).toMatchObject({ totalTests: 4, passedTests: 3, failedTests: 1 });
    const trends = await app.inject({ url: '/insight/trends', headers: { 'x-api-key': c.apiKey } });
    expect(trends.json()['frontend-report'].points).toEqual([expect.objectContaining({ runId: run.runId, passRate: 75 })]);

    const failed = byName['app checks out']!;
    const report = await app.inject({ url: `/report/fetch/${encodeURIComponent('app checks out')}/json`, headers: { 'x-api-key': c.apiKey } });
    expect(report.statusCode, report.body).toBe(200);
    const summary = report.json().summary as { cases: { name: string; status: string; screenshot?: string }[]; pageSources: { case: string; excerpt: string }[]; devices: { appVersion: string | null }[] };
    const failedCase = summary.cases.find((x) => x.status === 'failed')!;
    expect(failedCase.name).toBe('checkout.spec.ts › Checkout › taps Pay now');
    expect(summary.pageSources).toEqual([expect.objectContaining({ case: failedCase.name, excerpt: expect.stringContaining('Welcome to Acme Shop') })]);
    // The uploaded build's version is the app's, though the fake driver opened its own XML app.
    expect(summary.devices[0]!.appVersion).toBe('7.1.0');

    const evidence = await app.inject({ url: `/test/runs/${run.runId}/tests/${failed.runTestId}/evidence`, headers: owner });
    expect(evidence.statusCode, evidence.body).toBe(200);
    const items = evidence.json().evidence as { kind: string; caseName: string | null; caseError: string | null }[];
    expect(items).toContainEqual(expect.objectContaining({ kind: 'screenshot', caseName: failedCase.name, caseError: expect.stringContaining('~pay-now') }));

    // A bug made from the failed step carries its screenshot and the page source.
    const prefill = await app.inject({ url: `/operator/clients/${c.clientId}/bugs/prefill?runTestId=${failed.runTestId}`, headers: operator });
    expect(prefill.statusCode, prefill.body).toBe(200);
    const fields = prefill.json<BugPrefill>();
    expect(fields.evidence.map((e) => e.kind).sort()).toEqual(['page-source', 'screenshot']);
    const { evidence: _evidence, ...body } = fields;
    const created = await app.inject({ method: 'POST', url: `/operator/clients/${c.clientId}/bugs`, headers: operator, payload: { ...body, ruleId: undefined, publish: true } });
    expect(created.statusCode, created.body).toBe(201);
    const bug = created.json<Bug>();
    expect(bug.attachments.map((a) => [a.kind, a.contentType]).sort()).toEqual([
      ['page-source', 'application/xml'],
      ['screenshot', 'image/png'],
    ]);
    const source = bug.attachments.find((a) => a.kind === 'page-source')!;
    const download = await app.inject({ url: `/bugs/${bug.id}/attachments/${source.id}`, headers: owner });
    expect(download.statusCode).toBe(200);
    expect(download.body).toContain('<MockButton id="sign-in"');

    // The access key is in no report, log or file the run left.
    for (const file of await filesUnder(app.paths.dataDir)) {
      expect((await readFile(file)).includes(ACCESS_KEY), file).toBe(false);
    }
  }, 150_000);

  it('fails a client’s mobile UI test clearly while no provider is set, and removes a provider', async () => {
    const other = await createTestClient(app);
    expect((await importSuite(app, other.clientId, await suiteFiles())).statusCode).toBe(201);
    await upload(other);
    const run: RunDetail = await runAndWait(app, other, 'app signs in', 60_000);
    expect(run.tests[0]).toMatchObject({ status: 'error', error: expect.stringMatching(/^no device provider is set for this client/) });

    const removed = await app.inject({ method: 'DELETE', url: providerUrl(c.clientId), headers: operator });
    expect(removed.statusCode).toBe(200);
    expect((await app.inject({ url: providerUrl(c.clientId), headers: operator })).json()).toEqual({ provider: null });
    expect((await app.inject({ method: 'DELETE', url: providerUrl(c.clientId), headers: operator })).statusCode).toBe(404);
    expect((await app.inject({ url: `/clientProfile/mobile-devices/${c.clientId}`, headers: owner })).json()).toEqual({ set: false, kind: null, host: null });
    expect(await app.db.select().from(auditEvents).where(and(eq(auditEvents.clientId, c.clientId), eq(auditEvents.type, 'mobile-provider.deleted')))).toHaveLength(1);
  }, 90_000);
});

describe('the device provider under the target policy', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ env: { OPERATOR_TOKEN } });
  });
  afterAll(async () => app?.close());

  it('refuses a private Appium address for a client that may not reach one', async () => {
    const c = await createTestClient(app);
    const res = await app.inject({ method: 'PUT', url: `/operator/clients/${c.clientId}/mobile-devices`, headers: operator, payload: { kind: 'appium', url: 'http://127.0.0.1:4723/' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'url', message: expect.stringMatching(/^the Appium URL is refused: /) });
  });
});
