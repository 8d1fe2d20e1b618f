/**
 * Lighthouse (mobile, default simulated throttling) on every public route of the built app (the marketing
 * pages and /login), served by our own server on a temporary data directory. Each route is audited
 * LIGHTHOUSE_RUNS times (default 3, one pass over all routes per run); the table shows the lowest score per
 * category over the runs, because the target is ">= 95 in every run". Below it: every audit that cost a
 * route points in any run, the gzip size of the JavaScript that `/` loads, and whether any marketing page
 * loads portal or chart code.
 *
 *   npm run build && npm run bench:lighthouse
 *
 * LIGHTHOUSE_BASELINE_DIST=<a copy of an older apps/web/dist> audits that build too, in the same run, route by
 * route in alternating order, so both meet the same load; the figures to compare are those two tables.
 *
 * The build is copied to the temporary directory first, so a rebuild of apps/web/dist during the run (another
 * `npm run build` on the same tree) cannot hand an audit a half-written page.
 *
 * Lighthouse times the host CPU before each audit (its benchmark index) and warns below 1000 that the host is
 * too slow for its CPU model: the performance score of such a run measures the machine's load more than the
 * page. Such an audit is repeated, up to LIGHTHOUSE_SLOW_REPEATS times (default 3, 0 keeps every run); the
 * last attempt counts, flagged or not, and the table says how many were repeated. The table also gives how
 * much CPU the rest of the machine took during the audits (all CPU time on /proc/stat minus this process tree's),
 * which says how far to trust the performance column: total blocking time is the first figure to move with load.
 *
 * LIGHTHOUSE_PORT (default 3110, the baseline on the next port) picks the port; CHROMIUM_PATH (default
 * /usr/bin/chromium) the browser; LIGHTHOUSE_ROUTES (comma-separated) audits only those routes;
 * LIGHTHOUSE_JSON_DIR keeps each report's JSON.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { marketingPaths, paths } from '@fullstop/contracts';
import { CHROMIUM_FLAGS, DEFAULT_CHROMIUM_PATH } from '@fullstop/engine/chromium';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { machineCpuSeconds, treeCpuSeconds } from '../engine/cpu.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const webRoot = path.join(root, 'apps/web');
const port = Number(process.env.LIGHTHOUSE_PORT ?? 3110);
const chromePath = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const SLOW_REPEATS = Number(process.env.LIGHTHOUSE_SLOW_REPEATS ?? 3);
/** Lighthouse's own threshold (core/gather/driver/environment.js) for its "slower CPU than expected" warning. */
const SLOW_HOST_BENCHMARK_INDEX = 1000;
const jsonDir = process.env.LIGHTHOUSE_JSON_DIR;
const baselineDist = process.env.LIGHTHOUSE_BASELINE_DIST;
/** Every page a visitor reaches without an account. */
const PUBLIC_ROUTES = [...marketingPaths, paths.login];
const routes = process.env.LIGHTHOUSE_ROUTES ? process.env.LIGHTHOUSE_ROUTES.split(',') : PUBLIC_ROUTES;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];
const TARGET_SCORE = 95;
const JS_BUDGET_KB = 100;
const SERVER_START_TIMEOUT_MS = 60_000;
/** Source paths that must never reach a marketing page (/login is the portal's door and loads its shell). */
// The portal route table itself (paths, guards and the helper that gives each route its title) is in the main
// chunk by design; its pages are not.
const FORBIDDEN_MODULES = [/src\/features\/portal\/(?!routes\.tsx$|components\/route-title\.ts$)/, /node_modules\/recharts\//, /node_modules\/@reduxjs\//, /node_modules\/react-redux\//];
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS];

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The compiled server when the build made one, the TypeScript sources otherwise. */
function serverArgs(): string[] {
  const bundle = path.join(root, 'apps/server/dist/main.js');
  return existsSync(bundle) ? [bundle] : ['--import', 'tsx', 'apps/server/src/main.ts'];
}

