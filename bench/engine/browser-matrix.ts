/**
 * `node --import tsx bench/engine/browser-matrix.ts [rounds]` (default 3): issue 40's 12-cell browser test with a
 * browser an engine (the cells of one engine are contexts of one browser, for the page checks and for the spec files)
 * against a browser a cell (as before, the runner's bench-only `browserPerCell`), taking turns in the same run. The
 * test: Chromium, Firefox and WebKit (`BENCH_MATRIX_ENGINES`) × desktop and phone × 4G and slow 3G; six page checks
 * of the cell site (packages/engine/test/fixtures/cell-site.ts; load, console errors, key elements, links,
 * screenshot, axe) in every cell, and three spec files (fixtures/cell-suite; `BENCH_MATRIX_SPECS=0` leaves them out)
 * in the Chromium and Firefox cells (`BENCH_MATRIX_PAGES=0` leaves the page checks out: the spec files alone). Some cases fail by design (the home page's key elements on a phone and on slow
 * 3G; a spec on a phone, another on slow 3G), so that "verdicts equal" compares both. Per mode: wall, CPU-seconds of
 * this process and everything it starts (its own cgroup where possible), browsers started (the runner's log: page
 * checks' and spec files'; WebKit's sessions are not browsers of Playwright's and are not counted), and whether every
 * case's verdict and error (its first line) equal the other mode's. "A browser an engine" also holds the 2 cores the
 * server gives this test on this machine (its spec files beside its page checks); "a browser a cell" 1, as before.
 * Figures, never pass/fail.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { browserRunner } from '../../packages/engine/src/runners/browser/index.ts';
import { DEFAULT_FIREFOX_PATH } from '../../packages/engine/src/lib/firefox.ts';
import { WARM_FIREFOX_VAR } from '../../packages/engine/src/lib/warm-firefox.ts';
import { warmFirefoxMade } from '../../packages/engine/src/sandbox/warm-firefox.ts';
import { startCellSite } from '../../packages/engine/test/fixtures/cell-site.ts';
import { meterCpu } from './cpu.ts';
import { DEFAULT_CHROMIUM_PATH } from '@fullstop/engine/chromium';

const ROUNDS = Number(process.argv[2] ?? 3);
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;
const FIREFOX_PATH = process.env.FIREFOX_PATH ?? DEFAULT_FIREFOX_PATH;
const ENGINES = (process.env.BENCH_MATRIX_ENGINES ?? 'chromium,firefox,webkit').split(',');
const SPECS = process.env.BENCH_MATRIX_SPECS !== '0';
const PAGES = process.env.BENCH_MATRIX_PAGES !== '0';
const PAUSE_MS = 500;
const ALL_MODES = [
  'browser a cell',
  'browser an engine',
  'browser an engine with the module loader',
  'browser an engine with spec cells one at a time',
  'browser an engine a part',
  'browser an engine with Firefox cold',
] as const;
type Mode = (typeof ALL_MODES)[number];
/**
 * The modes compared (`BENCH_MATRIX_MODES`, comma-separated; default the first two). "With the module loader" is the test as
 * it ran before decision 0108: the same suite with one more file, an unused `.mjs`, for which Playwright's ES module
 * loader stays on in each of its processes (module-mode.ts). "With spec cells one at a time" is the test as it ran before
 * decision 0109: one Playwright worker for the spec cells whatever their networks (the runner's bench-only
 * `specWorkers`), where the 4G and slow-3G cells now run two at once. "A part" is the test as it ran before decision
 * 0110: the spec files and the page checks a browser an engine each (the runner's bench-only `browserHost: false`),
 * where the attempt's browser host now serves both. "Firefox cold" is the test as it ran before decision 0111: Firefox on a
 * fresh profile, where every other mode starts it on a copy of the warm template (made once, as the server makes it).
 */
