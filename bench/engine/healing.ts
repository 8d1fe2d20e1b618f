/**
 * `node --import tsx bench/engine/healing.ts [rounds]` (default 12): what fingerprints (decision 0101) add to a
 * passing browser attempt. One suite, run in turn in three ways in the same run: without the healing hook (the
 * runner's bench-only `healingFingerprints: false`), recording fingerprints (every attempt does, the default), and
 * recording with the last passing run's fingerprints given (every call site then takes the healing path, and nothing
 * needs healing). The suite: the healing fixture's (test/fixtures/healing-suite, 3 tests) and 8 generated tests of 6
 * actions and assertions each on the healing site's first version (48 more call sites), 2 Playwright workers.
 * Per way: wall and CPU-seconds of this process and all it starts (its cgroup where possible), medians and ratios
 * to the first way in the same round, and the mean of those ratios with its 95 % interval: an attempt's CPU moves by
 * 10-20 % between rounds on a shared machine, more than the cost measured. Figures, never pass/fail; the goal is
 * under 5 %.
 *
 * `BENCH_SERVER=dist` (after `npm run build`) runs the server bundle's browser runner, as `npm start` does: Playwright's
 * workers then load the bundled hook (a few .js chunks) instead of its TypeScript source, which Node strips of types
 * file by file (about 110 ms of CPU a worker for install.ts's graph, against 8 bundled).
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { browserRunner as sourceRunner } from '../../packages/engine/src/runners/browser/index.ts';
import { browserPaths } from '../../packages/engine/src/runners/browser/config.ts';
import { collectHealing, prepareHealing } from '../../packages/engine/src/runners/browser/healing/attempt.ts';
import type { PlaywrightJsonReport } from '../../packages/engine/src/runners/browser/json-report.ts';
import { startHealingSite } from '../../packages/engine/test/fixtures/healing-site.ts';
import { meterCpu } from './cpu.ts';
import { DEFAULT_CHROMIUM_PATH } from '@fullstop/engine/chromium';
import { FINGERPRINT_ENGINE, FINGERPRINT_ENGINE_SOURCE } from '../../packages/engine/src/runners/browser/healing/in-page.ts';

const ROUNDS = Number(process.argv[2] ?? 12);
/** Rounds of the parts (`BENCH_HEALING_PARTS`, default 3; 0 leaves them out). */
const PARTS_ROUNDS = Number(process.env.BENCH_HEALING_PARTS ?? 3);

/** The bundle's browser runner: the chunk the build split off for it (`browser-<hash>.js`), which exports it by name. */
async function bundledRunner(): Promise<typeof sourceRunner> {
  const dist = path.join(import.meta.dirname, '../../apps/server/dist');
  for (const name of readdirSync(dist).filter((f) => /^browser-[A-Z0-9]+\.js$/.test(f))) {
    const chunk = (await import(pathToFileURL(path.join(dist, name)).href)) as { browserRunner?: typeof sourceRunner };
    if (chunk.browserRunner) return chunk.browserRunner;
  }
  throw new Error(`BENCH_SERVER=dist: no chunk of ${dist} exports browserRunner; run \`npm run build\` first`);
}
const browserRunner = process.env.BENCH_SERVER === 'dist' ? await bundledRunner() : sourceRunner;
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;
const PAUSE_MS = 500;
const WAYS = ['no hook', 'fingerprints', 'fingerprints + healing input'] as const;
type Way = (typeof WAYS)[number];

const GENERATED_TESTS = 8;
/** A test of six call sites of its own: the same page, each line a call site. */
const generatedTest = (i: number) => `
test('generated ${i}', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Contact us' })).toBeVisible();
  await page.getByLabel('Message').fill('Hello ${i}');
  await page.getByLabel('Message').press('End');
  await page.getByRole('button', { name: 'Send', exact: true }).hover();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByText('Message sent')).toBeVisible();
});
`;

interface Sample {
  wall: number;
  cpu: number;
  sites: number;
}

