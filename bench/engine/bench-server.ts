import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CpuMeter, meterCpu } from './cpu.ts';
import { operatorApi } from '../server-process.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface RunTestOutcome {
  testName: string;
  status: string;
  error: string | null;
}

export interface RunOutcome {
  message: string;
  runId: string;
  status: string;
  tests: RunTestOutcome[];
}

/** One test of a run on the run's clock: its first attempt's start, its last attempt's end. */
export interface TestSpan {
  testName: string;
  start: number;
  end: number;
}

/** "Lighthouse home 0.1-9.8, Health check 22.0-22.4, ...", in the order the tests started. */
export const formatTimeline = (spans: TestSpan[]): string =>
  [...spans]
    .sort((a, b) => a.start - b.start)
    .map((t) => `${t.testName} ${t.start.toFixed(1)}-${t.end.toFixed(1)}`)
    .join(', ');

/** The product's own server on a fresh embedded database, as a bench drives it through the operator API. */
export interface BenchServer {
  pid: number;
  dataDir: string;
  /** The CPU of the server and everything it starts (runner processes, browsers, tools). */
  cpu: CpuMeter;
  base: string;
  /** The demo client (the only client of a fresh server). */
  demoClientId: string;
  /** An operator API call; throws on a status >= 400. */
  call<T>(method: string, urlPath: string, body?: unknown): Promise<T>;
  /** Runs all of a client's tests (or one) and answers when the run ends. */
  run(clientId: string, testName?: string): Promise<RunOutcome>;
  /** When each test of a demo run started and ended, in seconds from the run's creation (read as the demo client). */
  timeline(runId: string): Promise<TestSpan[]>;
  stop(): Promise<void>;
}

/**
 * BENCH_SERVER=dist runs the built server (`npm run build`, as `npm run serve` does); unset, its TypeScript source
 * through tsx, which is always the code in the working tree (a build may be older) but compiles each module on
 * first use.
 */
const SERVER_ARGS = process.env.BENCH_SERVER === 'dist' ? ['apps/server/dist/main.js'] : ['--import', 'tsx', 'apps/server/src/main.ts'];

/** How long a server may take to stop before it is killed. */
const STOP_GRACE_MS = 20_000;

/** The stops of the servers running now. */
const running = new Set<() => Promise<void>>();

/** Ctrl-C or a kill stops every server the bench started (and removes its data) before the bench exits. */
export function stopServersOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void Promise.allSettled([...running].map((stop) => stop())).then(() => process.exit(130)));
  }
}

