import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stuckManifest, writeAxml } from '../../../../packages/engine/test/fixtures/axml-writer.ts';
import { writeBplist } from '../../../../packages/engine/test/fixtures/bplist-writer.ts';
import { deflated, rawZip, stored, zeroBomb } from '../../../../packages/engine/test/fixtures/raw-zip.ts';
import { uploadedAppFile } from '../../src/features/uploads/storage.ts';
import { bearer, buildTestApp, login, type TestClient } from '../helpers/app.ts';
import { makeZip, multipart } from '../helpers/zip.ts';
import { clientWithSuite, OPERATOR_TOKEN } from './helpers.ts';

const MIB = 1024 ** 2;

/** A release-like APK with planted weaknesses: debuggable, cleartext traffic, a dangerous permission. */
const plantedApk = () =>
  makeZip({
    'AndroidManifest.xml': writeAxml({
      name: 'manifest',
      attributes: { package: 'com.example.uploaded', versionCode: 3, versionName: '3.0.0' },
      children: [
        { name: 'uses-sdk', attributes: { minSdkVersion: 26, targetSdkVersion: 34 } },
        { name: 'uses-permission', attributes: { name: 'android.permission.CAMERA' } },
        { name: 'application', attributes: { label: 'Uploaded', debuggable: true, allowBackup: false, usesCleartextTraffic: true } },
      ],
    }),
    'classes.dex': 'dex\n035\0',
    'res/layout/main.xml': 'x',
  });

/** An IPA whose binary Info.plist (as Xcode writes it) turns App Transport Security off. */
const plantedIpa = () =>
  makeZip({
    'Payload/Uploaded.app/Info.plist': writeBplist({
      CFBundleIdentifier: 'com.example.uploaded',
      CFBundleShortVersionString: '3.0.0',
      MinimumOSVersion: '16.0',
      NSAppTransportSecurity: { NSAllowsArbitraryLoads: true },
    }),
    'Payload/Uploaded.app/Uploaded': 'binary',
  });

/**
 * Mobile static analysis end to end: a real build goes through the real upload route, a suite with the real
 * mobile-static runner runs it on a worker, and the findings come back in the report. Hostile builds are
 * refused at the upload (sizes) or end their run as an error in words (content).
 */
