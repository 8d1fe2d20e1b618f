import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppiumServer, FAKE_CAPABILITIES, FAKE_SUITE, startAppium } from '../../../../packages/engine/test/fixtures/appium-server.ts';
import { writeAxml } from '../../../../packages/engine/test/fixtures/axml-writer.ts';
import { bearer, buildTestApp, createTestClient, login, type TestClient } from '../helpers/app.ts';
import { makeZip, multipart } from '../helpers/zip.ts';
import { startCloud } from './fake-clouds.ts';
import { importSuite, key, manifest, OPERATOR_TOKEN, operator, runAndWait } from './helpers.ts';

const apk = (version: string) =>
  makeZip({
    'AndroidManifest.xml': writeAxml({ name: 'manifest', attributes: { package: 'com.acme.shop', versionCode: 7, versionName: version }, children: [{ name: 'application', attributes: { label: 'Acme Shop' } }] }),
    'classes.dex': 'dex\n035\0',
  });

/**
 * Mobile UI tests on BrowserStack App Automate and Sauce Labs (issue 28): the real server uploads the client's build
 * to the provider's app storage through its REST API, once per build, and the session opens the stored app.
 */
describe('mobile UI tests on a cloud device provider', () => {
  let app: FastifyInstance;
  let appium: AppiumServer;
  const clouds: { close(): Promise<void> }[] = [];

  const setProvider = (clientId: string, body: Record<string, unknown>) => app.inject({ method: 'PUT', url: `/operator/clients/${clientId}/mobile-devices`, headers: operator, payload: body });
  const upload = async (client: TestClient, version: string) => {
    const body = multipart('shop.apk', await apk(version));
    const res = await app.inject({ method: 'POST', url: `/upload/android/${client.clientId}`, headers: { ...bearer((await login(app, client.email, client.password)).accessToken), ...body.headers }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(200);
  };
  const clientWithSuite = async () => {
    const client = await createTestClient(app);
    const files = {
      'suite.json': manifest({ Mobile: [{ name: 'app signs in', kind: 'mobile-ui', options: { specs: 'mobile/sign-in.spec.ts', platform: 'android', capabilities: FAKE_CAPABILITIES, stepTimeoutSeconds: 10, waitforTimeoutSeconds: 1 } }] }),
      'mobile/sign-in.spec.ts': await readFile(path.join(FAKE_SUITE, 'specs/sign-in.spec.ts'), 'utf8'),
    };
    const imported = await importSuite(app, client.clientId, files);
    expect(imported.statusCode, imported.body).toBe(201);
    return client;
  };
  const runOnce = async (client: TestClient) => {
    const run = (await runAndWait(app, client, 'all', 90_000)) as { tests: { status: string; error: string | null; attempts?: number }[] };
    return run.tests[0]!;
  };

  type Device = { label: string; sessionId?: string | null; providerLinks?: { label: string; url: string }[]; providerNote?: string };
  /** The test's report as JSON (its summary's devices) and as HTML. */
  const reportOf = async (client: TestClient) => {
    const jsonReport = await app.inject({ url: `/report/fetch/${encodeURIComponent('app signs in')}/json`, headers: key(client) });
    expect(jsonReport.statusCode, jsonReport.body).toBe(200);
    const html = await app.inject({ url: `/report/fetch/${encodeURIComponent('app signs in')}/html`, headers: key(client) });
    expect(html.statusCode).toBe(200);
    return { devices: (jsonReport.json().summary as { devices: Device[] }).devices, json: jsonReport.body, html: html.body };
  };
  const attr = (url: string) => url.replace(/&/g, '&amp;');

  beforeAll(async () => {
    appium = await startAppium();
    app = await buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_ALLOW_PRIVATE_TARGETS: true } });
    await app.engine.startWorkers(1);
  }, 90_000);
  afterAll(async () => {
    await app?.close();
    for (const c of clouds) await c.close();
    await appium?.close();
  });

  it('uploads the build to BrowserStack once, again only when it changed, and opens the session on its bs:// app', async () => {
    const account = { username: 'acme_qa', accessKey: 'bs-access-key-0123456789-9c1d' };
    const cloud = await startCloud('browserstack', account, { appium });
    clouds.push(cloud);
    const client = await clientWithSuite();

    // A cloud needs its user name and key.
    const noUser = await setProvider(client.clientId, { kind: 'browserstack', url: cloud.url, apiUrl: cloud.apiUrl, accessKey: account.accessKey });
    expect(noUser.statusCode).toBe(400);
    expect(noUser.json()).toMatchObject({ field: 'username' });
    const set = await setProvider(client.clientId, { kind: 'browserstack', url: cloud.url, apiUrl: cloud.apiUrl, ...account });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.body).not.toContain(account.accessKey);
    expect(set.json().provider).toMatchObject({ kind: 'browserstack', url: cloud.url, apiUrl: cloud.apiUrl, region: null, username: 'acme_qa', accessKeyHint: '••••9c1d' });

    await upload(client, '7.1.0');
    expect(await runOnce(client)).toMatchObject({ status: 'passed', error: null });
    expect(cloud.uploads).toEqual([{ field: 'file', name: null, sha256: expect.any(String), appId: expect.stringMatching(/^bs:\/\//) }]);
    expect(cloud.sessionApps).toEqual([cloud.uploads[0]!.appId]);

    // The session's pages on BrowserStack, from its REST API by the Appium session's id, in the report's header.
    const first = await reportOf(client);
    const device = first.devices[0]!;
    expect(device.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(cloud.sessions.has(device.sessionId!)).toBe(true);
    expect(cloud.detailsAsked).toEqual([device.sessionId]);
    const id = device.sessionId!;
    expect(device.providerLinks).toEqual([
      { label: 'Session on BrowserStack', url: `https://app-automate.browserstack.com/dashboard/v2/public-build/x?redirect=true&session=${id}` },
      { label: 'Video', url: `https://app-automate.browserstack.com/sessions/${id}/video?token=abc&source=rest_api` },
      { label: 'Appium log', url: expect.stringMatching(new RegExp(`/sessions/${id}/appiumlogs$`)) },
      { label: 'Device log', url: expect.stringMatching(new RegExp(`/sessions/${id}/devicelogs$`)) },
    ]);
    expect(device.providerNote).toBeUndefined();
    for (const link of device.providerLinks!) expect(first.html).toContain(`<a href="${attr(link.url)}" rel="noreferrer noopener" target="_blank">${link.label}</a>`);
    expect(first.html).toContain(id);
    for (const text of [first.json, first.html]) expect(text).not.toContain(account.accessKey);

    // A provider that answers nothing useful: one line says so, and the test still passes.
    cloud.details.answer = 'not-found';
    expect(await runOnce(client)).toMatchObject({ status: 'passed', error: null });
    const bare = (await reportOf(client)).devices[0]!;
    expect(bare.providerLinks).toBeUndefined();
    expect(bare.providerNote).toBe("BrowserStack answered 404 when asked for the session's details: no video or log links");
    cloud.details.answer = 'documented';

    // The same build again: no second upload, the stored app is used.
    expect(await runOnce(client)).toMatchObject({ status: 'passed' });
    expect(cloud.uploads).toHaveLength(1);
    expect(cloud.sessionApps).toEqual([cloud.uploads[0]!.appId, cloud.uploads[0]!.appId, cloud.uploads[0]!.appId]);

    // A new build: uploaded, and its own app id opens.
    await upload(client, '7.2.0');
    expect(await runOnce(client)).toMatchObject({ status: 'passed' });
    expect(cloud.uploads).toHaveLength(2);
    expect(cloud.uploads[1]!.sha256).not.toBe(cloud.uploads[0]!.sha256);
    expect(cloud.sessionApps.at(-1)).toBe(cloud.uploads[1]!.appId);
  }, 240_000);

  it('uploads to Sauce Labs storage (payload and name) and opens storage:<id>; a wrong key ends the test with a clear error', async () => {
    const account = { username: 'acme-sauce', accessKey: 'sauce-access-key-5e7a' };
    const cloud = await startCloud('saucelabs', account, { appium });
    clouds.push(cloud);
    const client = await clientWithSuite();

    const set = await setProvider(client.clientId, { kind: 'saucelabs', url: cloud.url, apiUrl: cloud.apiUrl, ...account });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().provider).toMatchObject({ kind: 'saucelabs', apiUrl: cloud.apiUrl, username: 'acme-sauce' });
    // A region is Sauce Labs' only.
    const misplaced = await setProvider(client.clientId, { kind: 'browserstack', region: 'eu-central-1', url: cloud.url, apiUrl: cloud.apiUrl, ...account });
    expect(misplaced.statusCode).toBe(400);
    expect(misplaced.json()).toMatchObject({ field: 'region' });

    await upload(client, '8.0.0');
    expect(await runOnce(client)).toMatchObject({ status: 'passed', error: null });
    expect(cloud.uploads).toEqual([{ field: 'payload', name: expect.stringMatching(/\.apk$/), sha256: expect.any(String), appId: expect.stringMatching(/^storage:[0-9a-f-]{36}$/) }]);
    expect(cloud.sessionApps).toEqual([cloud.uploads[0]!.appId]);

    // The job's page on Sauce Labs (known from its id), its video and log from the REST API.
    const { devices, html, json } = await reportOf(client);
    const id = devices[0]!.sessionId!;
    expect(cloud.detailsAsked).toEqual([id]);
    expect(devices[0]!.providerLinks).toEqual([
      { label: 'Session on Sauce Labs', url: `https://app.saucelabs.com/tests/${id}` },
      { label: 'Video', url: `https://assets.saucelabs.com/jobs/${id}/video.mp4` },
      { label: 'Appium log', url: `https://assets.saucelabs.com/jobs/${id}/selenium-server.log` },
    ]);
    expect(html).toContain(`<a href="https://app.saucelabs.com/tests/${id}" rel="noreferrer noopener" target="_blank">Session on Sauce Labs</a>`);
    for (const text of [json, html]) expect(text).not.toContain(account.accessKey);

    // A wrong key on a new build: the provider's 401, our error, and no retry of what would only fail again.
    const wrong = await setProvider(client.clientId, { kind: 'saucelabs', url: cloud.url, apiUrl: cloud.apiUrl, username: account.username, accessKey: 'not-the-key' });
    expect(wrong.statusCode).toBe(200);
    await upload(client, '8.0.1');
    const failed = await runOnce(client);
    expect(failed).toMatchObject({
      status: 'error',
      error: 'Sauce Labs refused the user name and access key (401) when the build was uploaded: an operator must check the client’s device provider',
    });
    // One refused upload: the attempt was not retried.
    expect(cloud.refused).toEqual(['/v1/storage/upload']);
    expect(cloud.uploads).toHaveLength(1);
  }, 240_000);
});
