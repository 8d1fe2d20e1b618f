import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEngines, engineProblemLine, missingEngine, versionIn } from '../src/lib/engines.ts';
import { runners } from '../src/runners/index.ts';
import { isRetried } from '../src/runners/kinds.ts';
import type { TestKind } from '../src/types.ts';
import { html, startFixtureServer, type FixtureServer } from './fixtures/fixture-server.ts';
import { CHROMIUM_PATH, localTarget, makeContext, testOf } from './helpers.ts';

const WAPITI_PATH = '/usr/bin/wapiti';

describe('engine readiness', () => {
  let dir: string;
  let site: FixtureServer;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fullstop-engines-'));
    site = await startFixtureServer({}, (_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(html('Shop', '<h1>Shop</h1>'));
    });
  });
  afterAll(async () => {
    await site.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('finds Chromium and wapiti on this machine with their versions, and every package: ready', async () => {
    const readiness = await checkEngines({ chromiumPath: CHROMIUM_PATH, wapitiPath: WAPITI_PATH });
    expect(readiness.status).toBe('ready');
    const byName = Object.fromEntries(readiness.engines.map((e) => [e.engine, e]));
    expect(Object.keys(byName).sort()).toEqual(['appium', 'axe', 'chromium', 'firefox', 'lighthouse', 'playwright', 'wapiti', 'webdriverio', 'webkit']);
    // Appium is a dev dependency (CI, a device lab's host): optional, with its version when installed.
    expect(byName.appium).toMatchObject({ ok: true, optional: true, title: 'Appium', kinds: ['mobile-ui'], version: expect.stringMatching(/^3\./) });
    expect(byName.webdriverio).toMatchObject({ ok: true, kinds: ['mobile-ui'] });
    expect(byName.chromium).toMatchObject({ ok: true, location: CHROMIUM_PATH, problem: null, setting: 'CHROMIUM_PATH', kinds: ['browser', 'accessibility', 'lighthouse', 'visual', 'payment'] });
    expect(byName.chromium!.version).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(byName.wapiti).toMatchObject({ ok: true, problem: null, kinds: ['security-scan'], install: 'apt-get install wapiti' });
    expect(byName.wapiti!.version).toMatch(/^3\.\d+\.\d+$/);
    expect(byName.lighthouse!.version).toMatch(/^\d+\.\d+\.\d+$/);
    // Debian's Firefox ESR, for browser tests that ask for it (decision 0078).
    expect(byName.firefox).toMatchObject({ ok: true, title: 'Firefox', location: '/usr/bin/firefox-esr', problem: null, setting: null, optional: true, kinds: ['browser', 'accessibility', 'visual', 'payment'] });
    expect(byName.firefox!.version).toMatch(/^\d{3}\.\d+/);
    // Debian's WebKitWebDriver (with MiniBrowser and Xvfb), for browser tests that ask for WebKit (decision 0079).
    expect(byName.webkit).toMatchObject({ ok: true, title: 'WebKit', location: '/usr/bin/WebKitWebDriver', problem: null, optional: true, kinds: expect.arrayContaining(['browser']) });
    expect(byName.webkit!.version).toMatch(/^2\.\d+\.\d+$/);
  });

  it('stays ready without WebKit or its X server, and says how to install them', async () => {
    const xvfbPath = path.join(dir, 'no-Xvfb');
    const readiness = await checkEngines({ chromiumPath: CHROMIUM_PATH, wapitiPath: WAPITI_PATH, xvfbPath });
    expect(readiness.status).toBe('ready');
    const webkit = readiness.engines.find((e) => e.engine === 'webkit')!;
    expect(webkit).toMatchObject({ ok: false, optional: true, problem: `not installed at ${xvfbPath}`, install: 'apt-get install -y webkit2gtk-driver xvfb' });
    expect(engineProblemLine(webkit)).toBe(`WebKit is not installed at ${xvfbPath}: browser tests with engines: ['webkit'] cannot run. Install it with: apt-get install -y webkit2gtk-driver xvfb`);
    expect(missingEngine('browser', { engines: ['webkit'], pages: [{ path: '/' }] }, { xvfbPath })?.message).toContain('apt-get install -y webkit2gtk-driver xvfb');
    expect(missingEngine('browser', {}, { xvfbPath })).toBeNull();
  });

  it('stays ready without Firefox, which only the tests that ask for it need, and says how to install it', async () => {
    const firefoxPath = path.join(dir, 'no-firefox');
    const readiness = await checkEngines({ chromiumPath: CHROMIUM_PATH, wapitiPath: WAPITI_PATH, firefoxPath });
    expect(readiness.status).toBe('ready');
    const firefox = readiness.engines.find((e) => e.engine === 'firefox')!;
    expect(firefox).toMatchObject({ ok: false, optional: true, problem: `not installed at ${firefoxPath}`, install: 'apt-get install -y firefox-esr' });
    expect(engineProblemLine(firefox)).toBe(`Firefox is not installed at ${firefoxPath}: browser, accessibility and visual tests with engines: ['firefox'] cannot run. Install it with: apt-get install -y firefox-esr`);
    expect(missingEngine('browser', { engines: ['firefox'] }, { firefoxPath })?.message).toContain('apt-get install -y firefox-esr');
    expect(missingEngine('browser', {}, { firefoxPath })).toBeNull();
  });

  it('says degraded and why for a program that is missing, not executable, failing or hanging', async () => {
    const notExecutable = path.join(dir, 'not-executable');
    await writeFile(notExecutable, '#!/bin/sh\necho 1.0\n');
    const failing = path.join(dir, 'failing');
    await writeFile(failing, '#!/bin/sh\necho broken >&2\nexit 3\n');
    await chmod(failing, 0o755);
    const hanging = path.join(dir, 'hanging');
    await writeFile(hanging, '#!/bin/sh\nexec sleep 30\n');
    await chmod(hanging, 0o755);

    const missing = path.join(dir, 'no-wapiti');
    const one = await checkEngines({ chromiumPath: CHROMIUM_PATH, wapitiPath: missing });
    expect(one.status).toBe('degraded');
    const wapiti = one.engines.find((e) => e.engine === 'wapiti')!;
    expect(wapiti).toMatchObject({ ok: false, version: null, problem: `not installed at ${missing}` });
    expect(one.engines.filter((e) => !e.ok).map((e) => e.engine)).toEqual(['wapiti']);
    expect(engineProblemLine(wapiti)).toBe(
      `wapiti is not installed at ${missing}: security scans cannot run. Install it with: apt-get install wapiti (or set WAPITI_PATH to where it is)`,
    );

    expect((await checkEngines({ chromiumPath: notExecutable, wapitiPath: WAPITI_PATH })).engines[0]).toMatchObject({ ok: false, problem: `not executable at ${notExecutable}` });
    expect((await checkEngines({ chromiumPath: failing, wapitiPath: WAPITI_PATH })).engines[0]).toMatchObject({ ok: false, problem: `broken: ${failing} --version failed (exit code 3)` });
    const started = performance.now();
    const hung = await checkEngines({ chromiumPath: hanging, wapitiPath: WAPITI_PATH }, { timeoutMs: 500 });
    expect(hung.engines[0]).toMatchObject({ ok: false, problem: `broken: ${hanging} did not answer --version within 1 s` });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('reads the version out of what the programs print', () => {
    expect(versionIn('Chromium 156.0.8078.79 built on Debian GNU/Linux 12 (bookworm)\n')).toBe('156.0.8078.79');
    expect(versionIn(' banner\nWapiti-3.0.4 (wapiti.sourceforge.io)\n[*] You are lucky!\nWapiti 3.0.4\n')).toBe('3.0.4');
    expect(versionIn('no number here')).toBeNull();
  });

  it('needs wapiti only for an active security scan', () => {
    const paths = { chromiumPath: CHROMIUM_PATH, wapitiPath: path.join(dir, 'absent') };
    expect(missingEngine('security-scan', {}, paths)?.code).toBe('engine_missing');
    expect(missingEngine('security-scan', { active: false }, paths)).toBeNull();
    expect(missingEngine('load', {}, { chromiumPath: path.join(dir, 'absent') })).toBeNull();
  });

  it('ends an active security scan without wapiti as an error saying what to install, not retried, before it touches the site', async () => {
    const wapitiPath = path.join(dir, 'wapiti-is-not-here');
    site.resetCounters();
    const result = await runners['security-scan'].run(testOf('security-scan', {}), localTarget(site.url), await makeContext({ wapitiPath }));
    expect(result).toMatchObject({
      status: 'error',
      errorCode: 'engine_missing',
      error: `The security scan needs wapiti, which is not installed at ${wapitiPath}. Install it with: apt-get install wapiti`,
      summary: { kind: 'security-scan', findings: [] },
    });
    expect(site.requests).toBe(0);
    expect(isRetried('security-scan', result.errorCode)).toBe(false);

    // The passive checks alone run without it.
    const passive = await runners['security-scan'].run(testOf('security-scan', { active: false }), localTarget(site.url), await makeContext({ wapitiPath }));
    expect(passive.error).toBeUndefined();
    expect(passive.status).not.toBe('error');
  });

  it('says a program whose interpreter is missing is broken, and ends the scan that starts it saying so, not retried', async () => {
    const wapitiPath = path.join(dir, 'wapiti-without-python');
    await writeFile(wapitiPath, '#!/nonexistent/python3\nprint(1)\n');
    await chmod(wapitiPath, 0o755);
    const readiness = await checkEngines({ chromiumPath: CHROMIUM_PATH, wapitiPath });
    expect(readiness.engines.find((e) => e.engine === 'wapiti')).toMatchObject({
      ok: false,
      problem: `broken: ${wapitiPath} cannot be started (the program it runs with is missing)`,
    });

    const result = await runners['security-scan'].run(testOf('security-scan', { maxPages: 1 }), localTarget(site.url), await makeContext({ wapitiPath }));
    expect(result).toMatchObject({
      status: 'error',
      errorCode: 'engine_missing',
      error: `The security scan needs wapiti, which could not be started at ${wapitiPath}. Install it with: apt-get install wapiti`,
    });
    expect(isRetried('security-scan', result.errorCode)).toBe(false);
  });

  it.each([
    ['browser', 'browser test', {}],
    ['accessibility', 'accessibility test', { pages: ['/'] }],
    ['lighthouse', 'Lighthouse test', { pages: ['/'] }],
  ] as [TestKind, string, Record<string, unknown>][])('ends a %s test without Chromium as an error saying what to install', async (kind, title, options) => {
    const chromiumPath = path.join(dir, 'chromium-is-not-here');
    site.resetCounters();
    const result = await runners[kind].run(testOf(kind, options, { suiteDir: dir }), localTarget(site.url), await makeContext({ chromiumPath }));
    expect(result.error).toBe(`The ${title} needs Chromium, which is not installed at ${chromiumPath}. Install it with: apt-get install chromium-headless-shell (or chromium)`);
    expect(result).toMatchObject({ status: 'error', errorCode: 'engine_missing' });
    expect(isRetried(kind, result.errorCode)).toBe(false);
    expect(site.requests).toBe(0);
  });
});