const meter = meterCpu(process.pid);
const root = mkdtempSync(path.join(tmpdir(), 'fullstop-bench-healing-'));
const suiteDir = path.join(root, 'suite');
cpSync(path.join(import.meta.dirname, '../../packages/engine/test/fixtures/healing-suite'), suiteDir, { recursive: true });
writeFileSync(path.join(suiteDir, 'generated.spec.ts'), `import { expect, test } from '@playwright/test';\n${Array.from({ length: GENERATED_TESTS }, (_, i) => generatedTest(i)).join('')}`);
const fingerprints = path.join(root, 'fingerprints.json');
const site = await startHealingSite();
let counter = 0;

/** One attempt of the browser runner on `dir`, its wall and CPU-seconds; its run folder is removed after `read`. */
async function attempt<T>(dir: string, extra: object, read: (runDir: string, status: string) => T, runner = browserRunner): Promise<{ wall: number; cpu: number; out: T }> {
  const runDir = path.join(root, `attempt-${++counter}`);
  const cpu0 = meter.seconds();
  const started = performance.now();
  const result = await runner.run(
    { name: 'Healing', group: 'G', kind: 'browser', options: {}, suiteDir: dir },
    { baseUrl: site.url, allowedOrigins: [], allowPrivateAddresses: true },
    { runDir, chromiumPath: CHROMIUM_PATH, workers: 2, signal: new AbortController().signal, log: () => undefined, ...extra },
  );
  const wall = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, PAUSE_MS));
  const cpu = meter.seconds() - cpu0;
  if (result.status !== 'passed') throw new Error(`${result.status} ${result.error ?? ''} ${JSON.stringify(result.summary).slice(0, 2000)}`);
  const out = read(runDir, result.status);
  rmSync(runDir, { recursive: true, force: true });
  return { wall, cpu, out };
}

async function once(way: Way): Promise<Sample> {
  const extra = way === 'no hook' ? { healingFingerprints: false } : way === 'fingerprints + healing input' ? { healingFingerprints: fingerprints } : {};
  const { wall, cpu, out: sites } = await attempt(suiteDir, extra, (runDir) => {
    if (way === 'no hook') return 0;
    const text = readFileSync(path.join(runDir, 'browser/fingerprints.json'), 'utf8');
    if (way === 'fingerprints') writeFileSync(fingerprints, text);
    return (JSON.parse(text) as { sites: unknown[] }).sites.length;
  });
  return { wall, cpu, sites };
}

/**
 * The hook's work one operation at a time, where the machine's noise cannot hide it: an attempt whose one test does
 * PARTS_OPS times what the hook does at a new call site of an action (its `readFingerprint`: one query that waits
 * for nothing, in Playwright's utility world through the shared browser, as an internal call), against the same
 * attempt doing it no times; and a stack read as the hook's (40 frames, through Playwright's source maps), timed on the worker's
 * thread. Without the hook (the engine registered by the spec itself), so nothing else of the hook is counted. Then
 * the runner's own part, in this process: the hook's setup, and the workers' records read and joined to the report.
 */
const PARTS_OPS = 400;
const partsSpec = (n: number) => `import { selectors, test } from '@playwright/test';
import { readFingerprint } from ${JSON.stringify(path.join(import.meta.dirname, '../../packages/engine/src/runners/browser/healing/install.ts'))};
test.beforeAll(async () => {
  await selectors.register(${JSON.stringify(FINGERPRINT_ENGINE)}, { content: ${JSON.stringify(FINGERPRINT_ENGINE_SOURCE)} }, { contentScript: true });
});
test('what the hook does at a call site, ${n} times', async ({ page }) => {
  await page.goto('/');
  const button = page.getByRole('button', { name: 'Send', exact: true });
  await button.waitFor();
  for (let i = 0; i < ${n}; i++) if (!(await readFingerprint(button as never))) throw new Error('no fingerprint');
  const deep = (depth: number, f: () => void): void => (depth === 0 ? f() : deep(depth - 1, f));
  const t0 = process.threadCpuUsage();
  deep(40, () => {
    for (let i = 0; i < ${n}; i++) {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 40;
      void new Error().stack;
      Error.stackTraceLimit = limit;
    }
  });
  const t = process.threadCpuUsage(t0);
  test.info().annotations.push({ type: 'stack-read-ms', description: String((t.user + t.system) / 1000 / Math.max(1, ${n})) });
});
`;
const partsDir = path.join(root, 'parts');

