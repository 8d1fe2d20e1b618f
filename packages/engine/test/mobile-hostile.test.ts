import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { AppFileError } from '../src/runners/mobile-static/app-file-error.ts';
import { checkBinaryPlist } from '../src/runners/mobile-static/binary-plist-check.ts';
import { checkBinaryXml } from '../src/runners/mobile-static/binary-xml-check.ts';
import { mobileStaticRunner } from '../src/runners/mobile-static/index.ts';
import { parseManifest } from '../src/runners/mobile-static/read-apk.ts';
import { parseInfoPlist } from '../src/runners/mobile-static/read-ipa.ts';
import { ANALYSIS_ARCHIVE_LIMITS, readArchive, type ArchiveLimits } from '../src/runners/mobile-static/zip-archive.ts';
import { stuckManifest, writeAxml } from './fixtures/axml-writer.ts';
import { bplistFromTable, writeBplist } from './fixtures/bplist-writer.ts';
import { deflated, rawZip, stored, zeroBomb } from './fixtures/raw-zip.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

const MIB = 1024 ** 2;
const LIMITS: ArchiveLimits = { maxEntries: 100, maxInflatedBytes: 64 * MIB, maxEntryBytes: 1 * MIB };
const manifestOnly = { label: 'APK', read: (n: string) => n === 'AndroidManifest.xml' };
const goodManifest = () => writeAxml({ name: 'manifest', attributes: { package: 'com.example.ok' }, children: [{ name: 'application', attributes: { debuggable: true } }] });

async function zipFile(dir: string, name: string, bytes: Buffer): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
}

async function refusal(promise: Promise<unknown>): Promise<AppFileError> {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppFileError);
  return err as AppFileError;
}

describe('bounded zip reading', () => {
  it('reads the entries asked for and notes the others', async () => {
    const { runDir } = await makeContext();
    const file = await zipFile(runDir, 'ok.apk', rawZip([deflated('AndroidManifest.xml', goodManifest()), stored('classes.dex', Buffer.from('dex'))]));
    const got = await readArchive(file, LIMITS, { ...manifestOnly, note: (n) => n === 'classes.dex' });
    expect(got.entryCount).toBe(2);
    expect(got.files.get('AndroidManifest.xml')).toEqual(goodManifest());
    expect([...got.noted]).toEqual(['classes.dex']);
  });

  it('refuses an entry whose declared size is over the cap before inflating it', async () => {
    const { runDir } = await makeContext();
    const bomb = { name: 'AndroidManifest.xml', data: zeroBomb(32), method: 8 as const, declaredSize: 32 * MIB };
    const err = await refusal(readArchive(await zipFile(runDir, 'honest-bomb.apk', rawZip([bomb])), LIMITS, manifestOnly));
    expect(err.code).toBe('app_too_large');
    expect(err.message).toBe('AndroidManifest.xml in the APK inflates past 1 MiB, the limit for a file the analysis reads');
  });

  it('stops inflating at the cap when the declared size lies', async () => {
    const { runDir } = await makeContext();
    // 1 MiB on disk, 1 GiB inflated, 100 bytes declared.
    const bomb = { name: 'AndroidManifest.xml', data: zeroBomb(1024), method: 8 as const, declaredSize: 100 };
    const file = await zipFile(runDir, 'lying-bomb.apk', rawZip([bomb]));
    const started = performance.now();
    const rssBefore = process.memoryUsage().rss;
    const err = await refusal(readArchive(file, LIMITS, manifestOnly));
    expect(err.code).toBe('app_too_large');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * MIB);
  });

  it('refuses archives whose declared sizes add up past the total cap, without inflating anything', async () => {
    const { runDir } = await makeContext();
    const big = (name: string) => ({ name, data: zeroBomb(1), method: 8 as const, declaredSize: 40 * MIB });
    const err = await refusal(readArchive(await zipFile(runDir, 'sum.apk', rawZip([big('a.bin'), big('b.bin')])), LIMITS, manifestOnly));
    expect(err.code).toBe('app_too_large');
    expect(err.message).toMatch(/^the APK's entries would inflate to more than 64 MiB, the limit \(at least 80 MiB declared\)$/);
  });

  it('refuses an absurd entry count, real or claimed by the end record', async () => {
    const { runDir } = await makeContext();
    const many = Array.from({ length: 150 }, (_, i) => stored(`res/${i}`, Buffer.from('x')));
    const real = await refusal(readArchive(await zipFile(runDir, 'many.apk', rawZip(many)), LIMITS, manifestOnly));
    expect(real.message).toBe('the APK has 150 entries, more than the limit of 100');
    const claimed = await refusal(readArchive(await zipFile(runDir, 'claims.apk', rawZip(many.slice(0, 2), { claimEntries: 65_535 })), LIMITS, manifestOnly));
    expect(claimed).toMatchObject({ code: 'app_too_large', message: 'the APK has 65535 entries, more than the limit of 100' });
  });

  it('refuses a manifest given twice, a file that is not a zip, and says when the file is gone', async () => {
    const { runDir } = await makeContext();
    const twice = rawZip([stored('AndroidManifest.xml', goodManifest()), stored('AndroidManifest.xml', Buffer.from('other'))]);
    expect((await refusal(readArchive(await zipFile(runDir, 'twice.apk', twice), LIMITS, manifestOnly))).message).toBe('the APK holds AndroidManifest.xml twice');
    const text = await refusal(readArchive(await zipFile(runDir, 'text.apk', Buffer.from('not a zip at all, just some words')), LIMITS, manifestOnly));
    expect(text).toMatchObject({ code: 'app_malformed', message: expect.stringMatching(/^the APK is not a readable zip archive: /) });
    expect((await refusal(readArchive(path.join(runDir, 'gone.apk'), LIMITS, manifestOnly))).code).toBe('app_missing');
  });

  it('stops walking when the run is cancelled', async () => {
    const { runDir } = await makeContext();
    const file = await zipFile(runDir, 'ok.apk', rawZip([stored('AndroidManifest.xml', goodManifest())]));
    const err = await readArchive(file, LIMITS, { ...manifestOnly, signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'aborted' });
  });

  it('refuses a deflate stream that is broken', async () => {
    const { runDir } = await makeContext();
    const broken = { name: 'AndroidManifest.xml', data: Buffer.from([0xff, 0xff, 0xff, 0xff]), method: 8 as const, declaredSize: 10 };
    const err = await refusal(readArchive(await zipFile(runDir, 'broken.apk', rawZip([broken])), LIMITS, manifestOnly));
    expect(err.message).toMatch(/^AndroidManifest.xml in the APK cannot be inflated: /);
  });
});

