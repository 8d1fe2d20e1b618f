/**
 * `node --import tsx bench/engine/browser-engines.ts [rounds]`: what a browser test on Firefox or WebKit costs against
 * the same test on Chromium (decisions 0078, 0079), all Debian's: Chromium and Firefox through Playwright (Firefox
 * over WebDriver BiDi), WebKit (WebKitGTK's MiniBrowser under Xvfb) through WebKitWebDriver.
 *  1. Start-up: start the browser (WebKit: Xvfb, the driver, a session), load the local site's home, close.
 *  2. Attempt: the browser runner on a one-case suite (policy proxy, Playwright's test runner, its reports);
 *     Chromium and Firefox only: WebKit runs no spec file.
 *  3. Page-check attempt: the browser runner with one page check (`pages: [{ path: '/', expect: ['h1'] }]`: load,
 *     console errors, links, key element, screenshot, axe), on each engine.
 * "Chromium (full)" is the same Chromium as Debian's full browser (`/usr/bin/chromium --headless`) against the engine's
 * default, its headless shell where installed (lib/chromium.ts).
 * The engines take turns, so the machine's noise falls on all; medians and the ratio to Chromium.
 * CPU: this process and everything it starts (a cpuacct cgroup of its own where possible). Figures, never pass/fail.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { type BrowserType, chromium } from 'playwright-core';
import { browserRunner } from '../../packages/engine/src/runners/browser/index.ts';
import { CHROMIUM_FLAGS, DEFAULT_CHROMIUM_PATH, FULL_CHROMIUM_PATH } from '../../packages/engine/src/lib/chromium.ts';
import { DEFAULT_FIREFOX_PATH, FIREFOX_BIDI } from '../../packages/engine/src/lib/firefox.ts';
import { openWebKitSession, startWebKitHost, webkitPaths } from '../../packages/engine/src/lib/webkit.ts';
import { startPolicyProxy } from '../../packages/engine/src/policy/policy-proxy.ts';
import { createTargetGuard } from '../../packages/engine/src/policy/target-guard.ts';
import { startHardenedServer } from '../../packages/engine/test/fixtures/hardened-server.ts';
import { meterCpu } from './cpu.ts';

const ROUNDS = Number(process.argv[2] ?? 5);
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;
const FIREFOX_PATH = process.env.FIREFOX_PATH ?? DEFAULT_FIREFOX_PATH;
const SUITE = fileURLToPath(new URL('../../packages/engine/test/fixtures/browser-suite', import.meta.url));
const PAUSE_MS = 500;
const ENGINES = ['chromium', 'chromium-full', 'firefox', 'webkit'] as const;
type Engine = (typeof ENGINES)[number];
const TITLES: Record<Engine, string> = { chromium: 'Chromium', 'chromium-full': 'Chromium (full)', firefox: 'Firefox', webkit: 'WebKit' };
/** The engine a bench engine runs on, and its Chromium. */
const engineOf = (engine: Engine) => (engine === 'chromium-full' ? 'chromium' : engine);
const chromiumOf = (engine: Engine) => (engine === 'chromium-full' ? FULL_CHROMIUM_PATH : CHROMIUM_PATH);

// Not among the ESM entry's names: the CommonJS module has it.
const bidiFirefox = (createRequire(import.meta.url)('playwright-core') as { _bidiFirefox: BrowserType })._bidiFirefox;
const meter = meterCpu(process.pid);
const root = mkdtempSync(path.join(tmpdir(), 'fullstop-bench-engines-'));
const suiteDir = mkdtempSync(path.join(tmpdir(), 'fullstop-bench-suite-'));
cpSync(SUITE, suiteDir, { recursive: true });
const site = await startHardenedServer();
let counter = 0;

async function measured(work: () => Promise<void>): Promise<{ wall: number; cpu: number }> {
  const cpu0 = meter.seconds();
  const started = performance.now();
  await work();
  const wall = (performance.now() - started) / 1000;
  // The browser's last processes exit before the CPU is read.
  await new Promise((r) => setTimeout(r, PAUSE_MS));
  return { wall, cpu: meter.seconds() - cpu0 };
}

