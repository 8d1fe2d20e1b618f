import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxError } from '../../src/sandbox/index.ts';
import { attemptProcesses, emptyWarmPool, isWarmTag, processTable, runInSandbox, type SandboxStats, warmRunnersWaiting } from '../../src/sandbox/index.ts';
import { childEnv } from '../../src/sandbox/child-env.ts';
import { createAttemptCgroup } from '../../src/sandbox/attempt-cgroup.ts';
import { forceContainmentForTests, subreaperPython } from '../../src/sandbox/containment.ts';
import { RUNNER_NICENESS } from '../../src/sandbox/supervisor.ts';
import type { RunnerResult } from '../../src/types.ts';
import { alive, sleepers, uniqueSleep, until as waitUntil } from './fixtures/processes.ts';
import { DEFAULT_CHROMIUM_PATH } from '../../src/lib/chromium.ts';

const HOSTILE = fileURLToPath(new URL('./fixtures/hostile-runners.ts', import.meta.url));
const root = mkdtempSync(path.join(os.tmpdir(), 'fullstop-sandbox-'));
let counter = 0;
const probe = createAttemptCgroup(`probe-${process.pid}`, { memoryBytes: 512 * 1024 * 1024, cpu: 'background' });
probe?.remove();

interface Options {
  limits?: { timeSeconds: number; memoryMb: number };
  options?: Record<string, unknown>;
  signal?: AbortSignal;
  warmRunners?: number;
  env?: NodeJS.ProcessEnv;
}

function attempt(behaviour: string, options: Options = {}) {
  const runDir = mkdtempSync(path.join(root, 'attempt-'));
  const logs: string[] = [];
  const progress: unknown[] = [];
  let stats: SandboxStats | undefined;
  const attemptKey = `test-${process.pid}-${++counter}`;
  const promise = runInSandbox(
    {
      test: { name: behaviour, group: 'G', kind: 'api', options: { behaviour, ...options.options } },
      target: { baseUrl: 'https://example.test', allowedOrigins: [], allowPrivateAddresses: false },
      ctx: {
        runDir,
        chromiumPath: DEFAULT_CHROMIUM_PATH,
        workers: 1,
        signal: options.signal ?? new AbortController().signal,
        log: (m) => logs.push(m),
        progress: (p) => progress.push(p),
        ...(options.warmRunners ? { warmRunners: options.warmRunners } : {}),
      },
      limits: options.limits ?? { timeSeconds: 20, memoryMb: 256 },
      attemptKey,
      runnersModule: HOSTILE,
      ...(options.env ? { env: options.env } : {}),
    },
    (s) => (stats = s),
  );
  return { promise, runDir, logs, progress, attemptKey, stats: () => stats! };
}

async function failure(p: Promise<RunnerResult>): Promise<SandboxError> {
  return p.then(
    () => {
      throw new Error('expected the attempt to fail');
    },
    (e: SandboxError) => e,
  );
}


const until = (what: string, check: () => boolean, ms = 10_000) => waitUntil(what, check, ms, () => JSON.stringify(waitingHere()));

/** The runner processes waiting in this process's warm pool, by their tag (`<this pid>.<start>.warm-…`). */
const waitingHere = () => processTable().filter((p) => p.tag?.startsWith(`${process.pid}.`) && isWarmTag(p.tag));

afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Every guarantee twice: with a runner process forked for the attempt, and with one taken from the warm pool
 * (forked and loaded ahead, carrying its own tag from birth). In the second, a first attempt fills the pool and
 * each attempt after it takes the process the one before refilled it with.
 */