describe('mobile builds, from upload to report', () => {
  let app: FastifyInstance;
  let c: TestClient;
  let auth: Record<string, string>;
  const key = () => ({ 'x-api-key': c.apiKey });
  const upload = async (platform: 'android' | 'ios', fileName: string, content: Buffer) => {
    const body = multipart(fileName, content);
    return app.inject({ method: 'POST', url: `/upload/${platform}/${c.clientId}`, headers: { ...auth, ...body.headers }, payload: body.payload });
  };
  const runAndWait = async (testName: string) => {
    const res = await app.inject({ url: `/test/run/${encodeURIComponent(testName)}?wait=true`, headers: key() });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { status: string; tests: { testName: string; status: string; error: string | null }[] };
  };
  const reportJson = async (testName: string) => {
    const res = await app.inject({ url: `/report/fetch/${encodeURIComponent(testName)}/json`, headers: key() });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, unknown>;
  };
  const findingRows = (report: Record<string, unknown>) => {
    const text = JSON.stringify(report);
    return ['mobile:debuggable', 'mobile:cleartext-traffic', 'mobile:dangerous-permission', 'mobile:ats-arbitrary-loads', 'mobile:allow-backup'].filter((id) => text.includes(`"${id}"`));
  };

  beforeAll(async () => {
    app = await buildTestApp({
      env: { OPERATOR_TOKEN, UPLOAD_MAX_ENTRIES: 50, UPLOAD_MAX_INFLATED_BYTES: 8 * MIB, UPLOAD_MAX_MANIFEST_BYTES: 1 * MIB },
    });
    await app.engine.startWorkers(1);
    c = await clientWithSuite(app, {
      Mobile: [
        { name: 'android static', kind: 'mobile-static', options: { platform: 'android' } },
        { name: 'ios static', kind: 'mobile-static', options: { platform: 'ios' } },
      ],
    });
    auth = bearer((await login(app, c.email, c.password)).accessToken);
  });
  afterAll(async () => app?.close());

  it('analyses an APK uploaded through the route, and the report shows its findings', async () => {
    const res = await upload('android', 'release.apk', await plantedApk());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().filePath).toBe('android/release.apk');
    const result = await runAndWait('android static');
    expect(result.tests[0]).toMatchObject({ testName: 'android static', status: 'failed', error: null });
    const report = await reportJson('android static');
    expect(findingRows(report)).toEqual(['mobile:debuggable', 'mobile:cleartext-traffic', 'mobile:dangerous-permission']);
    expect(JSON.stringify(report)).toContain('android://com.example.uploaded');
    // The report names the app, never where the server keeps it.
    expect(JSON.stringify(report)).not.toContain(app.paths.dataDir);
  });

  it('analyses an IPA (binary Info.plist) uploaded through the route', async () => {
    expect((await upload('ios', 'Uploaded.ipa', await plantedIpa())).statusCode).toBe(200);
    const result = await runAndWait('ios static');
    expect(result.tests[0]).toMatchObject({ status: 'failed', error: null });
    const report = await reportJson('ios static');
    expect(findingRows(report)).toEqual(['mobile:ats-arbitrary-loads']);
    expect(JSON.stringify(report)).toContain('ios://com.example.uploaded');
  });

  it('refuses inflation bombs and absurd entry counts with 413, keeping the previous build', async () => {
    const before = await readFile(uploadedAppFile(app.paths, c.clientId, 'android'));
    const cases: [string, 'android' | 'ios', Buffer, RegExp][] = [
      // Declared honestly: 16 MiB of zeros in 16 KiB, over the 8 MiB total.
      ['declared', 'android', rawZip([stored('AndroidManifest.xml', Buffer.from('x')), stored('classes.dex', Buffer.from('dex')), { name: 'assets/zeros', data: zeroBomb(16), method: 8, declaredSize: 16 * MIB }]), /^The APK's entries would inflate to more than 8 MiB, the limit/],
      // The manifest declares 100 bytes and inflates to 64 MiB: stopped at 1 MiB while inflating.
      ['lying manifest', 'android', rawZip([{ name: 'AndroidManifest.xml', data: zeroBomb(64), method: 8, declaredSize: 100 }, stored('classes.dex', Buffer.from('dex'))]), /^AndroidManifest.xml in the APK inflates past 1 MiB/],
      ['lying plist', 'ios', rawZip([{ name: 'Payload/X.app/Info.plist', data: zeroBomb(64), method: 8, declaredSize: 100 }]), /^Payload\/X\.app\/Info\.plist in the IPA inflates past 1 MiB/],
      ['lying profile', 'ios', rawZip([stored('Payload/X.app/Info.plist', Buffer.from('<plist/>')), { name: 'Payload/X.app/embedded.mobileprovision', data: zeroBomb(64), method: 8, declaredSize: 100 }]), /^Payload\/X\.app\/embedded\.mobileprovision in the IPA inflates past 1 MiB/],
      ['entries', 'android', rawZip([stored('AndroidManifest.xml', Buffer.from('x')), stored('classes.dex', Buffer.from('dex')), ...Array.from({ length: 60 }, (_, i) => stored(`res/${i}`, Buffer.from('r')))]), /^The APK has 62 entries, more than the limit of 50$/],
      ['claimed entries', 'ios', rawZip([stored('Payload/X.app/Info.plist', Buffer.from('<plist/>'))], { claimEntries: 65_535 }), /^The IPA has 65535 entries, more than the limit of 50$/],
    ];
    for (const [what, platform, zip, message] of cases) {
      const started = performance.now();
      const res = await upload(platform, `${what}.zip`, zip);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(413);
      expect(res.json().message, what).toMatch(message);
      expect(performance.now() - started, what).toBeLessThan(3000);
    }
    expect(await readFile(uploadedAppFile(app.paths, c.clientId, 'android'))).toEqual(before);
    const profile = (await app.inject({ url: `/clientProfile/${c.clientId}`, headers: auth })).json();
    expect(profile).toMatchObject({ androidAppPath: 'android/release.apk', iosAppPath: 'ios/Uploaded.ipa' });
  });

  it('refuses a broken archive or a manifest that cannot inflate with 415, naming the problem', async () => {
    const broken = rawZip([{ name: 'AndroidManifest.xml', data: Buffer.from([0xff, 0xff, 0xff]), method: 8, declaredSize: 10 }, stored('classes.dex', Buffer.from('dex'))]);
    const res = await upload('android', 'broken.apk', broken);
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toMatch(/^The file is not an APK .*: AndroidManifest.xml in the APK cannot be inflated: /);
    const twoApps = await upload('ios', 'two.ipa', rawZip([deflated('Payload/A.app/Info.plist', Buffer.from('<plist/>')), deflated('Payload/B.app/Info.plist', Buffer.from('<plist/>'))]));
    expect(twoApps.statusCode).toBe(415);
    expect(twoApps.json().message).toMatch(/it holds 2 app bundles/);
  });

  it('ends the run on a 16-byte manifest that claims a zero-size chunk as an error in words, quickly', async () => {
    const apk = rawZip([deflated('AndroidManifest.xml', stuckManifest()), stored('classes.dex', Buffer.from('dex'))]);
    expect((await upload('android', 'stuck.apk', apk)).statusCode).toBe(200);
    const started = performance.now();
    const result = await runAndWait('android static');
    // A frozen parser would run into the kind's time limit (180 s) and end with a time-limit error; the message
    // below proves the parser refused the chunk. Half the limit leaves room for a loaded machine.
    expect(performance.now() - started).toBeLessThan(90_000);
    expect(result.status).toBe('error');
    expect(result.tests[0]?.error).toMatch(/^the app's AndroidManifest.xml is malformed: the chunk at byte 8 \(type 0x0000\) claims a size of 0/);
    // The server still answers.
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });
});