const MODES = (process.env.BENCH_MATRIX_MODES?.split(',') ?? ALL_MODES.slice(0, 2)).map((m) => {
  if (!(ALL_MODES as readonly string[]).includes(m)) throw new Error(`BENCH_MATRIX_MODES: no mode "${m}" (${ALL_MODES.join(', ')})`);
  return m as Mode;
});

const OPTIONS = {
  engines: ENGINES,
  devices: ['desktop', 'phone'],
  networks: ['4g', 'slow-3g'],
  ...(PAGES
    ? {
        pages: [
          { path: '/', expect: ['h1', '#w-1280', '#quick', '#fresh'] },
          { path: '/about', expect: ['h1'] },
          { path: '/contact', expect: ['h1'] },
          { path: '/about?from=home', expect: ['h1', 'nav'] },
          { path: '/contact?from=about', expect: ['h1', 'nav'] },
          { path: '/?again=1', expect: ['h1'] },
        ],
      }
    : {}),
  ...(SPECS ? { specs: '*.spec.ts' } : {}),
};
const SPEC_ENGINES = ENGINES.filter((e) => e !== 'webkit').length;
/** Spec cells: each started a browser of its own before issue 40 (a worker a cell). */
const SPEC_CELLS = SPECS ? SPEC_ENGINES * OPTIONS.devices.length * OPTIONS.networks.length : 0;

interface Sample {
  wall: number;
  cpu: number;
  browsers: number;
  verdicts: Record<string, string>;
}

const meter = meterCpu(process.pid);
const root = mkdtempSync(path.join(tmpdir(), 'fullstop-bench-matrix-'));
const site = await startCellSite();
// The warm Firefox template (decision 0111), made before the first round as the supervisor makes it for a server.
const warmFirefox = ENGINES.includes('firefox') ? await warmFirefoxMade(FIREFOX_PATH) : null;
// The suite outside the repository, as a stored suite version is (@playwright/test resolves through NODE_PATH).
const suiteDir = path.join(root, 'suite');
cpSync(path.join(import.meta.dirname, '../../packages/engine/test/fixtures/cell-suite'), suiteDir, { recursive: true });
const loaderSuiteDir = path.join(root, 'suite-with-mjs');
cpSync(suiteDir, loaderSuiteDir, { recursive: true });
writeFileSync(path.join(loaderSuiteDir, 'unused.mjs'), 'export {};\n');
let counter = 0;

