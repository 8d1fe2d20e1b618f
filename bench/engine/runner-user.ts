/**
 * `node bench/engine/runner-user.ts [runs]` (as root): what running the runner processes as another user costs per
 * attempt (docs/decisions/0077). The same attempts through `runInSandbox`, taking turns, as this process's user
 * (root) and as BENCH_RUNNER_USER (fullstop-runner): an attempt that passes at once (fork or take from the warm
 * pool, the kind's load, the sweep: what the switch of user and the run folder's hand-over add), and a real
 * browser test of the engine's fixture suite (the suite's copy for the runner user, Chromium with its own sandbox).
 * Wall time per attempt and CPU-seconds of this process and everything it starts (a cpuacct cgroup of its own,
 * the runners included), medians and the ratio runner user / root. Figures, never pass/fail.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { emptyWarmPool, resolveRunnerUser, type RunnerUser, runInSandbox } from '../../packages/engine/src/sandbox/index.ts';
import { startHardenedServer } from '../../packages/engine/test/fixtures/hardened-server.ts';
import type { TestDefinition } from '../../packages/engine/src/types.ts';
import { meterCpu } from './cpu.ts';
import { DEFAULT_CHROMIUM_PATH } from '@fullstop/engine/chromium';

const RUNS = Number(process.argv[2] ?? 7);
const USER = process.env.BENCH_RUNNER_USER ?? 'fullstop-runner';
const HOSTILE = fileURLToPath(new URL('../../packages/engine/test/sandbox/fixtures/hostile-runners.ts', import.meta.url));
const SUITE = fileURLToPath(new URL('../../packages/engine/test/fixtures/browser-suite', import.meta.url));
const PAUSE_MS = 500;

const meter = meterCpu(process.pid);
const root = mkdtempSync(path.join(tmpdir(), 'fullstop-bench-user-'));
const suiteDir = mkdtempSync(path.join(tmpdir(), 'fullstop-bench-suite-'));
cpSync(SUITE, suiteDir, { recursive: true });
const site = await startHardenedServer();
const user = resolveRunnerUser(USER, 'BENCH_RUNNER_USER');
let counter = 0;

interface Case {
  name: string;
  test: TestDefinition;
  warmRunners: number;
  runnersModule?: string;
}

const CASES: Case[] = [
  { name: 'api pass, fresh fork', test: { name: 'p', group: 'G', kind: 'api', options: { behaviour: 'pass' } }, warmRunners: 0, runnersModule: HOSTILE },
  { name: 'api pass, warm pool', test: { name: 'p', group: 'G', kind: 'api', options: { behaviour: 'pass' } }, warmRunners: 1, runnersModule: HOSTILE },
  { name: 'browser suite (4 cases), fresh fork', test: { name: 'b', group: 'G', kind: 'browser', options: {}, suiteDir }, warmRunners: 0 },
];

async function attempt(c: Case, runAs: RunnerUser | null): Promise<{ wall: number; cpu: number }> {
  const runDir = mkdtempSync(path.join(root, 'attempt-'));
  const cpu0 = meter.seconds();
  const started = performance.now();
  await runInSandbox({
    test: c.test,
    target: { baseUrl: site.url, allowedOrigins: [], allowPrivateAddresses: true },
    ctx: { runDir, chromiumPath: DEFAULT_CHROMIUM_PATH, workers: 1, signal: new AbortController().signal, log: () => {}, warmRunners: c.warmRunners, runAs },
    limits: { timeSeconds: 120, memoryMb: 2048 },
    attemptKey: `bench-user-${process.pid}-${++counter}`,
    ...(c.runnersModule ? { runnersModule: c.runnersModule } : {}),
  });
  const wall = (performance.now() - started) / 1000;
  // The pool's refill and the runner's exit settle before the CPU is read.
  await new Promise((r) => setTimeout(r, PAUSE_MS));
  return { wall, cpu: meter.seconds() - cpu0 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: Record<string, Record<string, string>> = {};
try {
  for (const c of CASES) {
    const samples = { root: [] as { wall: number; cpu: number }[], user: [] as { wall: number; cpu: number }[] };
    // A first attempt of each fills the pool and warms the OS's caches.
    await attempt(c, null);
    emptyWarmPool();
    await attempt(c, user);
    for (let i = 0; i < RUNS; i++) {
      for (const who of ['root', 'user'] as const) {
        // Each side's pool holds its own user's processes: emptied when the other side takes its turn.
        if (c.warmRunners) {
          emptyWarmPool();
          await attempt(c, who === 'root' ? null : user);
        }
        samples[who].push(await attempt(c, who === 'root' ? null : user));
      }
    }
    emptyWarmPool();
    const m = (who: 'root' | 'user', k: 'wall' | 'cpu') => median(samples[who].map((s) => s[k]));
    rows[c.name] = {
      'wall s (root)': m('root', 'wall').toFixed(3),
      [`wall s (${USER})`]: m('user', 'wall').toFixed(3),
      'wall ratio': (m('user', 'wall') / m('root', 'wall')).toFixed(2),
      'CPU-s (root)': m('root', 'cpu').toFixed(3),
      [`CPU-s (${USER})`]: m('user', 'cpu').toFixed(3),
      'CPU ratio': (m('user', 'cpu') / m('root', 'cpu')).toFixed(2),
    };
    console.log(c.name, rows[c.name]);
  }
  console.log(`\nmedians of ${RUNS} attempts each (CPU: ${meter.how}); load average ${(await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  console.table(rows);
} finally {
  emptyWarmPool();
  await site.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(suiteDir, { recursive: true, force: true });
  await meter.close();
}
