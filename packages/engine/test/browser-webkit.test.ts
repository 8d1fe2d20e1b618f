import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWebKitSession, startWebKitHost, webkitPaths, webkitScreenshot, xauthorityEntry } from '../src/lib/webkit.ts';
import { createTargetGuard } from '../src/policy/target-guard.ts';
import { startPolicyProxy } from '../src/policy/policy-proxy.ts';
import { browserRunner } from '../src/runners/browser/index.ts';
import { report } from '../src/runners/browser/report.ts';
import { ATTEMPT_TAG_VAR, attemptProcesses, attemptTag, emptyWarmPool, processTable, resolveRunnerUser, runInSandbox } from '../src/sandbox/index.ts';
import { netJailSupport } from '../src/sandbox/net-jail.ts';

const jail = netJailSupport(null);
import { startHardenedServer } from './fixtures/hardened-server.ts';
import { serverForSuite } from './fixtures/suite-server.ts';
import { LATE_LIST_MS, SLOW_PHOTO_MS, startWebKitSite } from './fixtures/webkit-site.ts';
import { browserOptionsProblem, localTarget, makeContext, parseBrowserOptions, testOf } from './helpers.ts';
import { DEFAULT_CHROMIUM_PATH } from '../src/lib/chromium.ts';

/**
 * WebKit in browser tests (decision 0079): Debian's WebKitWebDriver and WebKitGTK's MiniBrowser under Xvfb, running
 * a test's page checks; Chromium and Firefox run the same page checks through Playwright, and the spec files.
 */
const parse = parseBrowserOptions;
const reason = browserOptionsProblem;

type Summary = { kind: string; cases: { name: string; status: string; cell?: string; error?: string; screenshot?: string; steps?: { title: string; error?: string }[] }[] };
const casesOf = (summary: unknown) => (summary as Summary).cases;

describe('WebKit in a suite', () => {
  it('refuses WebKit without page checks, and spec files that no engine of the test runs, saying why', () => {
    expect(reason({ engines: ['webkit'] })).toBe(
      "options.pages: WebKit runs page checks only (page loads, console errors after load, broken links, key elements, a screenshot, axe), not spec files: Playwright cannot drive WebKitGTK. List the pages its cells check, e.g. pages: [{ path: '/' }]",
    );
    expect(reason({ engines: ['chromium', 'webkit'] })).toMatch(/^options\.pages: WebKit runs page checks only/);
    expect(reason({ engines: ['webkit'], pages: [{ path: '/' }], specs: 'home.spec.ts' })).toBe(
      'options.specs: no engine of this test runs spec files: WebKit runs page checks only; add chromium or firefox to engines, or drop specs',
    );
    expect(reason({ engines: ['webkit'], pages: [{ path: '/', expect: ['h1'] }] })).toBeNull();
    expect(reason({ engines: ['safari'] })).toBe('options.engines.0: unknown engine "safari": the engines are chromium, firefox, webkit');
    expect(reason({ pages: [{ path: '/', expect: [] }] })).toMatch(/^options\.pages\.0\.expect:/);
    expect(parse({ engines: ['webkit'], pages: [{ path: '/' }] }).pageChecks).toEqual({ consoleErrors: true, links: true, axe: 'serious', axeTags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'], settleMs: 1000 });
  });
});

/**
 * The first byte of an X server's answer to a connection setup over its Unix socket (0 Failed, 1 Success,
 * 2 Authenticate), sent with the MIT-MAGIC-COOKIE-1 `cookie` or with no authorization at all.
 */
function x11Setup(display: string, cookie?: Buffer): Promise<number> {
  const pad = (b: Buffer) => Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)]);
  const name = cookie ? Buffer.from('MIT-MAGIC-COOKIE-1') : Buffer.alloc(0);
  const data = cookie ?? Buffer.alloc(0);
  const head = Buffer.alloc(12);
  head.write('l', 0, 'latin1'); // little-endian
  head.writeUInt16LE(11, 2);
  head.writeUInt16LE(0, 4);
  head.writeUInt16LE(name.length, 6);
  head.writeUInt16LE(data.length, 8);
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(`/tmp/.X11-unix/X${display.replace(/^:/, '')}`);
    socket.once('connect', () => socket.write(Buffer.concat([head, pad(name), pad(data)])));
    socket.once('data', (chunk) => {
      resolve(chunk[0]!);
      socket.destroy();
    });
    socket.once('error', reject);
    socket.once('close', () => reject(new Error('the X server closed the connection without an answer')));
  });
}

