import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../../apps/server/scripts/build.ts';

/**
 * The server at rest: started on a fresh data directory (embedded database, demo client imported), asked for
 * GET /readyz until it answers, left alone SETTLE seconds, then every process of its tree measured (RSS and PSS
 * from /proc). Each way of starting it runs ROUNDS times, interleaved, so the machine's noise falls on all of
 * them alike: from the TypeScript source through tsx (the baseline, what `npm start` ran before decision 0067)
 * and compiled (`npm start` now). Linux only.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const out = path.join(root, 'bench/.output');
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 15);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const READY_TIMEOUT_MS = 180_000;

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

async function sample(variant: Variant, round: number): Promise<Sample> {
  const dataDir = path.join(out, `rest-${process.pid}-${round}-${variant.name.replace(/\W+/g, '-')}`);
  rmSync(dataDir, { recursive: true, force: true });
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
  try {
    await waitReady(`http://127.0.0.1:${port}/readyz`, child).catch((err: Error) => {
      throw new Error(`${variant.name}: ${err.message}\n${stderr}`);
    });
    const readyMs = Math.round(performance.now() - started);
    await new Promise((r) => setTimeout(r, SETTLE_SECONDS * 1000));
    const processes = processTree(child.pid!)
      .map((pid) => measure(pid, child.pid!))
      .filter((p): p is ProcessFigures => p !== null);
    const total = (key: 'rssMb' | 'pssMb') => processes.reduce((sum, p) => sum + p[key], 0);
    return { variant: variant.name, readyMs, processes, totalRssMb: total('rssMb'), totalPssMb: total('pssMb') };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  mkdirSync(out, { recursive: true });
  const built = await buildServer();
  console.log(`built apps/server/dist: ${built.files} files in ${built.ms} ms`);
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

await main();
