import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../../apps/server/scripts/build.ts';
import { operatorApi } from '../server-process.ts';
import { treeCpuSeconds } from '../engine/cpu.ts';

/**
 * The server at rest: started on a fresh data directory (embedded database, demo client imported), asked for
 * GET /readyz until it answers, left alone SETTLE seconds, then every process of its tree measured (RSS and PSS
 * from /proc). Each way of starting it runs ROUNDS times, interleaved, so the machine's noise falls on all of
 * them alike: from the TypeScript source through tsx (the baseline, what `npm start` ran before decision 0067)
 * and compiled (`npm start` now). Linux only.
 *
 * Then the server after work (issue 40): started as `npm start` runs it, measured fresh at rest as above, then the
 * demo client's "Run all tests" three times, one after the other, and the tree measured every 5 s up to 30 s after
 * the last one ended; then one test run alone, timed (what the next run pays for what was given back). Figures,
 * never pass/fail.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const out = path.join(root, 'bench/.output');
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 15);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const READY_TIMEOUT_MS = 180_000;
/** Which parts run: `at-rest` (the five ways of starting, above) and `after-work`. */
const PARTS = new Set((process.env.BENCH_REST_PARTS ?? 'at-rest,after-work').split(','));
const RUN_ALLS = Number(process.env.BENCH_RUN_ALLS ?? 3);
const AFTER_WORK_SECONDS = Number(process.env.BENCH_AFTER_WORK_SECONDS ?? 30);
const AFTER_WORK_SAMPLE_SECONDS = 5;
const AFTER_WORK_ROUNDS = Number(process.env.BENCH_AFTER_WORK_ROUNDS ?? 1);
/** After work's fresh measure: the tree's CPU over this many seconds more at rest (what its idle loops cost). */
const IDLE_CPU_SECONDS = Number(process.env.BENCH_IDLE_CPU_SECONDS ?? 30);
/** The test run alone after the measurements: an API test, whose time is mostly its runner process's start. */
const NEXT_TEST = process.env.BENCH_NEXT_TEST ?? 'Health check';
/**
 * The builds measured after work, `name=dir,name=dir`, taking turns: dir is a build of the server inside the
 * repository (a copy of apps/server/dist, so that it finds the same node_modules), e.g. the build before a change,
 * `before=apps/server/dist-before,after=apps/server/dist`. Each runs as `npm start` runs apps/server/dist.
 */
const AFTER_WORK_BUILDS = (process.env.BENCH_AFTER_WORK_BUILDS ?? 'npm start=apps/server/dist').split(',').map((entry) => {
  const [name, dir] = entry.includes('=') ? [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)] : [entry, entry];
  return { name: name!, dir: dir! };
});

interface Variant {
  name: string;
  args: string[];
  env?: Record<string, string>;
}

/**
 * What `npm start` runs once built: the root package.json's `serve`
 * (`VAR=value … node <flags> apps/server/dist/main.js`), its leading assignments as the environment.
 */
const serve = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { serve: string } }).scripts.serve;
const serveWords = serve.trim().split(/\s+/);
const serveEnv = Object.fromEntries(
  serveWords.filter((w) => /^[A-Z_][A-Z0-9_]*=/.test(w)).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]),
);
const serveArgs = serveWords.slice(serveWords.indexOf('node') + 1);

const VARIANTS: Variant[] = [
  { name: 'source (tsx)', args: ['--import', 'tsx', 'apps/server/src/main.ts'] },
  { name: 'compiled, V8 defaults', args: ['apps/server/dist/main.js'] },
  // npm start as it was before decision 0081: PGlite's 128 MB buffer pool, glibc's malloc defaults.
  { name: 'compiled, V8 flags only', args: serveArgs, env: { PGLITE_SHARED_BUFFERS_MB: '128', GLIBC_TUNABLES: '' } },
  { name: 'compiled + 16 MB buffers', args: serveArgs, env: { GLIBC_TUNABLES: '' } },
  { name: 'compiled (npm start)', args: serveArgs, env: serveEnv },
];


