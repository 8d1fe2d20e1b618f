/**
 * `node --import tsx bench/engine/visual.ts [rounds]` (default 3): what a visual test costs (decision 0080), on the
 * engine's visual fixture site, two pages on Chromium × desktop, in this process (no server):
 *  1. a first run, no baselines: every shot new;
 *  2. the same run against those baselines: every shot compared, unchanged;
 *  3. against them with one button moved: one shot changed (baseline, current and diff written).
 * And the comparison alone (pixelmatch + pngjs) of one desktop shot with itself and with its changed twin.
 * Wall and CPU (this process and the browsers it starts); medians. Figures, never pass/fail.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { visualBaselineFile, visualCandidates } from '@fullstop/contracts';
import { visualRunner } from '../../packages/engine/src/runners/visual/index.ts';
import { compareImages } from '../../packages/engine/src/runners/visual/compare.ts';
import { startVisualSite } from '../../packages/engine/test/fixtures/visual-site.ts';
import { meterCpu } from './cpu.ts';
import { DEFAULT_CHROMIUM_PATH } from '@fullstop/engine/chromium';

const ROUNDS = Number(process.argv[2] ?? 3);
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;
const PAUSE_MS = 500;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const meter = meterCpu(process.pid);
const root = await mkdtemp(path.join(tmpdir(), 'fullstop-bench-visual-'));
const baselineDir = path.join(root, 'baselines');
const site = await startVisualSite();
let counter = 0;

async function attempt(withBaselines: boolean) {
  const runDir = path.join(root, `attempt-${++counter}`);
  const result = await visualRunner.run(
    { name: 'Shop looks right', group: 'G', kind: 'visual', options: { pages: ['/', { path: '/live', mask: ['#clock'] }] } },
    { baseUrl: site.url, allowedOrigins: [], allowPrivateAddresses: true },
    { runDir, chromiumPath: CHROMIUM_PATH, workers: 1, signal: new AbortController().signal, log: () => {}, ...(withBaselines ? { baselineDir } : {}) },
  );
  if (result.status === 'error' || result.summary.kind !== 'visual') throw new Error(`attempt errored: ${result.error ?? ''}`);
  return { runDir, summary: result.summary };
}

async function measured<T>(work: () => Promise<T>): Promise<{ wall: number; cpu: number; value: T }> {
  const cpu0 = meter.seconds();
  const started = performance.now();
  const value = await work();
  const wall = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, PAUSE_MS));
  return { wall, cpu: meter.seconds() - cpu0, value };
}

try {
  // The baselines: a first run's candidates, approved.
  await mkdir(baselineDir, { recursive: true });
  const first = await attempt(false);
  for (const s of visualCandidates(first.summary)) await copyFile(path.join(first.runDir, s.current.path), path.join(baselineDir, visualBaselineFile(s.key)));

  const cases = {
    'first run (2 new shots)': () => attempt(false),
    'against baselines (2 unchanged)': () => attempt(true),
    'one button moved (1 changed)': async () => {
      site.setVariant('moved');
      try {
        return await attempt(true);
      } finally {
        site.setVariant('base');
      }
    },
  };
  const rows: Record<string, Record<string, string>> = {};
  let changedRun: { runDir: string; summary: Awaited<ReturnType<typeof attempt>>['summary'] } | null = null;
  for (const [name, work] of Object.entries(cases)) {
    const samples = [];
    for (let i = 0; i < ROUNDS; i++) samples.push(await measured(work));
    changedRun = samples.at(-1)!.value;
    const captures = samples.at(-1)!.value.summary.shots.map((s) => s.captures).join('+');
    rows[name] = { 'wall s': median(samples.map((s) => s.wall)).toFixed(2), 'CPU-s': median(samples.map((s) => s.cpu)).toFixed(2), captures, statuses: samples.at(-1)!.value.summary.shots.map((s) => s.status).join(', ') };
  }

  // The comparison alone, in this process: a desktop shot with itself, and with its changed twin (diff written).
  const home = changedRun!.summary.shots.find((s) => s.page === '/')!;
  const baseline = await readFile(path.join(baselineDir, visualBaselineFile(home.key)));
  const current = await readFile(path.join(changedRun!.runDir, home.current!.path));
  const compareMs = (a: Buffer, b: Buffer, diff: boolean) => {
    const times = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const cmp = compareImages(a, b, 0.1);
      if (diff) cmp.diffPng();
      times.push(performance.now() - started);
    }
    return median(times).toFixed(1);
  };
  rows[`compare ${home.current!.width} × ${home.current!.height} alone (ms)`] = { same: compareMs(baseline, baseline, false), 'changed + diff written': compareMs(baseline, current, true) };

  console.log(`\nmedians of ${ROUNDS} rounds each (CPU: ${meter.how}); load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  console.table(rows);
} finally {
  await site.close();
  await rm(root, { recursive: true, force: true });
  await meter.close();
}
