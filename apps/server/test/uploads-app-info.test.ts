import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAxml } from '../../../packages/engine/test/fixtures/axml-writer.ts';
import { writeBplist } from '../../../packages/engine/test/fixtures/bplist-writer.ts';
import { bearer, buildTestApp, createTestClient, login, type TestClient } from './helpers/app.ts';
import { fakeApk, makeZip, multipart } from './helpers/zip.ts';

const acmeApk = () =>
  makeZip({
    'AndroidManifest.xml': writeAxml({
      name: 'manifest',
      attributes: { package: 'com.acme.shop', versionCode: 241, versionName: '2.4.1' },
      children: [
        { name: 'uses-sdk', attributes: { minSdkVersion: 26, targetSdkVersion: 34 } },
        { name: 'application', attributes: { label: 'Acme Shop', allowBackup: false } },
      ],
    }),
    'classes.dex': 'dex\n035\0',
  });

/** Xcode's binary Info.plist, with the display name a home screen shows and a build number. */
const acmeIpa = (plist: Record<string, string>) =>
  makeZip({ 'Payload/Acme.app/Info.plist': writeBplist(plist), 'Payload/Acme.app/Acme': 'binary' });

/** Ours (not in the spec): the Setup page shows the app a build holds, read from the build when it is uploaded. */
describe('the app an uploaded build holds', () => {
  let app: FastifyInstance;
  let ours: TestClient;
  let theirs: TestClient;
  let auth: Record<string, string>;
  const upload = (platform: 'android' | 'ios', fileName: string, content: Buffer) => {
    const body = multipart(fileName, content);
    return app.inject({ method: 'POST', url: `/upload/${platform}/${ours.clientId}`, headers: { ...auth, ...body.headers }, payload: body.payload });
  };
  const profile = async (id: string, headers: Record<string, string>) => app.inject({ url: `/clientProfile/${id}`, headers });

  beforeAll(async () => {
    app = await buildTestApp();
    ours = await createTestClient(app);
    theirs = await createTestClient(app);
    auth = bearer((await login(app, ours.email, ours.password)).accessToken);
  });
  afterAll(async () => app?.close());

  it("shows an APK's label, version name and code, and package, in the upload's answer and the profile", async () => {
    const res = await upload('android', 'app-release.apk', await acmeApk());
    expect(res.statusCode, res.body).toBe(200);
    const acme = { name: 'Acme Shop', version: '2.4.1 (241)', packageId: 'com.acme.shop' };
    expect(res.json()).toMatchObject({ fileName: 'app-release.apk', app: acme });
    expect((await profile(ours.clientId, auth)).json()).toMatchObject({ androidAppPath: 'android/app-release.apk', androidApp: acme });
  });

  it("shows an IPA's display name, short version and build, and bundle id", async () => {
    const res = await upload('ios', 'Acme.ipa', await acmeIpa({
      CFBundleName: 'Acme',
      CFBundleDisplayName: 'Acme Shop',
      CFBundleShortVersionString: '2.4.1',
      CFBundleVersion: '241',
      CFBundleIdentifier: 'com.acme.shop',
    }));
    expect(res.statusCode, res.body).toBe(200);
    const acme = { name: 'Acme Shop', version: '2.4.1 (241)', packageId: 'com.acme.shop' };
    expect(res.json().app).toEqual(acme);
    expect((await profile(ours.clientId, auth)).json().iosApp).toEqual(acme);
  });

  it('accepts a build that does not say its name or version, with those fields empty', async () => {
    const noName = await upload('ios', 'Bare.ipa', await acmeIpa({ CFBundleIdentifier: 'com.acme.bare' }));
    expect(noName.statusCode, noName.body).toBe(200);
    expect(noName.json().app).toEqual({ name: null, version: null, packageId: 'com.acme.bare' });
    // A manifest that is not binary XML at all: the archive check passes it, the analysis reports on it.
    const unreadable = await upload('android', 'odd.apk', await fakeApk('odd'));
    expect(unreadable.statusCode, unreadable.body).toBe(200);
    const nothing = { name: null, version: null, packageId: null };
    expect(unreadable.json().app).toEqual(nothing);
    const p = (await profile(ours.clientId, auth)).json();
    expect(p).toMatchObject({ androidAppPath: 'android/odd.apk', androidApp: nothing, iosApp: { name: null, packageId: 'com.acme.bare' } });
    // An Info.plist far larger than real ones is not parsed on the API's thread; the build is still taken.
    const huge = `<?xml version="1.0"?><plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.acme.huge</string><key>Pad</key><string>${'x'.repeat(70_000)}</string></dict></plist>`;
    const big = await upload('ios', 'Huge.ipa', await makeZip({ 'Payload/Huge.app/Info.plist': huge, 'Payload/Huge.app/Huge': 'binary' }));
    expect(big.statusCode, big.body).toBe(200);
    expect(big.json().app).toEqual(nothing);
  });

  it("never shows one client's app to another", async () => {
    await upload('android', 'app-release.apk', await acmeApk());
    const theirAuth = bearer((await login(app, theirs.email, theirs.password)).accessToken);
    const own = (await profile(theirs.clientId, theirAuth)).json();
    expect(own).toMatchObject({ androidAppPath: null, androidApp: null, iosApp: null });
    const ourProfile = await profile(ours.clientId, theirAuth);
    expect([403, 404]).toContain(ourProfile.statusCode);
    expect(ourProfile.body).not.toContain('Acme');
    const viaKey = await profile(ours.clientId, { 'x-api-key': theirs.apiKey });
    expect([403, 404]).toContain(viaKey.statusCode);
    expect(viaKey.body).not.toContain('Acme');
  });
});