describe('binary XML check', () => {
  const malformed = (buf: Buffer) => {
    try {
      checkBinaryXml(buf);
    } catch (err) {
      expect(err).toBeInstanceOf(AppFileError);
      return (err as Error).message;
    }
    throw new Error('accepted');
  };

  it('accepts what the Android tools write, and the parser reads it', () => {
    expect(() => checkBinaryXml(goodManifest())).not.toThrow();
    expect(parseManifest(goodManifest())).toMatchObject({ package: 'com.example.ok', application: { debuggable: true } });
  });

  it('refuses the 16-byte manifest whose chunk claims a size of 0', () => {
    expect(malformed(stuckManifest())).toBe("the app's AndroidManifest.xml is malformed: the chunk at byte 8 (type 0x0000) claims a size of 0");
  });

  it('parses the 16-byte manifest to an error in another process within 10 s (a regression fails, never hangs the suite)', async () => {
    const readApk = fileURLToPath(new URL('../src/runners/mobile-static/read-apk.ts', import.meta.url));
    const script = `import { parseManifest } from ${JSON.stringify(readApk)};
      try { parseManifest(Buffer.from('${stuckManifest().toString('hex')}', 'hex')); console.log('parsed'); } catch (e) { console.log(e.message); }`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 10_000 });
    expect(stdout.trim()).toBe("the app's AndroidManifest.xml is malformed: the chunk at byte 8 (type 0x0000) claims a size of 0");
  });

  it('refuses chunks smaller than their header, past the end, or of unknown type, and short files', () => {
    const good = goodManifest();
    const smaller = Buffer.from(good);
    smaller.writeUInt32LE(4, 8 + 4);
    expect(malformed(smaller)).toMatch(/claims a size of 4, smaller than its 28-byte header/);
    const past = Buffer.from(good);
    past.writeUInt32LE(good.length * 2, 8 + 4);
    expect(malformed(past)).toMatch(/past the end of the file/);
    const unknown = Buffer.from(good);
    unknown.writeUInt16LE(0x0777, 8);
    expect(malformed(unknown)).toMatch(/type 0x0777\) is of a type binary XML does not have/);
    expect(malformed(Buffer.alloc(4))).toMatch(/4 bytes long, too short/);
    expect(malformed(Buffer.from([0x00, 0x01, 0x08, 0x00, 0x08, 0x00, 0x00, 0x00]))).toMatch(/does not start with a binary XML header/);
  });

  it('refuses a string pool whose strings overlap to claim more bytes than it holds', () => {
    // One 100-byte string, and 10,000 offsets all pointing at it: the parser would copy it 10,000 times.
    const count = 10_000;
    const data = Buffer.concat([Buffer.from([100, 100]), Buffer.alloc(100, 0x61), Buffer.from([0, 0])]);
    const pool = Buffer.alloc(28 + 4 * count + data.length);
    pool.writeUInt16LE(0x0001, 0);
    pool.writeUInt16LE(28, 2);
    pool.writeUInt32LE(pool.length, 4);
    pool.writeUInt32LE(count, 8);
    pool.writeUInt32LE(1 << 8, 16);
    pool.writeUInt32LE(28 + 4 * count, 20);
    data.copy(pool, 28 + 4 * count);
    const header = Buffer.alloc(8);
    header.writeUInt16LE(0x0003, 0);
    header.writeUInt16LE(8, 2);
    header.writeUInt32LE(8 + pool.length, 4);
    expect(malformed(Buffer.concat([header, pool]))).toMatch(/the strings of the pool at byte 8 claim more bytes than the pool holds/);
  });

  it('refuses an element that claims more attributes than its chunk holds', () => {
    const good = goodManifest();
    // The first start-element chunk follows the string pool.
    const poolSize = good.readUInt32LE(8 + 4);
    const element = 8 + poolSize;
    expect(good.readUInt16LE(element)).toBe(0x0102);
    const bad = Buffer.from(good);
    bad.writeUInt16LE(65_535, element + 28);
    expect(malformed(bad)).toMatch(/claims 65535 attributes/);
  });
});

