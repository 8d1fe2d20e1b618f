/**
 * Engine benchmarks: figures, never pass/fail (see ../README.md).
 *  1. The load runner's requests per second against wrk, on the same local target, in the same run (target >= 0.9).
 *  2. A 10-test browser suite with 1 and 2 Playwright workers: wall times.
 *  3. Run-all wall time of the demo suite against its longest single test, through the server (queue + workers).
 * Needs wrk (`apt-get install -y wrk`).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { browserRunner, loadRunner, type RunContext, type RunTarget } from '@fullstop/engine';
import { startHardenedServer } from '../../packages/engine/test/fixtures/hardened-server.ts';
import { startTargetProcess } from './target-process.ts';
import { measureRunAll } from './run-all.ts';
import { wrkRequestsPerSecond } from './wrk.ts';
import { DEFAULT_CHROMIUM_PATH } from '@fullstop/engine/chromium';

const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
/** Each figure is measured at every one of these connection counts. */
const LOAD_CONNECTIONS = (process.env.BENCH_LOAD_CONNECTIONS ?? '10,200').split(',').map(Number);
/** Which parts run: any of load, browser, run-all. */
const PARTS = new Set((process.env.BENCH_ENGINE_PARTS ?? 'load,browser,run-all').split(','));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;

async function context(root: string, name: string, workers = 1): Promise<RunContext> {
  const runDir = path.join(root, name);
  await mkdir(runDir, { recursive: true });
  return { runDir, signal: new AbortController().signal, chromiumPath: CHROMIUM_PATH, workers, log: () => undefined };
}

const local = (baseUrl: string): RunTarget => ({ baseUrl, allowedOrigins: [], allowPrivateAddresses: true });

/** The target's own count of the requests it received (this request included). */
async function targetCount(url: string): Promise<number> {
  return Number(await (await fetch(`${url}/__count`)).text());
}

/** Plain autocannon (its own runner, nothing recorded per response): what the load runner is built on. */
async function autocannonRequestsPerSecond(url: string, connections: number, seconds: number): Promise<number> {
  const result = await autocannon({ url, connections, duration: seconds });
  return result.requests.total / result.duration;
}