/** One build under test, served by its own server. */
interface Target {
  name: 'build' | 'baseline';
  base: string;
  server: ChildProcess;
}

async function startServer(name: Target['name'], serverPort: number, dist: string, dataDir: string): Promise<Target> {
  const base = `http://127.0.0.1:${serverPort}`;
  const server = spawn(process.execPath, serverArgs(), {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(serverPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST_DIR: dist,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  server.on('error', (error) => console.error(`${name} server: ${error.message}`));
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`${name} server exited with code ${server.exitCode}`);
    try {
      if ((await get(`${base}/healthz`)).status === 200) return { name, base, server };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  server.kill();
  throw new Error(`${name} server did not answer ${base}/healthz within ${SERVER_START_TIMEOUT_MS} ms`);
}

/** CPU-seconds the machine worked and this process tree's share, with the wall clock, at one instant. */
function cpuNow(): { machine: number; ours: number; at: number } {
  return { machine: machineCpuSeconds(), ours: treeCpuSeconds(process.pid), at: performance.now() };
}

interface RouteRun {
  target: Target['name'];
  route: string;
  scores: Record<Category, number>;
  scripts: string[];
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Audits that weigh in a category and did not get full marks: `category: id` with their score. */
  losses: [string, number][];
  /** What DevTools' Issues panel and the console logged, which costs best-practices points. */
  issues: string[];
  /** Lighthouse's measure of the host CPU just before this audit. */
  benchmarkIndex: number;
  /** Cores' worth of CPU the rest of the machine used during the audit. */
  otherCpu: number | null;
  /** Audits of this run discarded because the host was too slow. */
  repeats: number;
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

function lossesOf(lhr: Lhr): [string, number][] {
  const out: [string, number][] = [];
  for (const c of CATEGORIES) {
    for (const ref of lhr.categories[c]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (ref.weight > 0 && a && a.score !== null && a.score < 1) out.push([`${c}: ${ref.id}`, a.score]);
    }
  }
  return out;
}

function issuesOf(lhr: Lhr): string[] {
  const items = (id: string) => (lhr.audits[id]?.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
  return [
    ...items('inspector-issues').map((i) => `issue: ${String(i.issueType)}`),
    ...items('errors-in-console').map((i) => `console: ${String(i.description).slice(0, 160)}`),
  ];
}

async function audit(chromePort: number, target: Target, route: string, run: number): Promise<RouteRun> {
  const before = cpuNow();
  const result = await lighthouse(`${target.base}${route}`, {
    port: chromePort,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
  });
  const after = cpuNow();
  if (!result) throw new Error(`lighthouse returned nothing for ${route}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${route}: ${lhr.runtimeError.message}`);
  if (jsonDir) {
    mkdirSync(jsonDir, { recursive: true });
    writeFileSync(path.join(jsonDir, `${target.name}${route.replace(/\W+/g, '_')}-${run}.json`), JSON.stringify(lhr));
  }
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])) as RouteRun['scores'];
  const requests = (lhr.audits['network-requests']?.details as { items?: { url: string; resourceType?: string }[] } | undefined)?.items ?? [];
  const scripts = requests.filter((r) => r.resourceType === 'Script' && r.url.startsWith(target.base)).map((r) => new URL(r.url).pathname);
  return {
    target: target.name,
    route,
    scores,
    scripts,
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
    losses: lossesOf(lhr),
    issues: issuesOf(lhr),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    otherCpu: (after.machine - before.machine - (after.ours - before.ours)) / ((after.at - before.at) / 1000),
    repeats: 0,
  };
}

/** Lighthouse sometimes loses a trace on a busy machine (NO_NAVSTART, NO_FCP); such a run is repeated. */
const ATTEMPTS = 3;
async function auditWithRetry(chromePort: number, target: Target, route: string, run: number): Promise<RouteRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit(chromePort, target, route, run);
    } catch (error) {
      if (attempt >= ATTEMPTS) throw error;
      console.error(`  ${route}: ${(error as Error).message}; retrying`);
    }
  }
}