describe('binary plist check', () => {
  it('accepts a plain binary Info.plist and the parser reads it', () => {
    const plist = writeBplist({ CFBundleIdentifier: 'com.example.bin', MinimumOSVersion: '16.0', NSAppTransportSecurity: { NSAllowsArbitraryLoads: true } });
    expect(() => checkBinaryPlist(plist)).not.toThrow();
    expect(parseInfoPlist(plist)).toMatchObject({ CFBundleIdentifier: 'com.example.bin', NSAppTransportSecurity: { NSAllowsArbitraryLoads: true } });
  });

  it('refuses a graph of shared references that would expand 2^60 times, fast', () => {
    const levels = 60;
    const table = [...Array.from({ length: levels }, (_, i) => ({ array: [i + 1, i + 1] })), true];
    const started = performance.now();
    expect(() => parseInfoPlist(bplistFromTable(table))).toThrow(/Info.plist is malformed: its objects refer to each other so often/);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('refuses a cycle and references out of range', () => {
    expect(() => checkBinaryPlist(bplistFromTable([{ array: [1] }, { array: [0] }]))).toThrow(/object 0 contains itself/);
    expect(() => checkBinaryPlist(bplistFromTable([{ array: [7] }]))).toThrow(/refers to object 7, past the 1 objects/);
  });
});

describe('mobile-static runner on hostile files', () => {
  it('ends a run on the 16-byte manifest as an error in words, at once', async () => {
    const ctx = await makeContext();
    const apk = await zipFile(ctx.runDir, 'stuck.apk', rawZip([deflated('AndroidManifest.xml', stuckManifest()), stored('classes.dex', Buffer.from('dex'))]));
    const started = performance.now();
    const result = await mobileStaticRunner.run(testOf('mobile-static', {}), localTarget('http://127.0.0.1:9', { androidApp: apk }), ctx);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(result).toMatchObject({
      status: 'error',
      errorCode: 'app_malformed',
      error: "the app's AndroidManifest.xml is malformed: the chunk at byte 8 (type 0x0000) claims a size of 0",
    });
  });

  it('ends a run on a lying inflation bomb as an error, having inflated no more than the cap', async () => {
    const ctx = await makeContext();
    const apk = await zipFile(ctx.runDir, 'bomb.apk', rawZip([{ name: 'AndroidManifest.xml', data: zeroBomb(1024), method: 8, declaredSize: 2000 }]));
    const result = await mobileStaticRunner.run(testOf('mobile-static', {}), localTarget('http://127.0.0.1:9', { androidApp: apk }), ctx);
    expect(result).toMatchObject({ status: 'error', errorCode: 'app_too_large', error: `AndroidManifest.xml in the APK inflates past ${ANALYSIS_ARCHIVE_LIMITS.maxEntryBytes / MIB} MiB, the limit for a file the analysis reads` });
  });

  it('reads a binary Info.plist and its provisioning profile', async () => {
    const ctx = await makeContext();
    const plist = writeBplist({ CFBundleIdentifier: 'com.example.bin', MinimumOSVersion: '17.0' });
    const provision = Buffer.from('\x30\x82junk<?xml version="1.0"?><plist version="1.0"><dict><key>Entitlements</key><dict><key>get-task-allow</key><true/></dict></dict></plist>\x00sig', 'latin1');
    const ipa = await zipFile(ctx.runDir, 'bin.ipa', rawZip([deflated('Payload/Bin.app/Info.plist', plist), stored('Payload/Bin.app/embedded.mobileprovision', provision)]));
    const result = await mobileStaticRunner.run(testOf('mobile-static', { platform: 'ios' }), localTarget('http://127.0.0.1:9', { iosApp: ipa }), ctx);
    if (result.summary.kind !== 'mobile-static') throw new Error(result.error);
    expect(result.summary.findings.map((f) => f.ruleId)).toEqual(['mobile:ios-debuggable']);
    expect(result.summary.findings[0]?.url).toBe('ios://com.example.bin');
  });

  it('says the build is gone when its file is missing', async () => {
    const ctx = await makeContext();
    const result = await mobileStaticRunner.run(testOf('mobile-static', {}), localTarget('http://127.0.0.1:9', { androidApp: path.join(ctx.runDir, 'gone.apk') }), ctx);
    expect(result).toMatchObject({ status: 'error', errorCode: 'app_missing', error: "the uploaded APK is not on the server's storage any more: upload it again" });
  });
});