interface ProcessFigures {
  pid: number;
  role: string;
  rssMb: number;
  pssMb: number;
}

interface Sample {
  variant: string;
  readyMs: number;
  processes: ProcessFigures[];
  totalRssMb: number;
  totalPssMb: number;
}

const mb = (kb: number) => Math.round(kb / 1024);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Every descendant of `pid` (and itself), from the parent pids in /proc. */
function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command may hold spaces and parentheses: the fields after its closing parenthesis are fixed.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(name), ppid);
    } catch {
      // Gone meanwhile.
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  return tree;
}

function roleOf(pid: number, apiPid: number): string {
  if (pid === apiPid) return 'API process';
  const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  if (cmd.includes('esbuild')) return 'esbuild service (tsx)';
  if (cmd.includes('launcher')) return 'launcher';
  if (cmd.includes('runner-host')) return 'runner process';
  if (/chrom/i.test(cmd)) return 'Chromium';
  return cmd.slice(0, 60);
}

function measure(pid: number, apiPid: number): ProcessFigures | null {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0);
    return { pid, role: roleOf(pid, apiPid), rssMb: mb(field('Rss')), pssMb: mb(field('Pss')) };
  } catch {
    return null;
  }
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (code ${child.exitCode}) before it was ready`);
    const status = await fetch(url, { signal: AbortSignal.timeout(2000) }).then((r) => r.status, () => 0);
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no 200 from ${url} within ${READY_TIMEOUT_MS} ms`);
}

/** Every process of the server's tree, measured now. */
function measureTree(apiPid: number): Pick<Sample, 'processes' | 'totalRssMb' | 'totalPssMb'> {
  const processes = processTree(apiPid)
    .map((pid) => measure(pid, apiPid))
    .filter((p): p is ProcessFigures => p !== null);
  const total = (key: 'rssMb' | 'pssMb') => processes.reduce((sum, p) => sum + p[key], 0);
  return { processes, totalRssMb: total('rssMb'), totalPssMb: total('pssMb') };
}

interface StartedServer {
  child: ChildProcess;
  port: number;
  dataDir: string;
  readyMs: number;
  stop(): Promise<void>;
}