async function auditOnSteadyHost(chromePort: number, target: Target, route: string, run: number): Promise<RouteRun> {
  for (let repeats = 0; ; repeats++) {
    const r = await auditWithRetry(chromePort, target, route, run);
    if (r.benchmarkIndex >= SLOW_HOST_BENCHMARK_INDEX || repeats >= SLOW_REPEATS) return { ...r, repeats };
    console.error(`  run ${run} ${target.name} ${route}: host benchmark index ${Math.round(r.benchmarkIndex)} < ${SLOW_HOST_BENCHMARK_INDEX}; repeating`);
  }
}

function forbiddenIn(scripts: string[], chunkModules: Record<string, string[]>): string[] {
  const hits: string[] = [];
  for (const script of scripts) {
    const modules = chunkModules[script.replace(/^\//, '')] ?? [];
    for (const m of modules) if (FORBIDDEN_MODULES.some((re) => re.test(m))) hits.push(`${script}: ${m}`);
  }
  return hits;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const pad = (s: string | number, n: number) => String(s).padEnd(n);

/** The table of one build's runs; returns the route-categories below the target. */
function printTable(title: string, runs: RouteRun[]): string[] {
  console.log(`\n${title}\n`);
  console.log(`${pad('route', 20)}${CATEGORIES.map((c) => pad(c, 16)).join('')}${pad('LCP ms', 9)}${pad('TBT ms', 9)}${pad('CLS', 8)}host (other load: median-max)`);
  const low: string[] = [];
  for (const route of routes) {
    const mine = runs.filter((r) => r.route === route);
    const min = Object.fromEntries(CATEGORIES.map((c) => [c, Math.min(...mine.map((r) => r.scores[c]))])) as Record<Category, number>;
    const range = (c: Category) => {
      const max = Math.max(...mine.map((r) => r.scores[c]));
      return max === min[c] ? String(min[c]) : `${min[c]} (${max})`;
    };
    low.push(...CATEGORIES.filter((c) => min[c] < TARGET_SCORE).map((c) => `${route} ${c} ${min[c]}`));
    const others = mine.map((r) => r.otherCpu).filter((p): p is number => p !== null);
    const pressure = others.length ? `, others ${median(others).toFixed(1)}-${Math.max(...others).toFixed(1)} cores` : '';
    console.log(
      `${pad(route, 20)}${CATEGORIES.map((c) => pad(range(c), 16)).join('')}${pad(Math.round(median(mine.map((r) => r.lcpMs))), 9)}` +
        `${pad(Math.round(median(mine.map((r) => r.tbtMs))), 9)}${pad(Math.max(...mine.map((r) => r.cls)).toFixed(3), 8)}` +
        `index ${Math.round(Math.min(...mine.map((r) => r.benchmarkIndex)))}, ${mine.reduce((n, r) => n + r.repeats, 0)} repeated${pressure}`,
    );
  }
  console.log('\nWhat cost points (audit, worst score over the runs):');
  for (const route of routes) {
    const mine = runs.filter((r) => r.route === route);
    const worst = new Map<string, number>();
    for (const [key, score] of mine.flatMap((r) => r.losses)) worst.set(key, Math.min(worst.get(key) ?? 1, score));
    const issues = [...new Set(mine.flatMap((r) => r.issues))];
    const list = [...[...worst].map(([k, s]) => `${k} ${s.toFixed(2)}`), ...issues];
    console.log(`  ${route}: ${list.length ? list.join('; ') : 'nothing'}`);
  }
  return low;
}

async function main(): Promise<void> {
  const dist = path.join(webRoot, 'dist');
  if (!existsSync(path.join(dist, 'index.html'))) throw new Error('apps/web/dist is missing: run "npm run build" first');
  if (baselineDist && !existsSync(path.join(baselineDist, 'index.html'))) throw new Error(`${baselineDist} holds no build`);
  const chunkMapFile = path.join(webRoot, 'node_modules/.cache/fullstop-web/chunk-modules.json');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'fullstop-lighthouse-'));
  const chunkModules = existsSync(chunkMapFile) ? (JSON.parse(readFileSync(chunkMapFile, 'utf8')) as Record<string, string[]>) : null;
  cpSync(dist, path.join(tmp, 'build'), { recursive: true });

  const targets: Target[] = [];
  const runs: RouteRun[] = [];
  let homeGzip = 0;
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    targets.push(await startServer('build', port, path.join(tmp, 'build'), path.join(tmp, 'data-build')));
    if (baselineDist) targets.push(await startServer('baseline', port + 1, path.resolve(baselineDist), path.join(tmp, 'data-baseline')));
    chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
    // One page at a time: each audit takes ~300 MB and both cores. Whole passes, so a burst of load from
    // elsewhere on the machine lands on different routes in different runs; with a baseline, the two builds
    // take turns going first.
    for (let run = 1; run <= RUNS; run++) {
      for (const route of routes) {
        for (const target of run % 2 ? targets : [...targets].reverse()) {
          const r = await auditOnSteadyHost(chrome.port, target, route, run);
          runs.push(r);
          const others = r.otherCpu === null ? '' : `, others ${r.otherCpu.toFixed(1)} cores`;
          console.error(
            `  run ${run} ${target.name} ${route}: ${CATEGORIES.map((c) => r.scores[c]).join(' / ')} (TBT ${Math.round(r.tbtMs)} ms, host index ${Math.round(r.benchmarkIndex)}${others})`,
          );
        }
      }
    }
    // Measured from our own server with gzip only, so the figure does not depend on brotli support.
    const build = targets[0];
    for (const script of runs.find((r) => r.target === 'build' && r.route === '/')?.scripts ?? []) {
      if (build) homeGzip += (await get(`${build.base}${script}`, { 'accept-encoding': 'gzip' })).bytes;
    }
  } finally {
    await chrome?.kill();
    for (const t of targets) t.server.kill();
    rmSync(tmp, { recursive: true, force: true });
  }

  const setting = '(mobile, simulated throttling)';
  const built = runs.filter((r) => r.target === 'build');
  if (baselineDist) printTable(`Baseline ${baselineDist} ${setting}: lowest score of ${RUNS} runs (highest in brackets)`, runs.filter((r) => r.target === 'baseline'));
  const low = printTable(`Lighthouse ${setting} on apps/web/dist: lowest score of ${RUNS} runs (highest in brackets); LCP and TBT median, CLS worst`, built);

  const home = built.find((r) => r.route === '/');
  const homeKb = homeGzip / 1024;
  const marketing = built.filter((r) => marketingPaths.includes(r.route));
  const forbidden = chunkModules ? [...new Set(marketing.flatMap((r) => forbiddenIn(r.scripts, chunkModules).map((h) => `${r.route} -> ${h}`)))] : null;

  if (home) {
    console.log(`\nJS loaded by /: ${home.scripts.length} files, ${homeKb.toFixed(1)} KB gzip (budget ${JS_BUDGET_KB} KB)`);
    for (const s of home.scripts) console.log(`  ${s}`);
  }
  if (forbidden === null) console.log('Portal/chart check: skipped (no chunk map; rebuild with "npm run build")');
  else if (forbidden.length === 0) console.log('Portal/chart check: no marketing page loads portal, Redux or Recharts code');
  else console.log(`Portal/chart check: FAILED\n  ${forbidden.join('\n  ')}`);
  console.log(low.length ? `\nBelow ${TARGET_SCORE}: ${low.join(', ')}` : `\nEvery category >= ${TARGET_SCORE} on every route in all ${RUNS} runs.`);
  if (low.length || (home && homeKb > JS_BUDGET_KB) || (forbidden && forbidden.length)) process.exitCode = 1;
}

await main();
