import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppiumServer, FAKE_CAPABILITIES, FAKE_SUITE, startAppium } from '../../../../packages/engine/test/fixtures/appium-server.ts';
import { writeAxml } from '../../../../packages/engine/test/fixtures/axml-writer.ts';
import { MAX_DEVICES_PER_TEST } from '@fullstop/engine/kinds';
import { DeviceFarmAttempt, deviceFarmClient, deviceFarmTiming } from '../../src/features/mobile-devices/clouds/device-farm.ts';
import { endMobileAttempt } from '../../src/features/mobile-devices/index.ts';
import { devicesOfTest } from '../../src/features/mobile-devices/service.ts';
import { sandboxRun } from '../../src/features/runs/execute-job.ts';
import { bearer, buildTestApp, createTestClient, login, type TestClient } from '../helpers/app.ts';
import { makeZip, multipart } from '../helpers/zip.ts';
import { FAKE_FARM_DEVICES, startFakeDeviceFarm } from './fake-device-farm.ts';
import { importSuite, key, manifest, OPERATOR_TOKEN, operator, runAndWait } from './helpers.ts';

const account = { accessKeyId: 'AKIAFULLSTOPTEST0001', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYdevicefarm9', projectArn: 'arn:aws:devicefarm:us-west-2:123456789012:project:5e01a8c7-c861-4c0a-b1d5-12345EXAMPLE' };

const apk = (version: string) =>
  makeZip({
    'AndroidManifest.xml': writeAxml({ name: 'manifest', attributes: { package: 'com.acme.shop', versionCode: 7, versionName: version }, children: [{ name: 'application', attributes: { label: 'Acme Shop' } }] }),
    'classes.dex': 'dex\n035\0',
  });

type Device = { label: string; error?: string; sessionId?: string | null; providerLinks?: { label: string; url: string }[]; providerNote?: string };
type TestResult = { testName: string; status: string; error: string | null };

/**
 * Mobile UI tests on AWS Device Farm (issue 28, decision 0085): the real server uploads the build to the project
 * (CreateUpload, the presigned PUT, GetUpload), opens a remote access session per device as the runner reaches it,
 * hands the runner the session's Appium endpoint, and stops every session it opened: after a pass, a failure, a test
 * whose time ran out in a hung step and a device that never got ready. The SDK's calls go to a local fake of the API.
 */
describe('mobile UI tests on AWS Device Farm', () => {
  let app: FastifyInstance;
  let appium: AppiumServer;
  let farm: Awaited<ReturnType<typeof startFakeDeviceFarm>>;
  let client: TestClient;
  const pollMs = deviceFarmTiming.pollMs;

  const setProvider = (clientId: string, body: Record<string, unknown>) => app.inject({ method: 'PUT', url: `/operator/clients/${clientId}/mobile-devices`, headers: operator, payload: body });
  const upload = async (c: TestClient, version: string) => {
    const file = await apk(version);
    const body = multipart('shop.apk', file);
    const res = await app.inject({ method: 'POST', url: `/upload/android/${c.clientId}`, headers: { ...bearer((await login(app, c.email, c.password)).accessToken), ...body.headers }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(200);
    return createHash('sha256').update(file).digest('hex');
  };
  const reportOf = async (c: TestClient, testName: string) => {
    const res = await app.inject({ url: `/report/fetch/${encodeURIComponent(testName)}/json`, headers: key(c) });
    expect(res.statusCode, res.body).toBe(200);
    const html = await app.inject({ url: `/report/fetch/${encodeURIComponent(testName)}/html`, headers: key(c) });
    return { devices: (res.json().summary as { devices: Device[] }).devices, json: res.body, html: html.body };
  };
  const sessionsOn = (deviceName: string) => [...farm.sessions.values()].filter((s) => s.deviceArn === FAKE_FARM_DEVICES.find((d) => d.name === deviceName)!.arn);

  beforeAll(async () => {
    deviceFarmTiming.pollMs = 100;
    appium = await startAppium();
    farm = await startFakeDeviceFarm(appium, account);
    app = await buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_ALLOW_PRIVATE_TARGETS: true } });
    await app.engine.startWorkers(1);
    client = await createTestClient(app);
    const spec = (file: string) => readFile(path.join(FAKE_SUITE, 'specs', file), 'utf8');
    const common = { platform: 'android', capabilities: FAKE_CAPABILITIES, stepTimeoutSeconds: 10, waitforTimeoutSeconds: 1 };
    const files = {
      'suite.json': manifest({
        Mobile: [
          { name: 'app signs in', kind: 'mobile-ui', options: { ...common, specs: 'mobile/sign-in.spec.ts' } },
          { name: 'app checks out', kind: 'mobile-ui', options: { ...common, specs: 'mobile/checkout.spec.ts' } },
          { name: 'app hangs', kind: 'mobile-ui', options: { ...common, specs: 'mobile/hang.spec.ts', stepTimeoutSeconds: 600, testTimeoutSeconds: 10 } },
          { name: 'app hangs for long', kind: 'mobile-ui', options: { ...common, specs: 'mobile/hang.spec.ts', stepTimeoutSeconds: 600, testTimeoutSeconds: 600 } },
          { name: 'app on a slow phone', kind: 'mobile-ui', options: { ...common, specs: 'mobile/sign-in.spec.ts', testTimeoutSeconds: 10, devices: [{ capabilities: { deviceName: 'Slow Phone' } }] } },
        ],
      }),
      'mobile/sign-in.spec.ts': await spec('sign-in.spec.ts'),
      'mobile/checkout.spec.ts': await spec('checkout.spec.ts'),
      'mobile/hang.spec.ts': await spec('hang.spec.ts'),
    };
    const imported = await importSuite(app, client.clientId, files);
    expect(imported.statusCode, imported.body).toBe(201);
  }, 90_000);
  afterAll(async () => {
    deviceFarmTiming.pollMs = pollMs;
    await app?.close();
    await farm?.close();
    await appium?.close();
  });

  it('refuses a provider without its project ARN, access key ID or secret, with clear 400s; stores the secret sealed', async () => {
    const base = { kind: 'devicefarm', apiUrl: farm.apiUrl, username: account.accessKeyId, accessKey: account.secretAccessKey, projectArn: account.projectArn };
    const refused = async (body: Record<string, unknown>, field: string, message: RegExp) => {
      const res = await setProvider(client.clientId, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ field });
      expect(res.body).toMatch(message);
      expect(res.body).not.toContain(account.secretAccessKey);
    };
    await refused({ ...base, projectArn: undefined }, 'projectArn', /projectArn is required for AWS Device Farm/);
    await refused({ ...base, projectArn: 'arn:aws:devicefarm:us-east-1:123456789012:project:abc' }, 'projectArn', /Device Farm project ARN in us-west-2/);
    await refused({ ...base, projectArn: 'arn:aws:s3:::bucket' }, 'projectArn', /arn:aws:devicefarm:us-west-2:<12-digit account>:project:<id>/);
    await refused({ ...base, username: undefined }, 'username', /AWS access key ID/);
    await refused({ ...base, username: 'not a key id' }, 'username', /must be an AWS access key ID/);
    await refused({ ...base, accessKey: undefined }, 'accessKey', /secret access key/);
    await refused({ ...base, url: 'https://hub.example/wd/hub' }, 'url', /not used for AWS Device Farm/);
    await refused({ kind: 'browserstack', apiUrl: farm.apiUrl, url: `${farm.apiUrl}/wd/hub`, username: 'u', accessKey: 'k', projectArn: account.projectArn }, 'projectArn', /only for AWS Device Farm/);

    const set = await setProvider(client.clientId, base);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.body).not.toContain(account.secretAccessKey);
    expect(set.json().provider).toMatchObject({ kind: 'devicefarm', url: farm.apiUrl, apiUrl: farm.apiUrl, username: account.accessKeyId, projectArn: account.projectArn, accessKeyHint: '••••arm9' });

    // "Test" asks for the project, signed with the account's key.
    const test = await app.inject({ method: 'POST', url: `/operator/clients/${client.clientId}/mobile-devices/test`, headers: operator });
    expect(test.json()).toEqual({ ok: true, status: 200, message: 'AWS Device Farm answered: project “Acme mobile”' });
  });

  it('uploads the build once, opens a session per device, and stops every session: passed, failed, timed out, never ready', async () => {
    const sha256 = await upload(client, '7.1.0');
    const names = ['app signs in', 'app checks out', 'app hangs', 'app on a slow phone'];
    const byName: Record<string, TestResult> = {};
    for (const name of names) {
      const run = (await runAndWait(app, client, name, 90_000)) as { tests: TestResult[] };
      byName[name] = run.tests[0]!;
    }
    expect(byName['app signs in']).toMatchObject({ status: 'passed', error: null });
    expect(byName['app checks out']).toMatchObject({ status: 'failed' });
    expect(byName['app hangs']).toMatchObject({ status: 'failed' });
    expect(byName['app on a slow phone']!.status).not.toBe('passed');

    // One upload of the build, as an Android app of the project, its bytes the client's build, polled until SUCCEEDED.
    expect(farm.of('CreateUpload')).toEqual([{ op: 'CreateUpload', body: expect.objectContaining({ projectArn: account.projectArn, type: 'ANDROID_APP', name: expect.stringMatching(/\.apk$/) }) }]);
    const [stored] = [...farm.uploads.values()];
    expect(stored!.sha256).toBe(sha256);
    expect(farm.of('GetUpload').length).toBeGreaterThanOrEqual(2);

    // A session per device run, on the device its capabilities name, with the build; each one stopped.
    const created = farm.of('CreateRemoteAccessSession');
    expect(created).toHaveLength(4);
    for (const c of created) expect(c.body).toMatchObject({ projectArn: account.projectArn, appArn: stored!.arn });
    expect(sessionsOn('Fake Pixel')).toHaveLength(3);
    expect(sessionsOn('Slow Phone')).toHaveLength(1);
    // One device at a time: each session was stopped before the next one was created (a device bills until stopped).
    let open = 0;
    for (const c of farm.calls) {
      if (c.op === 'CreateRemoteAccessSession') expect(open++, 'a session still open when the next was created').toBe(0);
      if (c.op === 'StopRemoteAccessSession') open = Math.max(0, open - 1);
    }
    const stopped = new Set(farm.of('StopRemoteAccessSession').map((c) => c.body.arn));
    for (const s of farm.sessions.values()) expect(stopped.has(s.arn), `${s.arn} was stopped`).toBe(true);
    expect([...farm.sessions.values()].every((s) => s.status === 'STOPPING' || s.status === 'COMPLETED')).toBe(true);
    // The runner opened each Appium session on the session's endpoint without naming an app (Device Farm installs it), and ended it.
    for (const s of sessionsOn('Fake Pixel')) {
      expect(s.appiumSessions).toHaveLength(1);
      expect(s.appsAsked).toEqual([undefined]);
    }
    expect(await appium.sessions()).toEqual([]);

    // The passed test's report: the session's video and logs (ListArtifacts) in its header.
    const passed = await reportOf(client, 'app signs in');
    expect(passed.devices[0]!.providerLinks).toEqual([
      { label: 'Video', url: expect.stringMatching(/^https:\/\/prod-us-west-2-results\.s3\.dualstack\.us-west-2\.amazonaws\.com\/.+\/video\.mp4\?/) },
      { label: 'Appium log', url: expect.stringMatching(/\/appium\.txt\?/) },
      { label: 'Device log', url: expect.stringMatching(/\/logcat\.txt\?/) },
    ]);
    expect(passed.html).toContain('>Video</a>');
    // The failed and timed-out tests carry theirs too; the slow phone says why it did not run.
    expect((await reportOf(client, 'app checks out')).devices[0]!.providerLinks).toHaveLength(3);
    const hung = await reportOf(client, 'app hangs');
    expect(hung.devices[0]!.error).toMatch(/the test's time ran out/);
    expect(hung.devices[0]!.providerLinks).toHaveLength(3);
    const slow = await reportOf(client, 'app on a slow phone');
    expect(slow.devices[0]!.error).toMatch(/^the device's session could not be opened: the session on Slow Phone was not running by the test's deadline \(status PENDING\); it was stopped$/);

    // The secret access key went nowhere: not to the fake (the SDK signs with it), not to a report.
    expect(farm.seen.some((line) => line.includes(account.secretAccessKey))).toBe(false);
    for (const text of [passed.json, passed.html, hung.json]) expect(text).not.toContain(account.secretAccessKey);
    const files = (await readdir(app.paths.dataDir, { withFileTypes: true, recursive: true })).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect((await readFile(file)).includes(account.secretAccessKey), file).toBe(false);
  }, 240_000);

  it('does not upload the same build again; a new build that Device Farm cannot process is a clear error, not retried', async () => {
    const before = farm.of('CreateUpload').length;
    const again = (await runAndWait(app, client, 'app signs in', 90_000)) as { tests: TestResult[] };
    expect(again.tests[0]).toMatchObject({ status: 'passed' });
    expect(farm.of('CreateUpload')).toHaveLength(before);
    const last = farm.of('CreateRemoteAccessSession').at(-1)!;
    expect(last.body.appArn).toBe([...farm.uploads.values()][0]!.arn);

    farm.behaviour.failNextUpload = true;
    await upload(client, '7.2.0');
    const sessionsBefore = farm.sessions.size;
    const failed = (await runAndWait(app, client, 'app signs in', 90_000)) as { tests: (TestResult & { attempts?: number })[] };
    expect(failed.tests[0]).toMatchObject({ status: 'error', error: 'AWS Device Farm could not process the build: Invalid application uploaded. — {"errorMessage":"The app could not be parsed"}' });
    expect(farm.of('CreateUpload')).toHaveLength(before + 1);
    expect(farm.sessions.size).toBe(sessionsBefore);
  }, 120_000);

  it('stops the device’s session when the attempt is aborted mid-test (the server shutting down)', async () => {
    const before = new Set(farm.sessions.keys());
    const started = await app.inject({ url: `/test/run/${encodeURIComponent('app hangs for long')}`, headers: key(client) });
    expect(started.statusCode, started.body).toBe(200);
    // Until the device's Appium session is open on its remote access session, and its hung step runs.
    const until = Date.now() + 60_000;
    let session: (typeof farm.sessions extends Map<string, infer S> ? S : never) | undefined;
    while (Date.now() < until) {
      session = [...farm.sessions.values()].find((s) => !before.has(s.arn) && s.appiumSessions.length > 0);
      if (session) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(session, 'a session was opened').toBeDefined();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(session!.status).toBe('RUNNING');
    await app.close();
    expect(['STOPPING', 'COMPLETED']).toContain(session!.status);
    expect(farm.of('StopRemoteAccessSession').map((c) => c.body.arn)).toContain(session!.arn);
    // The app is rebuilt for the next test.
    app = await buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_ALLOW_PRIVATE_TARGETS: true } });
    await app.engine.startWorkers(1);
  }, 120_000);

  it('a wrong secret is refused by the API: the attempt ends with a clear error and is not retried', async () => {
    const other = await createTestClient(app);
    const set = await setProvider(other.clientId, { kind: 'devicefarm', apiUrl: farm.apiUrl, username: 'AKIAWRONGKEYID000001', accessKey: 'not-the-secret', projectArn: account.projectArn });
    expect(set.statusCode, set.body).toBe(200);
    expect((await importSuite(app, other.clientId, { 'suite.json': manifest({ Mobile: [{ name: 'app signs in', kind: 'mobile-ui', options: { specs: 'm.spec.ts', platform: 'android' } }] }), 'm.spec.ts': "it('x', () => {});\n" })).statusCode).toBe(201);
    await upload(other, '1.0.0');
    const creates = farm.of('CreateUpload').length;
    const run = (await runAndWait(app, other, 'all', 60_000)) as { tests: TestResult[] };
    expect(run.tests[0]).toMatchObject({
      status: 'error',
      error: 'AWS Device Farm refused the access key ID and secret access key (UnrecognizedClientException) when the build’s upload was created: an operator must check the client’s device provider',
    });
    expect(farm.of('CreateUpload')).toHaveLength(creates);
  }, 90_000);

  it('opens at most one session per device of a test, one at a time, whatever a runner asks', async () => {
    const appArn = [...farm.uploads.values()][0]!.arn;
    const attempt = new DeviceFarmAttempt(deviceFarmClient({ ...account, apiUrl: farm.apiUrl }, true), { ...account, apiUrl: farm.apiUrl }, appArn, 'android', new AbortController().signal, () => {});
    const creates = farm.of('CreateRemoteAccessSession').length;
    // A test of two devices.
    const ask = (index: number) => attempt.open({ index, label: `device ${index}`, capabilities: FAKE_CAPABILITIES, deadline: Date.now() + 30_000 }, 2);
    await ask(0);
    // A second device while the first still has its session; the first device again; a device past the limit.
    await expect(ask(1)).rejects.toThrow('another device of this attempt still has its session: one at a time');
    await attempt.close(0);
    await expect(ask(0)).rejects.toThrow(/device 0 cannot have a session/);
    await expect(ask(2)).rejects.toThrow(/device 2 cannot have a session: this test lists 2 devices/);
    await expect(ask(MAX_DEVICES_PER_TEST)).rejects.toThrow(/cannot have a session/);
    await ask(1);
    await attempt.stopAll();
    expect(farm.of('CreateRemoteAccessSession')).toHaveLength(creates + 2);
    expect(farm.of('StopRemoteAccessSession').length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  // Issue 37: the bound is the test's own devices, not the most a test may list: a runner of a one-device test that
  // asks for a second device would bill a second session.
  it('gives a runner of a one-device test no session for a second device: refused, and nothing created at Device Farm', async () => {
    const c = await createTestClient(app);
    expect((await setProvider(c.clientId, { kind: 'devicefarm', apiUrl: farm.apiUrl, username: account.accessKeyId, accessKey: account.secretAccessKey, projectArn: account.projectArn })).statusCode).toBe(200);
    await upload(c, '7.1.0');
    const runDir = await mkdtemp(path.join(os.tmpdir(), 'fullstop-farm-attempt-'));
    const attemptKey = randomUUID();
    try {
      // What the server gives a runner for an attempt of the test (its ctx.openDevice), as a run's attempt gets it.
      const test = { name: 'app signs in', group: 'Mobile', kind: 'mobile-ui' as const, options: { platform: 'android', capabilities: FAKE_CAPABILITIES, specs: 'mobile/sign-in.spec.ts' } };
      const run = await sandboxRun(app.engine.deps, c.clientId, test, { attemptKey, timeSeconds: 60, buildsDir: path.join(runDir, 'builds'), ctx: { runDir, signal: new AbortController().signal, log: () => {} } });
      const { openDevice, closeDevice } = run.ctx;
      expect(openDevice && closeDevice).toBeTruthy();
      const creates = farm.of('CreateRemoteAccessSession').length;
      const ask = (index: number) => openDevice!({ index, label: `device ${index}`, capabilities: FAKE_CAPABILITIES, deadline: Date.now() + 30_000 });
      await expect(ask(1)).rejects.toThrow(/device 1 cannot have a session: this test lists 1 device/);
      await expect(ask(MAX_DEVICES_PER_TEST - 1)).rejects.toThrow(/cannot have a session/);
      expect(farm.of('CreateRemoteAccessSession')).toHaveLength(creates);
      // Its one device gets its session.
      expect((await ask(0)).url).toMatch(/^http/);
      await closeDevice!(0);
      await expect(ask(1)).rejects.toThrow(/cannot have a session/);
      expect(farm.of('CreateRemoteAccessSession')).toHaveLength(creates + 1);
      // The count is the test's validated options': its devices, one when it lists none, none when they are invalid.
      expect(devicesOfTest({ options: { ...test.options, devices: [{ capabilities: {} }, { name: 'b' }] } })).toBe(2);
      expect(devicesOfTest({ options: { ...test.options, devices: [] } })).toBe(0);
    } finally {
      await endMobileAttempt(attemptKey);
      await rm(runDir, { recursive: true, force: true });
    }
  }, 60_000);
});
