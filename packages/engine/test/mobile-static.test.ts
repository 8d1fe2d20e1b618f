import { describe, expect, it } from 'vitest';
import { mobileStaticRunner } from '../src/runners/mobile-static/index.ts';
import type { Finding } from '../src/types.ts';
import { writeHardenedApk, writePlantedApk, writePlantedIpa } from './fixtures/mobile-apps.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

const rows = (findings: Finding[]) => findings.map((f) => [f.ruleId, f.risk, f.param ?? ''].join(' '));

describe('mobile-static runner', () => {
  it('finds every planted weakness of an APK and an IPA', async () => {
    const ctx = await makeContext();
    const target = localTarget('http://127.0.0.1:9', { androidApp: await writePlantedApk(ctx.runDir), iosApp: await writePlantedIpa(ctx.runDir) });
    const result = await mobileStaticRunner.run(testOf('mobile-static', {}), target, ctx);
    expect(result.error).toBeUndefined();
    if (result.summary.kind !== 'mobile-static') throw new Error('wrong summary');
    expect(rows(result.summary.findings)).toEqual([
      'mobile:debuggable High ',
      'mobile:allow-backup Medium ',
      'mobile:cleartext-traffic Medium ',
      'mobile:dangerous-permission Low android.permission.CAMERA',
      'mobile:dangerous-permission Low android.permission.READ_SMS',
      'mobile:min-sdk Medium ',
      'mobile:target-sdk Low ',
      'mobile:ats-arbitrary-loads High ',
      'mobile:ats-exception-domain Medium legacy.example.com',
      'mobile:ios-min-version Low ',
    ]);
    // Each finding says what the weakness is, what in the app shows it, and how to fix it.
    for (const f of result.summary.findings) {
      expect(f.description?.length).toBeGreaterThan(40);
      expect(f.evidence?.length).toBeGreaterThan(0);
      expect(f.solution?.length).toBeGreaterThan(10);
    }
    expect(result.summary.findings.find((f) => f.param === 'android.permission.CAMERA')?.evidence).toBe('<uses-permission android:name="android.permission.CAMERA"/>');
    expect(result.summary.findings[0]?.url).toBe('android://com.example.planted');
    expect(result.summary.findings.at(-1)?.url).toBe('ios://com.example.planted');
    expect(result.summary.app).toMatchObject({ android: { package: 'com.example.planted', versionName: '1.2.3', usesSdk: { minSdkVersion: 21 } } });
    expect(result.status).toBe('failed');
  });

  it('passes a hardened APK', async () => {
    const ctx = await makeContext();
    const target = localTarget('http://127.0.0.1:9', { androidApp: await writeHardenedApk(ctx.runDir) });
    const result = await mobileStaticRunner.run(testOf('mobile-static', { platform: 'android' }), target, ctx);
    expect(result.summary).toMatchObject({ findings: [] });
    expect(result.status).toBe('passed');
  });

  it('says so when nothing was uploaded', async () => {
    const result = await mobileStaticRunner.run(testOf('mobile-static', { platform: 'ios' }), localTarget('http://127.0.0.1:9'), await makeContext());
    expect(result).toMatchObject({ status: 'error', errorCode: 'no_app', error: 'no ios build has been uploaded' });
  });
});
