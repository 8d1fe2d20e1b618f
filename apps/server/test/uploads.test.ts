import { readFile, readdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadedAppFile } from '../src/features/uploads/storage.ts';
import { bearer, buildTestApp, createTestClient, login, type TestClient } from './helpers/app.ts';
import { fakeApk, fakeIpa, makeZip, multipart } from './helpers/zip.ts';

const LIMIT = 64 * 1024;

describe('uploads', () => {
  let app: FastifyInstance;
  let c: TestClient;
  let auth: Record<string, string>;
  const upload = (platform: string, body: { payload: Buffer; headers: Record<string, string> }, id = c.clientId) =>
    app.inject({ method: 'POST', url: `/upload/${platform}/${id}`, headers: { ...auth, ...body.headers }, payload: body.payload });
  const profile = async () => (await app.inject({ method: 'GET', url: `/clientProfile/${c.clientId}`, headers: auth })).json();

  beforeAll(async () => {
    app = await buildTestApp({ env: { UPLOAD_MAX_BYTES: LIMIT } });
    c = await createTestClient(app);
    auth = bearer((await login(app, c.email, c.password)).accessToken);
  });
  afterAll(async () => app?.close());

  it('accepts an APK and an IPA, answers message, filePath and uploadTime, and shows them in the profile', async () => {
    const res = await upload('android', multipart('my-app-release.apk', await fakeApk('first')));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('File uploaded successfully');
    expect(body.filePath).toBe('android/my-app-release.apk');
    expect(new Date(body.uploadTime).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(body.filePath).not.toContain(app.paths.dataDir);
    const ios = await upload('ios', multipart('../../etc/Demo.ipa', await fakeIpa()));
    expect(ios.statusCode).toBe(200);
    expect(ios.json().filePath).toBe('ios/Demo.ipa');
    const p = await profile();
    expect(p).toMatchObject({ androidAppPath: 'android/my-app-release.apk', androidAppUploaded: body.uploadTime, iosAppPath: 'ios/Demo.ipa' });
    expect(await readFile(uploadedAppFile(app.paths, c.clientId, 'android'))).toEqual(await fakeApk('first'));
    // Ours: the file's own name and size, for the Setup page.
    const size = (await fakeApk('first')).length;
    expect(body).toMatchObject({ fileName: 'my-app-release.apk', sizeBytes: size });
    expect(p).toMatchObject({ androidAppSize: size, iosAppSize: (await fakeIpa()).length });
  });

  it('refuses a file that is not really a build (415) and keeps the previous one', async () => {
    const before = await profile();
    const cases = [
      ['android', multipart('app.apk', Buffer.from('just some text, not a zip'))],
      ['android', multipart('app.apk', await makeZip({ 'AndroidManifest.xml': 'x' }))],
      ['android', multipart('app.apk', await fakeIpa())],
      ['ios', multipart('app.ipa', await fakeApk())],
      ['ios', multipart('app.ipa', await makeZip({ 'Payload/Info.plist': 'x' }))],
    ] as const;
    for (const [platform, body] of cases) {
      const res = await upload(platform, body);
      expect(res.statusCode).toBe(415);
      expect(res.json().message).toMatch(platform === 'android' ? /not an APK/ : /not an IPA/);
    }
    expect(await profile()).toEqual(before);
    expect(await readFile(uploadedAppFile(app.paths, c.clientId, 'android'))).toEqual(await fakeApk('first'));
  });

  it('refuses a file over the size limit (413) and keeps the previous one', async () => {
    const big = await makeZip({ 'AndroidManifest.xml': 'x', 'classes.dex': Buffer.alloc(LIMIT + 1000, 1) });
    const res = await upload('android', multipart('big.apk', big));
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/too large.*64 KiB/);
    expect(await readFile(uploadedAppFile(app.paths, c.clientId, 'android'))).toEqual(await fakeApk('first'));
    const leftovers = (await readdir(`${app.paths.uploads}/${c.clientId}`)).filter((n) => n.startsWith('.incoming'));
    expect(leftovers).toEqual([]);
  });

  it('refuses a missing file, the wrong field, an empty file and a non-multipart body with 4xx', async () => {
    const noFile = await app.inject({
      method: 'POST',
      url: `/upload/android/${c.clientId}`,
      headers: { ...auth, 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: '--xyz\r\nContent-Disposition: form-data; name="other"\r\n\r\nvalue\r\n--xyz--\r\n',
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().field).toBe('file');
    expect((await upload('android', multipart('a.apk', await fakeApk(), 'upload'))).statusCode).toBe(400);
    expect((await upload('android', multipart('a.apk', Buffer.alloc(0)))).statusCode).toBe(400);
    const json = await app.inject({ method: 'POST', url: `/upload/android/${c.clientId}`, headers: auth, payload: { file: 'x' } });
    expect(json.statusCode).toBe(415);
    const none = await app.inject({ method: 'POST', url: `/upload/android/${c.clientId}`, headers: auth });
    expect(none.statusCode).toBe(415);
    const platform = await upload('windows', multipart('a.exe', await fakeApk()));
    expect(platform.statusCode).toBe(400);
    expect(platform.json().field).toBe('platform');
  });

  it('replaces the build atomically on success', async () => {
    const res = await upload('android', multipart('second.apk', await fakeApk('second')));
    expect(res.statusCode).toBe(200);
    expect(await readFile(uploadedAppFile(app.paths, c.clientId, 'android'))).toEqual(await fakeApk('second'));
    expect((await profile()).androidAppPath).toBe('android/second.apk');
  });

  it('keeps the previous build when the connection drops mid-upload', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const body = multipart('cut.apk', await makeZip({ 'AndroidManifest.xml': 'x', 'classes.dex': Buffer.alloc(40_000, 2) }));
    await new Promise<void>((resolve) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/upload/android/${c.clientId}`,
        headers: { ...auth, ...body.headers, 'content-length': String(body.payload.length) },
      });
      req.on('error', () => resolve());
      req.on('response', () => resolve());
      req.write(body.payload.subarray(0, 20_000), () => setTimeout(() => { req.destroy(); resolve(); }, 100));
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(await readFile(uploadedAppFile(app.paths, c.clientId, 'android'))).toEqual(await fakeApk('second'));
    expect((await profile()).androidAppPath).toBe('android/second.apk');
    const leftovers = (await readdir(`${app.paths.uploads}/${c.clientId}`)).filter((n) => n.startsWith('.incoming'));
    expect(leftovers).toEqual([]);
  });
});