describe.each([
  { mode: 'a fresh runner process', warmRunners: 0 },
  { mode: 'a pre-forked runner process', warmRunners: 1 },
])('runInSandbox with $mode', ({ warmRunners }) => {
  const warm = warmRunners > 0;
  const run = (behaviour: string, options: Options = {}) => attempt(behaviour, { warmRunners, ...options });
  beforeAll(async () => {
    if (warm) await run('pass').promise;
  });
  afterAll(() => emptyWarmPool());

  it('runs the runner in its own process and streams its log and progress', async () => {
    const a = run('pass');
    const result = await a.promise;
    expect(result.status).toBe('passed');
    expect(a.logs).toContain('hostile runner starting');
    expect(a.progress).toEqual([{ done: 0, total: 1, message: 'starting' }]);
    expect(a.stats().pid).not.toBe(process.pid);
    expect(a.stats().warm).toBe(warm);
    expect(a.stats().readyMs).toBeGreaterThanOrEqual(0);
    expect(a.stats().loadMs).toBeGreaterThanOrEqual(0);
    expect(a.logs.some((l) => /^runner process \d+ ready in \d+ ms/.test(l))).toBe(true);
  });

  it('runs one attempt in its folder, its heap limit, its cgroup and its priorities, and the process exits after it', async () => {
    const a = run('whoami');
    await a.promise;
    const me = JSON.parse(readFileSync(path.join(a.runDir, 'whoami.json'), 'utf8')) as { pid: number; cwd: string; heapLimitMb: number; cgroup: string; tag: string; nice: number; oomScoreAdj: number };
    expect(a.stats().warm).toBe(warm);
    expect(me.pid).toBe(a.stats().pid);
    expect(me.cwd).toBe(a.runDir);
    expect(me.tag).toBe(a.stats().tag);
    expect(me.heapLimitMb).toBeGreaterThanOrEqual(256);
    expect(me.heapLimitMb).toBeLessThanOrEqual(256 + 3 * 16);
    // The runners' nice value and out-of-memory score, set by the launcher at the fork (launcher.ts).
    expect({ nice: me.nice, oomScoreAdj: me.oomScoreAdj }).toEqual({ nice: RUNNER_NICENESS, oomScoreAdj: 1000 });
    const cgroupName = `/fullstop-${a.stats().tag.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
    if (probe) expect(me.cgroup).toContain(cgroupName);
    // Its CPU share too (v1: the cpu hierarchy's line; v2: the one line), the API's process staying in none.
    if (probe?.cpu) expect(me.cgroup.split('\n').find((l) => /^\d+:([a-z_]+,)*cpu(,[a-z_]+)*:|^0::/.test(l))).toContain(cgroupName);
    expect(alive(me.pid)).toBe(false);
    // The next attempt never gets this process again.
    const next = run('whoami');
    await next.promise;
    expect(next.stats().pid).not.toBe(me.pid);
  });

  it('says the runner crashed when it exits, with the code', async () => {
    const e = await failure(run('exit').promise);
    expect(e.code).toBe('crashed');
    expect(e.message).toBe('the runner process crashed (exit code 3)');
  });

  it('says the runner crashed on an uncaught exception, with its message', async () => {
    const e = await failure(run('throw-in-timer').promise);
    expect(e.code).toBe('crashed');
    expect(e.message).toMatch(/^the runner process crashed \(exit code 70\): Error: boom in a timer/);
  });

  it('kills a runner that hangs past its time limit', async () => {
    const started = Date.now();
    const a = run('hang', { limits: { timeSeconds: 2, memoryMb: 256 } });
    const e = await failure(a.promise);
    expect(e.code).toBe('time_limit');
    expect(e.message).toBe('time limit of 2 s reached');
    expect(Date.now() - started).toBeLessThan(2_000 + 3_000 + 2_000);
    expect(a.stats().warm).toBe(warm);
  });

  it('kills a runner whose memory outgrows the limit, off the heap or on it', async () => {
    // Another memory limit than the pool's: a fresh fork, whose heap limit is this one; the pool refills with it.
    const buffers = run('buffers', { limits: { timeSeconds: 30, memoryMb: 200 } });
    const e1 = await failure(buffers.promise);
    expect(e1.code).toBe('out_of_memory');
    expect(e1.message).toBe('the runner process ran out of memory (limit 200 MB)');
    expect(buffers.stats().warm).toBe(false);
    const heap = run('heap', { limits: { timeSeconds: 30, memoryMb: 200 } });
    const e2 = await failure(heap.promise);
    expect(e2.code).toBe('out_of_memory');
    expect(e2.message).toBe('the runner process ran out of memory (limit 200 MB)');
    expect(heap.stats().warm).toBe(warm);
  });

  it('kills a detached grandchild when the attempt ends', async () => {
    const a = run('detached-grandchild');
    await a.promise;
    const pid = Number(readFileSync(path.join(a.runDir, 'grandchild.pid'), 'utf8'));
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
    expect(a.logs.some((l) => /killed 1 process/.test(l))).toBe(true);
  });

  it('ends the attempt whole: a detached process without the tag, reparented away from the runner, does not outlive it', async () => {
    const arg = uniqueSleep();
    const a = run('escape', { options: { sleep: arg } });
    await a.promise;
    const escaped = JSON.parse(readFileSync(path.join(a.runDir, 'escaped.json'), 'utf8')) as { pid: number; ppid: number; runner: number };
    // It had left the runner's tree (its parent, setsid, gone) and carried no tag.
    expect(escaped.pid).toBeGreaterThan(0);
    expect(escaped.ppid).not.toBe(escaped.runner);
    expect(sleepers(arg)).toEqual([]);
  });

  it('stops the runner when the attempt is aborted, and rejects with the reason', async () => {
    const controller = new AbortController();
    const a = run('hang', { limits: { timeSeconds: 30, memoryMb: 256 }, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('the server stopped during the run')), 1000);
    const e = await failure(a.promise);
    expect(e.message).toBe('the server stopped during the run');
    expect(attemptProcesses(processTable(), a.stats().tag)).toEqual([]);
    expect(alive(a.stats().pid)).toBe(false);
  });

  it('gives the runner and its tools none of the server’s secrets', async () => {
    const secrets = { SERVER_KEY: 'k'.repeat(64), OPERATOR_TOKEN: 'fso_secret', DATABASE_URL: 'postgres://secret@db/x', SMTP_URL: 'smtp://secret@mail' };
    const saved = { ...process.env };
    Object.assign(process.env, secrets);
    try {
      const a = run('env');
      await a.promise;
      const runnerEnv = JSON.parse(readFileSync(path.join(a.runDir, 'runner-env.json'), 'utf8')) as Record<string, string>;
      const toolEnv = readFileSync(path.join(a.runDir, 'tool-env.txt'), 'utf8');
      for (const [name, value] of Object.entries(secrets)) {
        expect(runnerEnv[name]).toBeUndefined();
        expect(toolEnv).not.toContain(value);
      }
      expect(runnerEnv.PATH).toBe(process.env.PATH);
      // <owner pid>.<owner start time>.<attempt key>, or the pre-forked process's own key: the sweep's owner test holds.
      expect(runnerEnv.FULLSTOP_ATTEMPT).toBe(a.stats().tag);
      expect(runnerEnv.FULLSTOP_ATTEMPT).toMatch(new RegExp(`^${process.pid}\\.\\d+\\.${warm ? 'warm-[0-9a-f]+' : a.attemptKey}$`));
      expect(toolEnv).toContain(`FULLSTOP_ATTEMPT=${runnerEnv.FULLSTOP_ATTEMPT}`);
    } finally {
      for (const name of Object.keys(secrets)) if (!(name in saved)) delete process.env[name];
    }
  });
});

/**
 * Where no cgroup can be made (not root, no delegation: forced here), the runner is started as a child subreaper
 * (containment.ts): what its tree orphans is reparented to it, and killed before it goes.
 */
describe.skipIf(!subreaperPython())('without cgroups: the runner as a child subreaper', () => {
  beforeAll(() => {
    emptyWarmPool();
    forceContainmentForTests({ cgroup: false });
  });
  afterAll(() => {
    emptyWarmPool();
    forceContainmentForTests({});
  });

  it.each([
    { mode: 'a fresh runner process', warmRunners: 0 },
    { mode: 'a pre-forked runner process', warmRunners: 1 },
  ])('ends the attempt whole with $mode: the escaped process was the runner’s, and is gone', async ({ warmRunners }) => {
    for (let i = 0; i < (warmRunners ? 2 : 1); i++) {
      const arg = uniqueSleep();
      const a = attempt('escape', { warmRunners, options: { sleep: arg } });
      await a.promise;
      const escaped = JSON.parse(readFileSync(path.join(a.runDir, 'escaped.json'), 'utf8')) as { pid: number; ppid: number; runner: number };
      expect(a.stats().warm).toBe(warmRunners > 0 && i > 0);
      // Reparented to the runner, not to init: still in the attempt's tree.
      expect(escaped.ppid).toBe(escaped.runner);
      expect(sleepers(arg)).toEqual([]);
    }
  });

  it('kills what the runner holds before the runner itself, at the time limit', async () => {
    const arg = uniqueSleep();
    // Time to start and escape on a loaded machine; then the runner spins, deaf to the abort, until it is killed.
    const a = attempt('escape-then-hang', { limits: { timeSeconds: 10, memoryMb: 256 }, options: { sleep: arg } });
    const e = await failure(a.promise);
    expect(e.code).toBe('time_limit');
    const escaped = JSON.parse(readFileSync(path.join(a.runDir, 'escaped.json'), 'utf8')) as { pid: number; ppid: number; runner: number };
    expect(escaped.ppid).toBe(escaped.runner);
    expect(sleepers(arg)).toEqual([]);
  }, 30_000);
});

describe('the warm pool', () => {
  afterAll(() => emptyWarmPool());

  it('fills only once attempts run, keeps ready what it forked, and a request of another shape gets a fresh fork', async () => {
    emptyWarmPool();
    await until('the pool to be empty', () => waitingHere().length === 0);
    const first = attempt('pass', { warmRunners: 1 });
    await first.promise;
    expect(first.stats().warm).toBe(false);
    expect(warmRunnersWaiting()).toBe(1);
    await until('one waiting runner process', () => waitingHere().length === 1);
    const waiting = waitingHere()[0]!;
    // Waiting: no test, nothing started, in no attempt's cgroup yet.
    expect(attemptProcesses(processTable(), waiting.tag!)).toHaveLength(1);
    expect(readFileSync(`/proc/${waiting.pid}/cgroup`, 'utf8')).not.toContain('fullstop-');

    const same = attempt('whoami', { warmRunners: 1 });
    await same.promise;
    expect(same.stats()).toMatchObject({ warm: true, pid: waiting.pid, tag: waiting.tag });

    // Another environment (an allow-listed variable differs): fresh, and the pool now holds that shape.
    const otherEnv = attempt('pass', { warmRunners: 1, env: { ...process.env, LANG: 'C.UTF-8', LC_FULLSTOP_TEST: '1' } });
    await otherEnv.promise;
    expect(otherEnv.stats().warm).toBe(false);
    const otherMemory = attempt('pass', { warmRunners: 1, limits: { timeSeconds: 20, memoryMb: 300 } });
    await otherMemory.promise;
    expect(otherMemory.stats().warm).toBe(false);
    const again = attempt('pass', { warmRunners: 1, limits: { timeSeconds: 20, memoryMb: 300 } });
    await again.promise;
    expect(again.stats().warm).toBe(true);
    await until('the pool to hold one process, of the last shape', () => waitingHere().length === 1);

    // The pool turned off (ENGINE_WARM_RUNNERS=0): what waits is ended.
    const off = attempt('pass');
    await off.promise;
    expect(off.stats().warm).toBe(false);
    await until('the pool to be empty', () => waitingHere().length === 0);
    expect(warmRunnersWaiting()).toBe(0);
  });

  it('replaces a waiting process that died at the next refill, and never hands out a dead one', async () => {
    await attempt('pass', { warmRunners: 1 }).promise;
    await until('one waiting runner process', () => waitingHere().length === 1);
    const victim = waitingHere()[0]!;
    process.kill(victim.pid, 'SIGKILL');
    await until('the pool to notice', () => warmRunnersWaiting() === 0);
    const next = attempt('pass', { warmRunners: 1 });
    await next.promise;
    expect(next.stats().warm).toBe(false);
    expect(next.stats().pid).not.toBe(victim.pid);
    await until('a new waiting runner process', () => waitingHere().length === 1 && waitingHere()[0]!.pid !== victim.pid);
  });
});

describe('childEnv', () => {
  it('passes only allow-listed variables', () => {
    expect(childEnv({ PATH: '/bin', SERVER_KEY: 'x', LC_ALL: 'C', NODE_OPTIONS: '--require x' }, { EXTRA: '1' })).toEqual({ PATH: '/bin', LC_ALL: 'C', EXTRA: '1' });
    expect(existsSync(HOSTILE)).toBe(true);
  });
});
