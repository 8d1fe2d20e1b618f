/**
 * `node --import tsx bench/engine/browser-engines.ts [rounds]`: what a browser test on Firefox costs against the same
 * test on Chromium (decision 0078), both Debian's, both through Playwright (Firefox over WebDriver BiDi).
 *  1. Start-up: launch the browser, open a page, load the local site's home, close; wall and CPU-seconds.
 *  2. Attempt: the browser runner on a one-case suite (policy proxy, Playwright's test runner, its reports).
 * The two engines take turns, so the machine's noise falls on both; medians and the ratio Firefox / Chromium.
 * CPU: this process and everything it starts (a cpuacct cgroup of its own where possible). Figures, never pass/fail.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { type BrowserType, chromium } from 'playwright-core';
import { browserRunner } from '../../packages/engine/src/runners/browser/index.ts';
import { CHROMIUM_FLAGS } from '../../packages/engine/src/lib/chromium.ts';
import { DEFAULT_FIREFOX_PATH, FIREFOX_BIDI } from '../../packages/engine/src/lib/firefox.ts';
import { startHardenedServer } from '../../packages/engine/test/fixtures/hardened-server.ts';
import { meterCpu } from './cpu.ts';

const ROUNDS = Number(process.argv[2] ?? 5);
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FIREFOX_PATH = process.env.FIREFOX_PATH ?? DEFAULT_FIREFOX_PATH;
const SUITE = fileURLToPath(new URL('../../packages/engine/test/fixtures/browser-suite', import.meta.url));
const PAUSE_MS = 500;
const ENGINES = ['chromium', 'firefox'] as const;
type Engine = (typeof ENGINES)[number];

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
  const browser =
    engine === 'chromium'
      ? await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS })
      : await bidiFirefox.launch({ channel: FIREFOX_BIDI.channel, executablePath: FIREFOX_PATH });
  const page = await browser.newPage();
  await page.goto(site.url);
  await browser.close();
}

async function attempt(engine: Engine): Promise<void> {
  const runDir = path.join(root, `attempt-${++counter}`);
  const result = await browserRunner.run(
    { name: 'b', group: 'G', kind: 'browser', options: { specs: 'home.spec.ts', grep: 'heading', engines: [engine] }, suiteDir },
    { baseUrl: site.url, allowedOrigins: [], allowPrivateAddresses: true },
    { runDir, chromiumPath: CHROMIUM_PATH, firefoxPath: FIREFOX_PATH, workers: 1, signal: new AbortController().signal, log: () => {} },
  );
  if (result.status !== 'passed') throw new Error(`${engine} attempt ${result.status}: ${result.error ?? ''}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: Record<string, Record<string, string>> = {};
try {
  for (const [name, work] of [['start-up (launch, one page, close)', startUp], ['attempt (one-case suite)', attempt]] as const) {
    const samples: Record<Engine, { wall: number; cpu: number }[]> = { chromium: [], firefox: [] };
    // A first one of each warms the OS's caches.
    for (const engine of ENGINES) await measured(() => work(engine));
    for (let i = 0; i < ROUNDS; i++) for (const engine of ENGINES) samples[engine].push(await measured(() => work(engine)));
    const m = (engine: Engine, k: 'wall' | 'cpu') => median(samples[engine].map((s) => s[k]));
    rows[name] = {
      'wall s (Chromium)': m('chromium', 'wall').toFixed(3),
      'wall s (Firefox)': m('firefox', 'wall').toFixed(3),
      'wall ratio': (m('firefox', 'wall') / m('chromium', 'wall')).toFixed(2),
      'CPU-s (Chromium)': m('chromium', 'cpu').toFixed(3),
      'CPU-s (Firefox)': m('firefox', 'cpu').toFixed(3),
      'CPU ratio': (m('firefox', 'cpu') / m('chromium', 'cpu')).toFixed(2),
    };
    console.log(name, rows[name]);
  }
  console.log(`\nmedians of ${ROUNDS} rounds each (CPU: ${meter.how}); load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  console.table(rows);
} finally {
  await site.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(suiteDir, { recursive: true, force: true });
  await meter.close();
}
