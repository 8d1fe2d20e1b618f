/**
 * `node bench/engine/attempt-isolation.ts [runs]` (as root): what issue 37's isolation costs per attempt.
 *
 * - The end of an attempt: `killAll` of its cgroups with nothing left in them (the usual case) and with one process
 *   that left the tree; the check that a leased user has no process left (a scan of /proc/<pid>/status); taking
 *   the folder back (takeBackTree) of a folder of 60 files in 3 folders; a lease and its release.
 * - An attempt that passes at once (fresh fork, hostile-runners' `pass`), taking turns: one shared runner user
 *   (BENCH_RUNNER_USER, fullstop-runner) against a pool (lease, the user's processes checked, the folder taken back).
 * - Where no cgroup can be made: fork to ready of a runner started through the subreaper wrapper (python3) against
 *   a plain fork (containment forced off), taking turns.
 *
 * Medians (ms). Figures, never pass/fail.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAttemptCgroup } from '../../packages/engine/src/sandbox/attempt-cgroup.ts';
import { forceContainmentForTests } from '../../packages/engine/src/sandbox/containment.ts';
import { emptyWarmPool, resolveRunnerUser, RunnerPool, type RunnerUser, runInSandbox, type SandboxStats } from '../../packages/engine/src/sandbox/index.ts';
import { killUserOffThread } from '../../packages/engine/src/sandbox/memory-monitor.ts';
import { userProcesses } from '../../packages/engine/src/sandbox/process-table.ts';
import { giveRunFolder, takeBackTree } from '../../packages/engine/src/sandbox/runner-user.ts';
import { DEFAULT_CHROMIUM_PATH } from '@fullstop/engine/chromium';

const RUNS = Number(process.argv[2] ?? 7);
const USER = process.env.BENCH_RUNNER_USER ?? 'fullstop-runner';
const HOSTILE = fileURLToPath(new URL('../../packages/engine/test/sandbox/fixtures/hostile-runners.ts', import.meta.url));
const root = mkdtempSync(path.join(tmpdir(), 'fullstop-bench-isolation-'));
const shared = resolveRunnerUser(USER, 'BENCH_RUNNER_USER');
const pool = new RunnerPool({ automatic: true }, 2);
await pool.claim();
let counter = 0;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (from: number) => performance.now() - from;
const out: Record<string, string> = {};
const note = (name: string, xs: number[]) => (out[name] = `${median(xs).toFixed(2)} ms (min ${Math.min(...xs).toFixed(2)}, max ${Math.max(...xs).toFixed(2)})`);

async function timed(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return ms(t);
}

try {
  // The end of an attempt's cgroups.
  const empty: number[] = [];
  const withOne: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const cg = createAttemptCgroup(`bench-${process.pid}-${i}`, { memoryBytes: 512 << 20, cpu: 'background' });
    if (!cg) break;
    empty.push(await timed(() => cg.killAll()));
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    const exited = once(child, 'exit');
    cg.add(child.pid!);
    withOne.push(await timed(() => cg.killAll()));
    await exited;
    cg.remove();
  }
  if (empty.length) {
    note('cgroup killAll, nothing left', empty);
    note('cgroup killAll, one process left', withOne);
  }

  // A leased user's processes, checked (on this thread, and as the pool does it: on the monitor thread).
  const scan: number[] = [];
  const offThread: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    scan.push(await timed(() => userProcesses(shared.uid)));
    offThread.push(await timed(() => killUserOffThread(shared.uid)));
  }
  note('user processes scan (/proc/*/status)', scan);
  note('user processes check, monitor thread', offThread);

  // The folder given and taken back: 60 files in 3 folders.
  const give: number[] = [];
  const back: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = path.join(root, `folder-${i}`);
    for (const sub of ['a', 'b', 'c']) {
      mkdirSync(path.join(dir, sub), { recursive: true, mode: 0o700 });
      for (let f = 0; f < 20; f++) writeFileSync(path.join(dir, sub, `f${f}.png`), 'x');
    }
    give.push(await timed(() => giveRunFolder(dir, shared)));
    back.push(await timed(() => takeBackTree(dir)));
  }
  note('giveRunFolder, 60 files', give);
  note('takeBackTree, 60 files', back);

  // A lease and its release (nothing left to kill).
  const lease: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    lease.push(
      await timed(async () => {
        const l = await pool.lease();
        await l.killLeftovers();
        l.release();
      }),
    );
  }
  note('pool lease + leftover check + release', lease);

  // Whole attempts.
  async function attempt(runAs: RunnerUser | RunnerPool | null): Promise<{ wall: number; ready: number }> {
    const runDir = mkdtempSync(path.join(root, 'attempt-'));
    let stats: SandboxStats | undefined;
    const started = performance.now();
    await runInSandbox(
      {
        test: { name: 'p', group: 'G', kind: 'api', options: { behaviour: 'pass' } },
        target: { baseUrl: 'https://example.test', allowedOrigins: [], allowPrivateAddresses: false },
        ctx: { runDir, chromiumPath: DEFAULT_CHROMIUM_PATH, workers: 1, signal: new AbortController().signal, log: () => {}, runAs },
        limits: { timeSeconds: 60, memoryMb: 512 },
        attemptKey: `bench-isolation-${process.pid}-${++counter}`,
        runnersModule: HOSTILE,
      },
      (s) => (stats = s),
    );
    const wall = ms(started);
    await new Promise((r) => setTimeout(r, 300));
    return { wall, ready: stats!.readyMs };
  }
  await attempt(shared);
  await attempt(pool);
  const sharedWall: number[] = [];
  const poolWall: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    sharedWall.push((await attempt(shared)).wall);
    poolWall.push((await attempt(pool)).wall);
  }
  note('attempt (pass, fresh fork), one shared user', sharedWall);
  note('attempt (pass, fresh fork), a pool', poolWall);

  // Without cgroups: a plain fork against the subreaper wrapper (fork to ready).
  const plain: number[] = [];
  const wrapped: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    forceContainmentForTests({ cgroup: false, subreaper: false });
    plain.push((await attempt(shared)).ready);
    forceContainmentForTests({ cgroup: false });
    wrapped.push((await attempt(shared)).ready);
  }
  forceContainmentForTests({});
  note('fork to ready, plain (no cgroup)', plain);
  note('fork to ready, subreaper wrapper (python3)', wrapped);
} finally {
  emptyWarmPool();
  pool.close();
  rmSync(root, { recursive: true, force: true });
}
console.log(`load average: ${(await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').trim()}`);
console.table(out);
process.exit(0);