/** Starts a server on a fresh data directory and answers once GET /readyz says 200. */
async function startServer(variant: Variant, label: string): Promise<StartedServer> {
  const dataDir = path.join(out, `rest-${process.pid}-${label.replace(/\W+/g, '-')}`);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  // The data folder is a package scope of its own: the repository's "type": "module" would make Playwright load the
  // demo's specs as ES modules (bench/engine/bench-server.ts).
  writeFileSync(path.join(dataDir, 'package.json'), '{ "type": "commonjs" }\n');
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, variant.args, {
    cwd: root,
    env: { ...process.env, ...variant.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.on('error', (err) => (stderr += `spawn: ${err.message}\n`));
  child.stderr!.on('error', () => {});
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const stop = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitReady(`http://127.0.0.1:${port}/readyz`, child).catch((err: Error) => {
      throw new Error(`${variant.name}: ${err.message}\n${stderr}`);
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { child, port, dataDir, readyMs: Math.round(performance.now() - started), stop };
}

async function sample(variant: Variant, round: number): Promise<Sample> {
  const server = await startServer(variant, `${round}-${variant.name}`);
  try {
    await new Promise((r) => setTimeout(r, SETTLE_SECONDS * 1000));
    return { variant: variant.name, readyMs: server.readyMs, ...measureTree(server.child.pid!) };
  } finally {
    await server.stop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function atRest(): Promise<void> {
  const samples: Sample[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const variant of VARIANTS) {
      const s = await sample(variant, round);
      samples.push(s);
      const parts = s.processes.map((p) => `${p.role} ${p.rssMb}/${p.pssMb}`).join(', ');
      console.log(`round ${round} ${s.variant}: ready in ${s.readyMs} ms; RSS/PSS MB: ${parts}; total ${s.totalRssMb}/${s.totalPssMb}`);
    }
  }
  const baseline = median(samples.filter((s) => s.variant === VARIANTS[0]!.name).map((s) => s.totalRssMb));
  console.log(`\nmedian of ${ROUNDS} rounds, ${SETTLE_SECONDS} s after /readyz (MB):\n`);
  console.log('| start | ready (ms) | API process RSS | API process PSS | other processes (RSS) | tree RSS | tree PSS | RSS vs baseline |');
  console.log('| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |');
  for (const variant of VARIANTS) {
    const mine = samples.filter((s) => s.variant === variant.name);
    const api = (key: 'rssMb' | 'pssMb') => median(mine.map((s) => s.processes.find((p) => p.role === 'API process')?.[key] ?? 0));
    // A process that was there in some rounds only (tsx's esbuild service stops when idle) says in how many.
    const others = [...new Set(mine.flatMap((s) => s.processes.filter((p) => p.role !== 'API process').map((p) => p.role)))]
      .map((role) => {
        const seen = mine.map((s) => s.processes.filter((p) => p.role === role)).filter((ps) => ps.length > 0);
        const rss = median(seen.map((ps) => ps.reduce((sum, p) => sum + p.rssMb, 0)));
        return seen.length === mine.length ? `${role} ${rss}` : `${role} ${rss} (${seen.length} of ${mine.length} rounds)`;
      })
      .join(', ');
    const rss = median(mine.map((s) => s.totalRssMb));
    console.log(
      `| ${variant.name} | ${median(mine.map((s) => s.readyMs))} | ${api('rssMb')} | ${api('pssMb')} | ${others || 'none'} | ${rss} | ${median(mine.map((s) => s.totalPssMb))} | ${(rss / baseline).toFixed(2)} |`,
    );
  }
  writeFileSync(path.join(out, 'rest.json'), `${JSON.stringify(samples, null, 2)}\n`);
}

/** Runs the demo client's tests (all of them, or one) through the operator API, as bench/engine/bench-server.ts does. */
async function runTests(server: StartedServer, testName?: string): Promise<{ status: string; message: string; seconds: number }> {
  const base = `http://127.0.0.1:${server.port}`;
  const call = operatorApi(base, server.dataDir);
  const { clients } = await call<{ clients: { id: string }[] }>('GET', '/operator/clients');
  const started = performance.now();
  const run = await call<{ status: string; message: string }>('POST', `/operator/clients/${clients[0]!.id}/runs`, { wait: true, timeout: 900, ...(testName ? { testName } : {}) });
  return { status: run.status, message: run.message, seconds: Math.round((performance.now() - started) / 100) / 10 };
}

interface AfterWork {
  build: string;
  fresh: ReturnType<typeof measureTree>;
  /** CPU-seconds the fresh tree used over IDLE_CPU_SECONDS at rest. */
  idleCpu: number;
  /** Seconds after the last run-all ended → the tree then. */
  after: { seconds: number; tree: ReturnType<typeof measureTree> }[];
  runAlls: { status: string; seconds: number }[];
  nextTestSeconds: number;
}

const describeTree = (tree: ReturnType<typeof measureTree>) =>
  `${tree.totalRssMb}/${tree.totalPssMb} (${tree.processes.map((p) => `${p.role} ${p.rssMb}/${p.pssMb}`).join(', ')})`;

async function afterWork(build: { name: string; dir: string }, round: number): Promise<AfterWork> {
  const main = path.join(build.dir, 'main.js');
  const variant: Variant = { name: build.name, args: serveArgs.map((a) => (a === 'apps/server/dist/main.js' ? main : a)), env: serveEnv };
  const server = await startServer(variant, `after-work-${round}-${build.name}`);
  try {
    await new Promise((r) => setTimeout(r, SETTLE_SECONDS * 1000));
    const fresh = measureTree(server.child.pid!);
    console.log(`${build.name}: ready in ${server.readyMs} ms; fresh, ${SETTLE_SECONDS} s after /readyz, tree RSS/PSS MB ${describeTree(fresh)}`);
    const cpu0 = treeCpuSeconds(server.child.pid!);
    await new Promise((r) => setTimeout(r, IDLE_CPU_SECONDS * 1000));
    const idleCpu = treeCpuSeconds(server.child.pid!) - cpu0;
    console.log(`${build.name}: at rest ${IDLE_CPU_SECONDS} s more, tree CPU ${idleCpu.toFixed(2)} CPU-s`);
    const runAlls: AfterWork['runAlls'] = [];
    for (let i = 1; i <= RUN_ALLS; i++) {
      const run = await runTests(server);
      runAlls.push({ status: run.status, seconds: run.seconds });
      console.log(`${build.name}: run-all ${i} ${run.status} in ${run.seconds} s (${run.message}); load average ${os.loadavg()[0]!.toFixed(1)}`);
    }
    const ended = performance.now();
    const after: AfterWork['after'] = [];
    for (let seconds = 0; seconds <= AFTER_WORK_SECONDS; seconds += AFTER_WORK_SAMPLE_SECONDS) {
      await new Promise((r) => setTimeout(r, Math.max(0, ended + seconds * 1000 - performance.now())));
      const tree = measureTree(server.child.pid!);
      after.push({ seconds, tree });
      console.log(`${build.name}: ${String(seconds).padStart(2)} s after the last run-all, tree RSS/PSS MB ${describeTree(tree)}`);
    }
    const next = await runTests(server, NEXT_TEST);
    console.log(`${build.name}: then "${NEXT_TEST}" alone ${next.status} in ${next.seconds} s`);
    return { build: build.name, fresh, idleCpu, after, runAlls, nextTestSeconds: next.seconds };
  } finally {
    await server.stop();
  }
}

async function afterWorkPart(): Promise<void> {
  console.log(`\n# After work: ${RUN_ALLS} run-alls of the demo client, then ${AFTER_WORK_SECONDS} s at rest; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}\n`);
  const results: AfterWork[] = [];
  for (let round = 1; round <= AFTER_WORK_ROUNDS; round++) for (const build of AFTER_WORK_BUILDS) results.push(await afterWork(build, round));
  const columns = results[0]!.after.map((a) => `${a.seconds} s`);
  console.log(`\ntree RSS MB (PSS in the last column), fresh ${SETTLE_SECONDS} s after /readyz, then after the last of ${RUN_ALLS} run-alls:\n`);
  console.log(`| build | run-alls (s) | fresh | CPU at rest ${IDLE_CPU_SECONDS} s | ${columns.join(' | ')} | at ${AFTER_WORK_SECONDS} s: processes (RSS/PSS) | tree PSS at ${AFTER_WORK_SECONDS} s | "${NEXT_TEST}" next (s) |`);
  console.log(`| --- | --- | ---: | ---: | ${columns.map(() => '---:').join(' | ')} | --- | ---: | ---: |`);
  for (const r of results) {
    const last = r.after.at(-1)!.tree;
    console.log(
      `| ${r.build} | ${r.runAlls.map((a) => `${a.seconds}${a.status === 'passed' ? '' : ` ${a.status}`}`).join(', ')} | ${r.fresh.totalRssMb} | ${r.idleCpu.toFixed(2)} | ${r.after.map((a) => a.tree.totalRssMb).join(' | ')} | ` +
        `${last.processes.map((p) => `${p.role} ${p.rssMb}/${p.pssMb}`).join(', ')} | ${last.totalPssMb} | ${r.nextTestSeconds} |`,
    );
  }
  writeFileSync(path.join(out, 'rest-after-work.json'), `${JSON.stringify(results, null, 2)}\n`);
}

mkdirSync(out, { recursive: true });
const built = await buildServer();
console.log(`built apps/server/dist: ${built.files} files in ${built.ms} ms`);
if (PARTS.has('at-rest')) await atRest();
if (PARTS.has('after-work')) await afterWorkPart();