async function startUp(engine: Engine): Promise<void> {
  if (engine === 'webkit') {
    // WebKit takes its proxy only as a session capability, never "none": the policy proxy (a Node server, ~ms) stays.
    const home = mkdtempSync(path.join(root, 'webkit-home-'));
    const proxy = await startPolicyProxy(createTargetGuard({ baseUrl: site.url, allowedOrigins: [], allowPrivateAddresses: true }));
    const host = await startWebKitHost(webkitPaths({}), { home, signal: new AbortController().signal });
    try {
      const session = await openWebKitSession(host, { viewport: { width: 1280, height: 720 }, proxyUrl: proxy.url, pageLoadTimeoutMs: 30_000, scriptTimeoutMs: 30_000 }, new AbortController().signal);
      await session.navigate(site.url);
      await session.close();
    } finally {
      await host.close();
      await proxy.close();
      rmSync(home, { recursive: true, force: true });
    }
    return;
  }
  const browser =
    engineOf(engine) === 'chromium'
      ? await chromium.launch({ executablePath: chromiumOf(engine), args: CHROMIUM_FLAGS })
      : await bidiFirefox.launch({ channel: FIREFOX_BIDI.channel, executablePath: FIREFOX_PATH });
  const page = await browser.newPage();
  await page.goto(site.url);
  await browser.close();
}

async function attempt(engine: Engine, options: Record<string, unknown> = { specs: 'home.spec.ts', grep: 'heading' }): Promise<void> {
  const runDir = path.join(root, `attempt-${++counter}`);
  const result = await browserRunner.run(
    { name: 'b', group: 'G', kind: 'browser', options: { ...options, engines: [engineOf(engine)] }, suiteDir },
    { baseUrl: site.url, allowedOrigins: [], allowPrivateAddresses: true },
    { runDir, chromiumPath: chromiumOf(engine), firefoxPath: FIREFOX_PATH, workers: 1, signal: new AbortController().signal, log: () => {} },
  );
  if (result.status !== 'passed') throw new Error(`${engine} attempt ${result.status}: ${result.error ?? JSON.stringify(result.summary).slice(0, 1000)}`);
}

const pageCheck = (engine: Engine) => attempt(engine, { pages: [{ path: '/', expect: ['h1'] }] });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: Record<string, Record<string, string>> = {};
try {
  const works = [
    ['start-up (start, one page, close)', (e: Engine) => startUp(e), ENGINES],
    ['attempt (one-case suite)', (e: Engine) => attempt(e), ['chromium', 'chromium-full', 'firefox']],
    ['page-check attempt (one page)', pageCheck, ENGINES],
  ] as const;
  for (const [name, work, engines] of works) {
    const samples: Partial<Record<Engine, { wall: number; cpu: number }[]>> = {};
    // A first one of each warms the OS's caches.
    for (const engine of engines) await measured(() => work(engine));
    for (let i = 0; i < ROUNDS; i++) for (const engine of engines) (samples[engine] ??= []).push(await measured(() => work(engine)));
    const m = (engine: Engine, k: 'wall' | 'cpu') => median(samples[engine]!.map((s) => s[k]));
    const row: Record<string, string> = {};
    for (const engine of engines) {
      row[`wall s (${TITLES[engine]})`] = m(engine, 'wall').toFixed(3);
      if (engine !== 'chromium') row[`wall ratio ${TITLES[engine]}`] = (m(engine, 'wall') / m('chromium', 'wall')).toFixed(2);
    }
    for (const engine of engines) {
      row[`CPU-s (${TITLES[engine]})`] = m(engine, 'cpu').toFixed(3);
      if (engine !== 'chromium') row[`CPU ratio ${TITLES[engine]}`] = (m(engine, 'cpu') / m('chromium', 'cpu')).toFixed(2);
    }
    rows[name] = row;
    console.log(name, row);
  }
  console.log(`\nmedians of ${ROUNDS} rounds each (CPU: ${meter.how}); load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  console.table(rows);
} finally {
  await site.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(suiteDir, { recursive: true, force: true });
  await meter.close();
}
