/**
 * `node --import tsx bench/engine/browser-matrix.ts [rounds]` (default 3): a browser test's matrix with a browser an
 * engine (issue 40: the cells of one engine are contexts of one browser) against a browser a cell (as before, the
 * runner's bench-only `browserPerCell`), taking turns in the same run. The test: page checks of three pages of the
 * cell site (packages/engine/test/fixtures/cell-site.ts; load, console errors, key elements, links, screenshot,
 * axe) on Chromium and Firefox (`BENCH_MATRIX_ENGINES`) × desktop and phone × 4G and slow 3G: 8 cells, 24 cases.
 * The home page's key elements fail it on a phone (`#w-1280`) and on slow 3G (`#quick`): some cells fail, others
 * pass, so that "verdicts equal" compares both. Per mode: wall, CPU-seconds of this process and everything it starts
 * (its own cgroup where possible), browsers started (the runner's log), and whether every case's verdict and error
 * equal the other mode's. Figures, never pass/fail.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { browserRunner } from '../../packages/engine/src/runners/browser/index.ts';
import { DEFAULT_FIREFOX_PATH } from '../../packages/engine/src/lib/firefox.ts';
import { startCellSite } from '../../packages/engine/test/fixtures/cell-site.ts';
import { meterCpu } from './cpu.ts';

const ROUNDS = Number(process.argv[2] ?? 3);
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FIREFOX_PATH = process.env.FIREFOX_PATH ?? DEFAULT_FIREFOX_PATH;
const ENGINES = (process.env.BENCH_MATRIX_ENGINES ?? 'chromium,firefox').split(',');
const PAUSE_MS = 500;
const MODES = ['browser a cell', 'browser an engine'] as const;
type Mode = (typeof MODES)[number];

const OPTIONS = {
  engines: ENGINES,
  devices: ['desktop', 'phone'],
  networks: ['4g', 'slow-3g'],
  pages: [{ path: '/', expect: ['h1', '#w-1280', '#quick', '#fresh'] }, { path: '/about', expect: ['h1'] }, { path: '/contact', expect: ['h1'] }],
};

interface Sample {
  wall: number;
  cpu: number;
  browsers: number;
  verdicts: Record<string, string>;
}

const meter = meterCpu(process.pid);
const root = mkdtempSync(path.join(tmpdir(), 'fullstop-bench-matrix-'));
const site = await startCellSite();
let counter = 0;

async function once(mode: Mode): Promise<Sample> {
  const logs: string[] = [];
  const runDir = path.join(root, `attempt-${++counter}`);
  const cpu0 = meter.seconds();
  const started = performance.now();
  const result = await browserRunner.run(
    { name: 'Matrix', group: 'G', kind: 'browser', options: OPTIONS },
    { baseUrl: site.url, allowedOrigins: [], allowPrivateAddresses: true },
    {
      runDir,
      chromiumPath: CHROMIUM_PATH,
      firefoxPath: FIREFOX_PATH,
      workers: 1,
      signal: new AbortController().signal,
      log: (message, data) => logs.push(data ? `${message} ${JSON.stringify(data)}` : message),
      ...(mode === 'browser a cell' ? { browserPerCell: true } : {}),
    },
  );
  const wall = (performance.now() - started) / 1000;
  // The browsers' last processes exit before the CPU is read.
  await new Promise((r) => setTimeout(r, PAUSE_MS));
  const cpu = meter.seconds() - cpu0;
  if (result.summary.kind !== 'browser') throw new Error(`${mode}: ${result.status} ${result.error ?? ''}`);
  const line = logs.find((l) => l.startsWith('page check browsers started '));
  const browsers = line ? Object.values(JSON.parse(line.slice('page check browsers started '.length)) as Record<string, number>).reduce((a, b) => a + b, 0) : NaN;
  const verdicts = Object.fromEntries(result.summary.cases.map((c) => [c.name, `${c.status}${c.error ? `: ${c.error}` : ''}`]));
  rmSync(runDir, { recursive: true, force: true });
  return { wall, cpu, browsers, verdicts };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const samples: Record<Mode, Sample[]> = { 'browser a cell': [], 'browser an engine': [] };
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
  const reference = samples['browser a cell'][0]!.verdicts;
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