describe('WebKit’s X display (issue 37)', () => {
  it('writes an Xauthority entry in its binary format: FamilyWild, no address, no display number, the cookie', () => {
    const cookie = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
    const entry = xauthorityEntry(cookie);
    const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
    expect(entry).toEqual(Buffer.concat([u16(0xffff), u16(0), u16(0), u16(18), Buffer.from('MIT-MAGIC-COOKIE-1'), u16(16), cookie]));
    // xauth (when installed: it is only recommended by Debian's xvfb) reads it as the same entry.
    if (spawnSync('xauth', ['-V']).error === undefined) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-xauth-'));
      try {
        writeFileSync(path.join(dir, 'auth'), entry);
        const listed = execFileSync('xauth', ['-f', path.join(dir, 'auth'), 'list'], { encoding: 'utf8' });
        expect(listed.trim().split(/\s+/)).toEqual(['#ffff##:', 'MIT-MAGIC-COOKIE-1', cookie.toString('hex')]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('refuses a local client without the display’s cookie, while WebKit (which has it) loads and paints a page', async () => {
    const site = await startWebKitSite();
    const home = mkdtempSync(path.join(os.tmpdir(), 'fullstop-webkit-home-'));
    const proxy = await startPolicyProxy(createTargetGuard(localTarget(site.url)));
    const signal = new AbortController().signal;
    const host = await startWebKitHost(webkitPaths({}), { home, signal });
    try {
      const session = await openWebKitSession(host, { viewport: { width: 800, height: 600 }, proxyUrl: proxy.url, pageLoadTimeoutMs: 30_000, scriptTimeoutMs: 30_000 }, signal);
      try {
        await session.navigate(`${site.url}/`);
        // Any other process of the machine (another attempt's included) that connects to the display is refused,
        // with no cookie or with a wrong one: it can neither screenshot this browser nor type into it.
        expect(await x11Setup(host.display)).toBe(0);
        expect(await x11Setup(host.display, randomBytes(16))).toBe(0);
        // The display's own cookie, in a file only the run can read, is what WebKit connected with.
        expect(statSync(host.xauthority).mode & 0o777).toBe(0o600);
        const entry = readFileSync(host.xauthority);
        expect(await x11Setup(host.display, entry.subarray(entry.length - 16))).toBe(1);
        // And the page still loads and paints.
        expect(await session.execute<string>('return document.querySelector("h1").textContent;')).toBe('Tea shop');
        const shot = PNG.sync.read(await webkitScreenshot(session));
        expect(shot.width).toBe(800);
      } finally {
        await session.close();
      }
    } finally {
      await host.close();
      await proxy.close();
      await site.close();
      rmSync(home, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('browser tests on WebKit', () => {
  const site = serverForSuite(() => startWebKitSite());

  it('runs the same page checks on Chromium, Firefox and WebKit: only WebKit fails the planner, every engine the broken link and the missing button', async () => {
    // A spec file too: it runs on Chromium and Firefox only.
    const suiteDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-webkit-suite-'));
    writeFileSync(
      path.join(suiteDir, 'home.spec.ts'),
      "import { expect, test } from '@playwright/test';\ntest('home shows the shop', async ({ page }) => {\n  await page.goto('/');\n  await expect(page.locator('h1')).toHaveText('Tea shop');\n});\n",
    );
    const ctx = await makeContext({ workers: 1 });
    try {
      const options = {
        engines: ['chromium', 'firefox', 'webkit'],
        specs: 'home.spec.ts',
        pages: [{ path: '/', expect: ['h1', '#nav'] }, { path: '/planner', expect: ['#slots'] }, { path: '/sale' }, { path: '/product', expect: ['h1', '#buy'] }],
      };
      const result = await browserRunner.run(testOf('browser', options, { suiteDir }), localTarget(site.url), ctx);
      expect(result.error, ctx.logs.join('\n')).toBeUndefined();
      const cases = casesOf(result.summary);
      const status = Object.fromEntries(cases.map((c) => [c.name, c.status]));
      const expected: Record<string, string> = {};
      for (const engine of ['chromium', 'firefox', 'webkit']) {
        const cell = `${engine}/desktop`;
        if (engine !== 'webkit') expected[`home.spec.ts › home shows the shop [${cell}]`] = 'passed';
        expected[`page check › / [${cell}]`] = 'passed';
        expected[`page check › /planner [${cell}]`] = engine === 'webkit' ? 'failed' : 'passed';
        expected[`page check › /sale [${cell}]`] = 'failed';
        expected[`page check › /product [${cell}]`] = 'failed';
      }
      expect(status).toEqual(expected);
      expect(result.totals).toEqual({ totalTests: 14, passedTests: 7, failedTests: 7, skippedTests: 0 });
      const byName = Object.fromEntries(cases.map((c) => [c.name, c]));
      // Each failure says what is wrong, the same on every engine.
      expect(byName['page check › /planner [webkit/desktop]']!.error).toBe('key element missing: #slots');
      for (const engine of ['chromium', 'firefox', 'webkit']) {
        expect(byName[`page check › /sale [${engine}/desktop]`]!.error).toBe(`1 broken: ${site.url}/sale/old-teapot answered 404`);
        expect(byName[`page check › /product [${engine}/desktop]`]!.error).toBe('key element missing: #buy');
        // A screenshot per page and cell, a real PNG.
        const shot = byName[`page check › / [${engine}/desktop]`]!.screenshot!;
        expect(readFileSync(path.join(ctx.runDir, shot)).subarray(1, 4).toString()).toBe('PNG');
      }
      expect(byName['page check › / [webkit/desktop]']!.steps?.map((s) => s.title)).toEqual(['load /', 'no console errors after load', 'key elements h1, #nav', 'links and images (4)', 'axe (wcag2a, wcag2aa, wcag21a, wcag21aa)']);
      // The report: the matrix, "fails on WebKit only", and what each engine ran.
      const html = report.body({ ...result, testName: 'Shop', group: 'G', kind: 'browser' } as never, result.summary as never, {});
      expect(html).toContain('Engines and devices (3 cells)');
      expect(html).toContain('fails on WebKit only');
      expect(html).toContain('Chromium: spec files and page checks');
      expect(html).toContain('WebKit: page checks only (page loads, console errors after load, broken links, key elements, a screenshot, axe): Playwright cannot drive WebKitGTK, so no spec files');
    } finally {
      rmSync(suiteDir, { recursive: true, force: true });
    }
  }, 300_000);

  it('finds a planted axe violation and a console error after load on WebKit, and leaves no process behind', async () => {
    // A tag of this live process's (as a supervisor's): another server's orphan sweep on the machine spares it.
    const tag = attemptTag(`webkit-test-${Date.now()}`);
    const before = process.env[ATTEMPT_TAG_VAR];
    process.env[ATTEMPT_TAG_VAR] = tag;
    try {
      const ctx = await makeContext();
      const result = await browserRunner.run(testOf('browser', { engines: ['webkit'], pages: [{ path: '/gallery' }, { path: '/late-error' }] }), localTarget(site.url), ctx);
      expect(result.error, ctx.logs.join('\n')).toBeUndefined();
      const byName = Object.fromEntries(casesOf(result.summary).map((c) => [c.name, c]));
      expect(byName['page check › /gallery [webkit/desktop]']).toMatchObject({ status: 'failed', error: expect.stringContaining('axe: image-alt (critical, 1 element') });
      expect(byName['page check › /late-error [webkit/desktop]']).toMatchObject({ status: 'failed', error: expect.stringMatching(/^1 console error after load: .*the basket failed to refresh/) });
      // Xvfb, the driver, MiniBrowser and WebKit's processes all ended with the attempt.
      expect(attemptProcesses(processTable(), tag).map((p) => p.pid)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env[ATTEMPT_TAG_VAR];
      else process.env[ATTEMPT_TAG_VAR] = before;
    }
  }, 180_000);

  it('applies the phone’s window size and user agent on WebKit, and the offline network', async () => {
    const ctx = await makeContext();
    // The page shows its phone layout to a window of exactly the Pixel 7's width whose user agent says Android.
    const options = { engines: ['webkit'], devices: ['desktop', 'phone'], networks: ['none', 'offline'], pages: [{ path: '/phone', expect: ['#mobile[data-width="412"]'] }] };
    const result = await browserRunner.run(testOf('browser', options), localTarget(site.url), ctx);
    expect(result.error, ctx.logs.join('\n')).toBeUndefined();
    const cases = casesOf(result.summary);
    expect(Object.fromEntries(cases.map((c) => [c.cell, c.status]))).toEqual({
      'webkit/desktop/none': 'failed',
      'webkit/desktop/offline': 'failed',
      'webkit/phone/none': 'passed',
      'webkit/phone/offline': 'failed',
    });
    expect(cases.find((c) => c.cell === 'webkit/desktop/none')!.error).toBe('key element missing: #mobile[data-width="412"]');
    expect(cases.find((c) => c.cell === 'webkit/phone/offline')!.error).toMatch(/^did not load/);
    // The phone cell's screenshot is the painted page at the phone's width: not the black window WebKit shows
    // before its first frame.
    const shot = PNG.sync.read(readFileSync(path.join(ctx.runDir, 'browser/pages/webkit_phone_none/1-phone.png')));
    expect(shot.width).toBe(412);
    const dark = (i: number) => shot.data[i] === 0 && shot.data[i + 1] === 0 && shot.data[i + 2] === 0;
    let black = 0;
    for (let i = 0; i < shot.data.length; i += 4) if (dark(i)) black++;
    expect(black / (shot.width * shot.height)).toBeLessThan(0.5);
  }, 180_000);

  it("counts a late element's time from the page's own load on WebKit as on Chromium: a list past the settle fails on both", async () => {
    // WebKitWebDriver answers its navigate once the photo the page asks for at its load is in (SLOW_PHOTO_MS after
    // it); Playwright's goto at the load event. The list renders LATE_LIST_MS after the load: past the 4 s settle and
    // the page's readiness on both engines, measured from the load, and before a settle counted from the driver's answer.
    const ctx = await makeContext();
    const options = { engines: ['chromium', 'webkit'], pages: [{ path: '/stock', expect: ['#stock'] }], pageChecks: { links: false, axe: 'off', settleMs: 4_000 } };
    const result = await browserRunner.run(testOf('browser', options), localTarget(site.url), ctx);
    expect(result.error, ctx.logs.join('\n')).toBeUndefined();
    expect(SLOW_PHOTO_MS + 4_000).toBeGreaterThan(LATE_LIST_MS);
    expect(casesOf(result.summary).map((c) => [c.cell, c.status, c.error])).toEqual([
      ['chromium/desktop', 'failed', 'key element missing: #stock'],
      ['webkit/desktop', 'failed', 'key element missing: #stock'],
    ]);
  }, 60_000);

  it(`drives WebKit through the policy proxy${jail.ok ? ', from a network namespace of its own' : ''}: another origin on the same loopback is refused and never sees a request`, async () => {
    const other = await startHardenedServer();
    const tracked = await startWebKitSite({ otherOrigin: other.url });
    try {
      const ctx = await makeContext();
      // The network namespaces of WebKit's processes (the driver, MiniBrowser, its web and network processes) working
      // in this run's folder, sampled while the test runs.
      const seen = new Set<string>();
      const sampler = setInterval(() => {
        for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
          try {
            if (!readlinkSync(`/proc/${pid}/cwd`).startsWith(ctx.runDir) || !/WebKit|MiniBrowser/.test(readFileSync(`/proc/${pid}/cmdline`, 'latin1'))) continue;
            // The jail's `unshare`, caught (on a busy machine) before it has moved itself into the new namespace.
            if (readFileSync(`/proc/${pid}/comm`, 'latin1').trim() === 'unshare') continue;
            seen.add(readlinkSync(`/proc/${pid}/ns/net`));
          } catch {
            // Gone meanwhile, or not ours to read.
          }
        }
      }, 100);
      const result = await browserRunner
        .run(testOf('browser', { engines: ['webkit'], pages: [{ path: '/tracking', expect: ['h1'] }] }), localTarget(tracked.url), ctx)
        .finally(() => clearInterval(sampler));
      expect(result.error, ctx.logs.join('\n')).toBeUndefined();
      expect(seen.size).toBeGreaterThan(0);
      const own = readlinkSync('/proc/self/ns/net');
      if (jail.ok) expect([...seen].filter((ns) => ns === own)).toEqual([]);
      else expect([...seen]).toEqual([own]);
      expect(casesOf(result.summary).map((c) => [c.name, c.status, c.error])).toEqual([['page check › /tracking [webkit/desktop]', 'passed', undefined]]);
      // WebKit asked the proxy for the image and the fetch; the proxy answered 403 and the other server saw nothing.
      expect(ctx.logs.join('\n')).toContain(`page check requests refused by the target policy {"urls":["${other.url}/`);
      expect(other.requests).toBe(0);
    } finally {
      await tracked.close();
      await other.close();
    }
  }, 120_000);

  it('ends a WebKit test on a machine without WebKit as engine_missing, saying how to install it', async () => {
    const webkitDriverPath = '/nonexistent/WebKitWebDriver';
    const result = await browserRunner.run(testOf('browser', { engines: ['webkit'], pages: [{ path: '/' }] }), localTarget(site.url), await makeContext({ webkitDriverPath }));
    expect(result).toMatchObject({
      status: 'error',
      errorCode: 'engine_missing',
      error: `The browser test needs WebKit, which is not installed at ${webkitDriverPath}. Install it with: apt-get install -y webkit2gtk-driver xvfb`,
    });
    const xvfbPath = '/nonexistent/Xvfb';
    const noX = await browserRunner.run(testOf('browser', { engines: ['webkit'], pages: [{ path: '/' }] }), localTarget(site.url), await makeContext({ xvfbPath }));
    expect(noX).toMatchObject({ errorCode: 'engine_missing', error: expect.stringContaining(`not installed at ${xvfbPath}`) });
    // A test on Chromium alone does not need it.
    const chromiumOnly = await browserRunner.run(testOf('browser', { pages: [{ path: '/' }] }), localTarget(site.url), await makeContext({ webkitDriverPath }));
    expect(chromiumOnly.status).toBe('passed');
    expect(casesOf(chromiumOnly.summary).map((c) => c.name)).toEqual(['page check › /']);
  }, 120_000);
});

/**
 * As the runner user (decision 0077), which has no home and cannot write the server's: switching users needs
 * root, as the server runs in the shipped deployments and in CI; elsewhere the user can be neither created nor
 * switched to, so this is skipped.
 */
const isRoot = process.geteuid?.() === 0;
describe.skipIf(!isRoot)('WebKit as the runner user (root only: switching users needs it)', () => {
  const RUNNER = 'fullstop-runner';
  let dataDir: string;
  beforeAll(() => {
    try {
      execFileSync('id', ['-u', RUNNER], { stdio: 'ignore' });
    } catch {
      execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', RUNNER]);
    }
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-data-'));
    chmodSync(dataDir, 0o700);
  });
  afterAll(() => {
    emptyWarmPool();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("runs WebKit's page checks as the runner user through the policy proxy, and removes WebKit's home after", async () => {
    const user = resolveRunnerUser(RUNNER);
    const other = await startHardenedServer();
    const site = await startWebKitSite({ otherOrigin: other.url });
    try {
      const runDir = path.join(dataDir, 'run');
      mkdirSync(runDir, { mode: 0o700 });
      const logs: string[] = [];
      const result = await runInSandbox({
        test: { name: 'webkit', group: 'G', kind: 'browser', options: { engines: ['webkit'], pages: [{ path: '/', expect: ['h1'] }, { path: '/tracking' }] } },
        target: { baseUrl: site.url, allowedOrigins: [], allowPrivateAddresses: true },
        ctx: { runDir, chromiumPath: DEFAULT_CHROMIUM_PATH, workers: 1, signal: new AbortController().signal, log: (m) => logs.push(m), runAs: user },
        limits: { timeSeconds: 120, memoryMb: 2048 },
        attemptKey: `runner-user-webkit-${process.pid}`,
      });
      expect(result.error, logs.join('\n')).toBeUndefined();
      expect(casesOf(result.summary).map((c) => [c.name, c.status, c.error])).toEqual([
        ['page check › / [webkit/desktop]', 'passed', undefined],
        ['page check › /tracking [webkit/desktop]', 'passed', undefined],
      ]);
      expect(other.requests).toBe(0);
      // Its screenshots were the runner user's, handed back to this process's user with the folder when the attempt
      // ended (owner only); WebKit's home (caches, databases) is gone with the attempt.
      const shot = statSync(path.join(runDir, result.artifacts.find((a) => a.kind === 'screenshot')!.path));
      expect([shot.uid, shot.mode & 0o077]).toEqual([process.geteuid!(), 0]);
      expect(existsSync(path.join(runDir, 'browser/home'))).toBe(false);
    } finally {
      await site.close();
      await other.close();
    }
  }, 180_000);
});