/** The parts' attempt doing `n` operations: its wall and CPU, and a stack read's CPU-ms as its test measured it. */
async function parts(n: number) {
  writeFileSync(path.join(partsDir, 'parts.spec.ts'), partsSpec(n));
  return attempt(partsDir, { healingFingerprints: false }, (runDir) => {
    const report = JSON.parse(readFileSync(path.join(runDir, 'browser/results.json'), 'utf8')) as { suites: { specs: { tests: { annotations?: { type: string; description?: string }[] }[] }[] }[] };
    const note = report.suites.flatMap((x) => x.specs).flatMap((x) => x.tests).flatMap((x) => x.annotations ?? []).find((a) => a.type === 'stack-read-ms');
    return Number(note?.description ?? Number.NaN);
    // From source in either case: the spec imports the hook's reader from its source, which the bundle's runner would
    // leave to Playwright's Babel (CommonJS in an ES module's folder). What is measured is the same in both.
  }, sourceRunner);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Student's t at 97.5 % for 1-30 degrees of freedom (then the normal's 1.96): a 95 % interval of a mean of few rounds. */
const T975 = [12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.2, 2.18, 2.16, 2.14, 2.13, 2.12, 2.11, 2.1, 2.09, 2.09, 2.08, 2.07, 2.07, 2.06, 2.06, 2.06, 2.05, 2.05, 2.05, 2.04];
/** The mean of per-round ratios and the half-width of its 95 % interval (rounds taken as independent pairs). */
function interval(xs: number[]): { mean: number; half: number } {
  const m = mean(xs);
  if (xs.length < 2) return { mean: m, half: Number.NaN };
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
  return { mean: m, half: (T975[xs.length - 2] ?? 1.96) * (sd / Math.sqrt(xs.length)) };
}
const pct = (x: { mean: number; half: number }) => `${((x.mean - 1) * 100).toFixed(1)} % ± ${(x.half * 100).toFixed(1)}`;
const samples: Record<Way, Sample[]> = { 'no hook': [], fingerprints: [], 'fingerprints + healing input': [] };
try {
  // A first one of each warms the OS's caches (and Playwright's compilation cache); the second writes the input.
  for (const way of WAYS) await once(way);
  for (let i = 0; i < ROUNDS; i++) {
    // The order turns each round, so the machine's noise falls on every way.
    const order = [...WAYS.slice(i % WAYS.length), ...WAYS.slice(0, i % WAYS.length)];
    for (const way of order) {
      const s = await once(way);
      samples[way].push(s);
      console.log(`round ${i + 1} ${way}: ${s.wall.toFixed(2)} s, ${s.cpu.toFixed(2)} CPU-s, ${s.sites} call sites`);
    }
  }
  const base = samples['no hook'];
  const rows = Object.fromEntries(
    WAYS.map((way) => {
      const xs = samples[way];
      // Ratios per round (each against the baseline of its own round): their median, and their mean with its 95 %
      // interval, which says whether the rounds are enough to tell the way's cost from the machine's noise.
      const wallRatios = xs.map((s, i) => s.wall / base[i]!.wall);
      const cpuRatios = xs.map((s, i) => s.cpu / base[i]!.cpu);
      return [
        way,
        {
          'wall s (median)': median(xs.map((s) => s.wall)).toFixed(2),
          'CPU-s (median)': median(xs.map((s) => s.cpu)).toFixed(2),
          'wall ratio': median(wallRatios).toFixed(3),
          'CPU ratio': median(cpuRatios).toFixed(3),
          'wall added (mean, 95 %)': pct(interval(wallRatios)),
          'CPU added (mean, 95 %)': pct(interval(cpuRatios)),
          'call sites': xs[0]?.sites ?? 0,
        },
      ];
    }),
  );
  console.log(`\n${3 + GENERATED_TESTS} tests, ${process.env.BENCH_SERVER === 'dist' ? 'the bundle' : 'from source'}, medians of ${ROUNDS} rounds (CPU: ${meter.how}); load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  console.table(rows);

  if (PARTS_ROUNDS > 0) {
    mkdirSync(partsDir);
    await parts(0);
    const op: { cpu: number; wall: number }[] = [];
    const stack: number[] = [];
    for (let i = 0; i < PARTS_ROUNDS; i++) {
      // The order turns each round, as above: a (no operations) and b (PARTS_OPS of them).
      let a;
      let b;
      if (i % 2 === 0) {
        a = await parts(0);
        b = await parts(PARTS_OPS);
      } else {
        b = await parts(PARTS_OPS);
        a = await parts(0);
      }
      op.push({ cpu: ((b.cpu - a.cpu) * 1000) / PARTS_OPS, wall: ((b.wall - a.wall) * 1000) / PARTS_OPS });
      stack.push(b.out);
      console.log(`parts round ${i + 1}: 0 ops ${a.wall.toFixed(2)} s ${a.cpu.toFixed(2)} CPU-s, ${PARTS_OPS} ops ${b.wall.toFixed(2)} s ${b.cpu.toFixed(2)} CPU-s, a stack read ${b.out.toFixed(3)} CPU-ms`);
    }
    // The runner's own part, in the server's process: the hook's setup before Playwright starts, and the workers'
    // records read (with the contract) and joined to the report after it ends; on a kept attempt, 20 times.
    const kept = path.join(root, 'kept');
    await attempt(suiteDir, {}, (runDir) => cpSync(runDir, kept, { recursive: true }), sourceRunner);
    const keptPaths = browserPaths(kept);
    const report = JSON.parse(readFileSync(keptPaths.json, 'utf8')) as PlaywrightJsonReport;
    const own0 = process.cpuUsage();
    for (let i = 0; i < 20; i++) {
      await prepareHealing({ paths: keptPaths, suiteDir, mode: 'fail', fingerprints, log: () => undefined });
      await collectHealing({ paths: keptPaths, report, cells: false, runDir: kept });
    }
    const own = process.cpuUsage(own0);
    const runnerCpu = (own.user + own.system) / 1000 / 20;
    const opCpu = median(op.map((x) => x.cpu));
    const opWall = median(op.map((x) => x.wall));
    const stackCpu = median(stack);
    const sites = samples.fingerprints[0]?.sites ?? 0;
    // Every call site recorded once, and the stack read at each of its calls (two a call site here, an upper bound).
    const hookCpu = (sites * opCpu + 2 * sites * stackCpu + runnerCpu) / 1000;
    const hookWall = (sites * opWall) / 1000 / 2; // two workers share the call sites
    const baseCpu = median(base.map((s) => s.cpu));
    const baseWall = median(base.map((s) => s.wall));
    console.log(`\nThe hook's work, from its parts: a call site's fingerprint ${opCpu.toFixed(2)} CPU-ms (${opWall.toFixed(2)} ms wall), a stack read ${stackCpu.toFixed(3)} CPU-ms, the runner's setup and reading ${runnerCpu.toFixed(1)} CPU-ms; ${sites} call sites: ${hookCpu.toFixed(2)} CPU-s (${((hookCpu / baseCpu) * 100).toFixed(1)} % of ${baseCpu.toFixed(2)}) and ${hookWall.toFixed(2)} s of wall (${((hookWall / baseWall) * 100).toFixed(1)} % of ${baseWall.toFixed(2)}) an attempt`);
  }
} finally {
  await site.close();
  rmSync(root, { recursive: true, force: true });
  await meter.close();
}