async function once(mode: Mode): Promise<Sample> {
  if (warmFirefox && mode === 'browser an engine with Firefox cold') delete process.env[WARM_FIREFOX_VAR];
  else if (warmFirefox) process.env[WARM_FIREFOX_VAR] = warmFirefox;
  const logs: string[] = [];
  const runDir = path.join(root, `attempt-${++counter}`);
  const cpu0 = meter.seconds();
  const started = performance.now();
  const result = await browserRunner.run(
    { name: 'Matrix', group: 'G', kind: 'browser', options: OPTIONS, ...(SPECS ? { suiteDir: mode === 'browser an engine with the module loader' ? loaderSuiteDir : suiteDir } : {}) },
    { baseUrl: site.url, allowedOrigins: [], allowPrivateAddresses: true },
    {
      runDir,
      chromiumPath: CHROMIUM_PATH,
      firefoxPath: FIREFOX_PATH,
      workers: 1,
      signal: new AbortController().signal,
      log: (message, data) => logs.push(data ? `${message} ${JSON.stringify(data)}` : message),
      // Before: a browser a cell, one part after the other. Now: what the server gives this test on 2 cores
      // (queue/capacity.ts attemptCores: it weighs more than the machine, so it holds both), its parts side by side.
      ...(mode === 'browser a cell' ? { browserPerCell: true, cores: 1 } : { cores: 2 }),
      ...(mode === 'browser an engine with spec cells one at a time' ? { specWorkers: 1 } : {}),
      ...(mode === 'browser an engine a part' ? { browserHost: false } : {}),
    },
  );
  const wall = (performance.now() - started) / 1000;
  // The browsers' last processes exit before the CPU is read.
  await new Promise((r) => setTimeout(r, PAUSE_MS));
  const cpu = meter.seconds() - cpu0;
  if (result.summary.kind !== 'browser') throw new Error(`${mode}: ${result.status} ${result.error ?? ''}`);
  const startedBy = (prefix: string) => {
    const line = logs.find((l) => l.startsWith(prefix));
    return line ? Object.entries(JSON.parse(line.slice(prefix.length)) as Record<string, number>).filter(([e]) => e !== 'webkit').reduce((a, [, n]) => a + n, 0) : null;
  };
  const pageBrowsers = PAGES ? (startedBy('page check browsers started ') ?? NaN) : 0;
  // A browser a cell's specs say nothing: each spec cell's worker launched its own.
  const specBrowsers = SPECS ? (startedBy('spec browsers started ') ?? (mode === 'browser a cell' ? SPEC_CELLS : NaN)) : 0;
  const browsers = pageBrowsers + specBrowsers + (startedBy('shared browsers started ') ?? 0);
  // An error's first line: Playwright's call log below it counts its polls, which differ from run to run.
  const verdicts = Object.fromEntries(result.summary.cases.map((c) => [c.name, `${c.status}${c.error ? `: ${c.error.split('\n')[0]}` : ''}`]));
  rmSync(runDir, { recursive: true, force: true });
  return { wall, cpu, browsers, verdicts };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const samples = Object.fromEntries(MODES.map((m) => [m, [] as Sample[]])) as Record<Mode, Sample[]>;
try {
  // A first one of each warms the OS's caches.
  for (const mode of MODES) await once(mode);
  for (let i = 0; i < ROUNDS; i++) {
    // The order turns each round, so the machine's noise falls on both.
    for (const mode of i % 2 ? [...MODES].reverse() : MODES) {
      const s = await once(mode);
      samples[mode].push(s);
      console.log(`round ${i + 1} ${mode}: ${s.wall.toFixed(1)} s, ${s.cpu.toFixed(1)} CPU-s, ${s.browsers} browsers`);
    }
  }
  // The first mode's first run is the reference (a browser a cell's, by default).
  const reference = samples[MODES[0]!][0]!.verdicts;
  const same = (s: Sample) => JSON.stringify(s.verdicts) === JSON.stringify(reference);
  const failing = Object.values(reference).filter((v) => v.startsWith('failed')).length;
  const rows = Object.fromEntries(
    MODES.map((mode) => {
      const xs = samples[mode];
      return [
        mode,
        {
          'wall s (median)': median(xs.map((s) => s.wall)).toFixed(1),
          'wall s (range)': `${Math.min(...xs.map((s) => s.wall)).toFixed(1)}-${Math.max(...xs.map((s) => s.wall)).toFixed(1)}`,
          'CPU-s (median)': median(xs.map((s) => s.cpu)).toFixed(1),
          'CPU-s (range)': `${Math.min(...xs.map((s) => s.cpu)).toFixed(1)}-${Math.max(...xs.map((s) => s.cpu)).toFixed(1)}`,
          browsers: [...new Set(xs.map((s) => s.browsers))].join('/'),
          'verdicts equal': `${xs.filter(same).length} of ${xs.length}`,
        },
      ];
    }),
  );
  console.log(`\n${Object.keys(reference).length} cases (${failing} failing, the same in each mode), medians of ${ROUNDS} rounds (CPU: ${meter.how}); load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  console.table(rows);
  for (const mode of MODES)
    for (const s of samples[mode].filter((x) => !same(x))) {
      const differing = Object.keys(reference).filter((k) => s.verdicts[k] !== reference[k]);
      console.log(`${mode}: verdicts differ in ${differing.map((k) => `${k} (${s.verdicts[k] ?? 'absent'} / ${reference[k]})`).join('; ')}`);
    }
} finally {
  await site.close();
  rmSync(root, { recursive: true, force: true });
  await meter.close();
}
