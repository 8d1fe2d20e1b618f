/**
 * `node --import tsx bench/engine/healing.ts [rounds]` (default 5): what fingerprints (decision 0101) add to a
 * passing browser attempt. One suite, run in turn in three ways in the same run: without the healing hook (the
 * runner's bench-only `healingFingerprints: false`), recording fingerprints (every attempt does, the default), and
 * recording with the last passing run's fingerprints given (every call site then takes the healing path, and nothing
 * needs healing). The suite: the healing fixture's (test/fixtures/healing-suite, 3 tests) and 8 generated tests of 6
 * actions and assertions each on the healing site's first version (48 more call sites), 2 Playwright workers.
 * Per way: wall and CPU-seconds of this process and all it starts (its cgroup where possible), medians and ratios
 * to the first way. Figures, never pass/fail; the goal is under 5 %.
 *
 * `BENCH_SERVER=dist` (after `npm run build`) runs the server bundle's browser runner, as `npm start` does: Playwright's
 * workers then load the bundled hook (a few .js chunks) instead of its TypeScript source, which Node strips of types
 * file by file (about 110 ms of CPU a worker for install.ts's graph, against 8 bundled).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { browserRunner as sourceRunner } from '../../packages/engine/src/runners/browser/index.ts';
import { startHealingSite } from '../../packages/engine/test/fixtures/healing-site.ts';
import { meterCpu } from './cpu.ts';
import { DEFAULT_CHROMIUM_PATH } from '@fullstop/engine/chromium';

const ROUNDS = Number(process.argv[2] ?? 5);

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

async function once(way: Way): Promise<Sample> {
  const runDir = path.join(root, `attempt-${++counter}`);
  const cpu0 = meter.seconds();
  const started = performance.now();
  const result = await browserRunner.run(
    { name: 'Healing', group: 'G', kind: 'browser', options: {}, suiteDir },
    { baseUrl: site.url, allowedOrigins: [], allowPrivateAddresses: true },
    {
      runDir,
      chromiumPath: CHROMIUM_PATH,
      workers: 2,
      signal: new AbortController().signal,
      log: () => undefined,
      ...(way === 'no hook' ? { healingFingerprints: false } : way === 'fingerprints + healing input' ? { healingFingerprints: fingerprints } : {}),
    },
  );
  const wall = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, PAUSE_MS));
  const cpu = meter.seconds() - cpu0;
  if (result.status !== 'passed') throw new Error(`${way}: ${result.status} ${result.error ?? ''} ${JSON.stringify(result.summary).slice(0, 2000)}`);
  let sites = 0;
  if (way !== 'no hook') {
    const text = readFileSync(path.join(runDir, 'browser/fingerprints.json'), 'utf8');
    sites = (JSON.parse(text) as { sites: unknown[] }).sites.length;
    if (way === 'fingerprints') writeFileSync(fingerprints, text);
  }
  rmSync(runDir, { recursive: true, force: true });
  return { wall, cpu, sites };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
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
      // Ratios per round (each against the baseline of its own round), then their median.
      const wallRatio = median(xs.map((s, i) => s.wall / base[i]!.wall));
      const cpuRatio = median(xs.map((s, i) => s.cpu / base[i]!.cpu));
      return [
        way,
        {
          'wall s (median)': median(xs.map((s) => s.wall)).toFixed(2),
          'CPU-s (median)': median(xs.map((s) => s.cpu)).toFixed(2),
          'wall ratio': wallRatio.toFixed(3),
          'CPU ratio': cpuRatio.toFixed(3),
          'call sites': xs[0]?.sites ?? 0,
        },
      ];
    }),
  );
  console.log(`\n${3 + GENERATED_TESTS} tests, ${process.env.BENCH_SERVER === 'dist' ? 'the bundle' : 'from source'}, medians of ${ROUNDS} rounds (CPU: ${meter.how}); load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  console.table(rows);
} finally {
  await site.close();
  rmSync(root, { recursive: true, force: true });
  await meter.close();
}