/** Copies a built site, again while a build is rewriting it: until every script its index.html names is there. */
async function copyWholeSite(from: string, to: string): Promise<void> {
  for (let i = 0; ; i++) {
    rmSync(to, { recursive: true, force: true });
    cpSync(from, to, { recursive: true });
    const index = existsSync(path.join(to, 'index.html')) ? readFileSync(path.join(to, 'index.html'), 'utf8') : '';
    const scripts = [...index.matchAll(/src="\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
    if (scripts.length > 0 && scripts.every((s) => existsSync(path.join(to, s)))) return;
    if (i >= 60) throw new Error(`${from} holds no complete build (run npm run build)`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** Starts the server (NODE_ENV=production, demo suite imported, see SERVER_ARGS) with `env` on top. */
export async function startBenchServer(port: number, env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-bench-'));
  // The data folder is a package scope of its own: a package.json saying "type": "module" further up (one in /tmp
  // was seen) would make Playwright load the suites' specs as ES modules, which ignore NODE_PATH.
  writeFileSync(path.join(dataDir, 'package.json'), '{ "type": "commonjs" }\n');
  // The site as built when the bench started: a rebuild of apps/web/dist during the run (new bundle names) would
  // leave a running server answering pages whose scripts it no longer has.
  const webDist = path.join(dataDir, 'web-dist');
  await copyWholeSite(path.join(root, 'apps/web/dist'), webDist);
  const base = `http://127.0.0.1:${port}`;
  // BENCH_SERVER_DIST: another build of the server (a copy of apps/server/dist inside the repository, so that it finds
  // the same node_modules), to compare two builds in one series (BENCH_RUN_ALL_VARIANTS).
  const { BENCH_SERVER_DIST: otherBuild, ...serverEnv } = env;
  const server: ChildProcess = spawn(process.execPath, otherBuild ? [path.resolve(root, otherBuild, 'main.js')] : SERVER_ARGS, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_DIST_DIR: webDist, LOG_LEVEL: 'warn', NODE_ENV: 'production', ...serverEnv },
  });
  server.on('error', (err) => console.error(`bench server: ${err.message}`));
  const cpu = meterCpu(server.pid!);
  const exited = new Promise((r) => server.once('exit', r));
  const stop = async () => {
    running.delete(stop);
    if (server.exitCode === null) server.kill('SIGTERM');
    // A server stops once the requests in flight end, a run-all's `wait` among them: past the grace, it and
    // everything it started are killed.
    const timer = setTimeout(() => {
      for (const pid of [server.pid!, ...cpu.pids()]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }, STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
    await cpu.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  running.add(stop);
  try {
    for (let i = 0; ; i++) {
      if (await fetch(`${base}/healthz`).then((r) => r.ok).catch(() => false)) break;
      if (i > 240 || server.exitCode !== null) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 500));
    }
    const call = operatorApi(base, dataDir);
    const { clients } = await call<{ clients: { id: string }[] }>('GET', '/operator/clients');
    // The run's detail is the client's own route: the bench reads it as the demo user a fresh server has.
    let demoToken: Promise<string> | undefined;
    const demoGet = async <T>(urlPath: string): Promise<T> => {
      demoToken ??= fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'demo@fullstop.test', password: 'fullstop-demo' }),
      }).then(async (res) => ((await res.json()) as { accessToken: string }).accessToken);
      const res = await fetch(`${base}${urlPath}`, { headers: { authorization: `Bearer ${await demoToken}` } });
      if (!res.ok) throw new Error(`GET ${urlPath}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };
    const timeline = async (runId: string): Promise<TestSpan[]> => {
      const run = await demoGet<{ createdAt: string; tests: { testName: string; attempts: { startedAt: string; finishedAt: string | null }[] }[] }>(`/test/runs/${runId}`);
      const t0 = Date.parse(run.createdAt);
      return run.tests
        .filter((t) => t.attempts.length > 0)
        .map((t) => ({
          testName: t.testName,
          start: (Date.parse(t.attempts[0]!.startedAt) - t0) / 1000,
          end: (Date.parse(t.attempts.at(-1)!.finishedAt ?? t.attempts.at(-1)!.startedAt) - t0) / 1000,
        }));
    };
    return {
      pid: server.pid!,
      dataDir,
      cpu,
      base,
      demoClientId: clients[0]!.id,
      call,
      run: (clientId, testName) => call<RunOutcome>('POST', `/operator/clients/${clientId}/runs`, { wait: true, timeout: 900, ...(testName ? { testName } : {}) }),
      timeline,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

interface PlaywrightSuite {
  suites?: PlaywrightSuite[];
  specs?: { title: string; tests: { results: { status: string; errors?: { message?: string }[] }[] }[] }[];
}

/** The attempts' folders of a run, as the server stores them (storage/runs/<client>/<run>/<test>/attempt-N). */
function attemptDirs(dataDir: string, runId: string): string[] {
  const runsDir = path.join(dataDir, 'storage', 'runs');
  const found: string[] = [];
  for (const client of existsSync(runsDir) ? readdirSync(runsDir) : []) {
    const runDir = path.join(runsDir, client, runId);
    if (!existsSync(runDir)) continue;
    for (const runTest of readdirSync(runDir)) {
      for (const attempt of readdirSync(path.join(runDir, runTest)).filter((f) => f.startsWith('attempt-'))) found.push(path.join(runDir, runTest, attempt));
    }
  }
  return found;
}

/**
 * The Lighthouse scores of a run, a page each: "performance/accessibility/best-practices/seo", with "audited again
 * (CODE)" when Lighthouse lost its trace once (what the CPU beside it can cause, decisions 0069 and 0087).
 */
export function lighthouseScores(dataDir: string, runId: string): string[] {
  const found: string[] = [];
  for (const dir of attemptDirs(dataDir, runId)) {
    const file = path.join(dir, 'lighthouse', 'scores.json');
    if (!existsSync(file)) continue;
    const { pages } = JSON.parse(readFileSync(file, 'utf8')) as { pages: { scores: Record<string, number>; auditedAgain?: string; error?: string }[] };
    for (const page of pages) {
      const scores = ['performance', 'accessibility', 'best-practices', 'seo'].map((c) => page.scores[c] ?? '-').join('/');
      found.push(`${scores}${page.auditedAgain ? ` audited again (${page.auditedAgain})` : ''}${page.error ? ` error: ${page.error.slice(0, 80)}` : ''}`);
    }
  }
  return found;
}

/**
 * What failed inside the browser tests of a run, from Playwright's own report in each attempt's folder: "title:
 * first line of the error", so a bench says why a run did not pass.
 */
export function failedBrowserCases(dataDir: string, runId: string): string[] {
  const found: string[] = [];
  const walk = (suite: PlaywrightSuite) => {
    for (const child of suite.suites ?? []) walk(child);
    for (const spec of suite.specs ?? []) {
      for (const result of spec.tests.flatMap((t) => t.results)) {
        if (result.status === 'passed' || result.status === 'skipped') continue;
        // eslint-disable-next-line no-control-regex -- terminal colours in Playwright's messages
        const message = (result.errors?.[0]?.message ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim()).filter(Boolean).slice(0, 2).join(' ');
        found.push(`${spec.title} (${result.status}): ${message}`);
      }
    }
  };
  for (const dir of attemptDirs(dataDir, runId)) {
    const report = path.join(dir, 'browser', 'results.json');
    if (existsSync(report)) walk(JSON.parse(readFileSync(report, 'utf8')) as PlaywrightSuite);
  }
  return found;
}