async function loadVersusWrk(root: string, connections: number): Promise<void> {
  const target = await startTargetProcess();
  try {
    console.log(`\n## Load runner vs wrk (${connections} connections, ${LOAD_SECONDS} s, ${ROUNDS} rounds, target in its own process)`);
    const ratios: number[] = [];
    const totals = { wrk: 0, runner: 0, autocannon: 0 };
    let truth = true;
    for (let round = 1; round <= ROUNDS; round++) {
      let wrk = 0;
      let runner = 0;
      let plain = 0;
      let line = '';
      const turns: (() => Promise<void>)[] = [
        async () => {
          wrk = await wrkRequestsPerSecond(`${target.url}/`, connections, LOAD_SECONDS);
        },
        async () => {
          const before = await targetCount(target.url);
          const result = await loadRunner.run(
            { name: 'bench load', group: 'bench', kind: 'load', options: { connections, durationSeconds: LOAD_SECONDS } },
            local(`${target.url}/`),
            await context(root, `load-${connections}-${round}`),
          );
          // What the target served between the two counts, less the second count's own request.
          const served = (await targetCount(target.url)) - before - 1;
          if (result.summary.kind !== 'load') throw new Error(result.error ?? 'load run failed');
          const l = result.summary.load;
          truth &&= l.totalRequests === served;
          runner = result.summary.requestsPerSecond ?? 0;
          line = `(runner: ${l.totalRequests} requests, target served ${served}, p95 ${l.ninetyFifthPercentileResponseTime.toFixed(3)} ms, avg ${l.averageResponseTime.toFixed(3)} ms)`;
        },
        async () => {
          plain = await autocannonRequestsPerSecond(`${target.url}/`, connections, LOAD_SECONDS);
        },
      ];
      // Turns rotate who goes first, so a burst of load from the rest of the machine does not always hit the same one.
      const order = [...turns.slice((round - 1) % 3), ...turns.slice(0, (round - 1) % 3)];
      for (const turn of order) await turn();
      ratios.push(runner / wrk);
      totals.runner += runner;
      totals.wrk += wrk;
      totals.autocannon += plain;
      console.log(
        `round ${round}: wrk ${wrk.toFixed(0)} req/s, load runner ${runner.toFixed(0)} req/s (ratio ${(runner / wrk).toFixed(3)}), ` +
          `plain autocannon ${plain.toFixed(0)} req/s (ratio ${(plain / wrk).toFixed(3)}) ${line}`,
      );
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    // The machine is shared: rounds swing both ways, so the pooled and median ratios are the figures to read.
    console.log(
      `load runner / wrk: pooled ${(totals.runner / totals.wrk).toFixed(3)}, median ${median.toFixed(3)}, range ${sorted[0]?.toFixed(3)}-${sorted.at(-1)?.toFixed(3)} (target >= 0.9); ` +
        `plain autocannon / wrk: pooled ${(totals.autocannon / totals.wrk).toFixed(3)}; runner totals equal the target's own count: ${truth ? 'yes' : 'NO'}`,
    );
  } finally {
    target.stop();
  }
}

const SPEC = (i: number) => `
test('visitor journey ${i}', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Hardened' })).toBeVisible();
  await page.getByRole('link', { name: 'About us' }).click();
  await expect(page.getByRole('heading', { name: 'About' })).toBeVisible();
});
`;

async function browserWorkers(root: string): Promise<void> {
  const server = await startHardenedServer();
  const suiteDir = path.join(root, 'suite');
  await mkdir(suiteDir, { recursive: true });
  await writeFile(
    path.join(suiteDir, 'journeys.spec.ts'),
    `import { expect, test } from '@playwright/test';\n${Array.from({ length: 10 }, (_, i) => SPEC(i + 1)).join('')}`,
  );
  try {
    console.log('\n## 10-test browser suite (Debian Chromium, fullyParallel)');
    for (const workers of [1, 2]) {
      const started = performance.now();
      const result = await browserRunner.run(
        { name: 'bench browser', group: 'bench', kind: 'browser', options: {}, suiteDir },
        local(server.url),
        await context(root, `browser-${workers}`, workers),
      );
      const wall = (performance.now() - started) / 1000;
      console.log(
        `workers ${workers}: wall ${wall.toFixed(1)} s (Playwright's own duration ${(result.durationMs / 1000).toFixed(1)} s), ` +
          `${result.totals.passedTests}/${result.totals.totalTests} passed${result.error ? `, error: ${result.error}` : ''}`,
      );
    }
  } finally {
    await server.close();
  }
}

/** Run-all wall time of the demo suite against its longest single test (target <= 1.2), through the server. */
async function runAllVsLongest(): Promise<void> {
  console.log('\n## Run all vs longest single test (demo suite, through the server)');
  const figures = await measureRunAll();
  for (const t of figures.singleTests) console.log(`  alone: ${t.name.padEnd(24)} ${t.seconds.toFixed(1)} s`);
  console.log(
    `run all: ${figures.runAllSeconds.toFixed(1)} s with ${figures.workers} workers; longest alone: ` +
      `${figures.longestTest.name} ${figures.longestTest.seconds.toFixed(1)} s; ratio ${figures.ratio.toFixed(2)} (target <= 1.2)`,
  );
}

const root = await mkdtemp(path.join(tmpdir(), 'fullstop-bench-engine-'));
try {
  if (PARTS.has('load')) for (const connections of LOAD_CONNECTIONS) await loadVersusWrk(root, connections);
  if (PARTS.has('browser')) await browserWorkers(root);
  if (PARTS.has('run-all')) await runAllVsLongest();
} finally {
  await rm(root, { recursive: true, force: true });
}
