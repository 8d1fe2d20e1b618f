import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { SandboxError} from '../../src/sandbox/index.ts';
import { attemptProcesses, processTable, runInSandbox, type SandboxStats } from '../../src/sandbox/index.ts';
import { childEnv } from '../../src/sandbox/child-env.ts';
import type { RunnerResult } from '../../src/types.ts';

const HOSTILE = fileURLToPath(new URL('./fixtures/hostile-runners.ts', import.meta.url));
const root = mkdtempSync(path.join(os.tmpdir(), 'fullstop-sandbox-'));
let counter = 0;

function attempt(behaviour: string, limits = { timeSeconds: 20, memoryMb: 256 }, signal = new AbortController().signal) {
  const runDir = mkdtempSync(path.join(root, 'attempt-'));
  const logs: string[] = [];
  const progress: unknown[] = [];
  let stats: SandboxStats | undefined;
  const attemptKey = `test-${process.pid}-${++counter}`;
  const promise = runInSandbox(
    {
      test: { name: behaviour, group: 'G', kind: 'api', options: { behaviour } },
      target: { baseUrl: 'https://example.test', allowedOrigins: [], allowPrivateAddresses: false },
      ctx: { runDir, chromiumPath: '/usr/bin/chromium', workers: 1, signal, log: (m) => logs.push(m), progress: (p) => progress.push(p) },
      limits,
      attemptKey,
      runnersModule: HOSTILE,
    },
    (s) => (stats = s),
  );
  return { promise, runDir, logs, progress, attemptKey, stats: () => stats };
}

async function failure(p: Promise<RunnerResult>): Promise<SandboxError> {
  return p.then(
    () => {
      throw new Error('expected the attempt to fail');
    },
    (e: SandboxError) => e,
  );
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
};

describe('runInSandbox', () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('runs the runner in its own process and streams its log and progress', async () => {
    const a = attempt('pass');
    const result = await a.promise;
    expect(result.status).toBe('passed');
    expect(a.logs).toContain('hostile runner starting');
    expect(a.progress).toEqual([{ done: 0, total: 1, message: 'starting' }]);
    expect(a.stats()!.pid).not.toBe(process.pid);
    expect(a.stats()!.readyMs).toBeGreaterThan(0);
  });

  it('says the runner crashed when it exits, with the code', async () => {
    const e = await failure(attempt('exit').promise);
    expect(e.code).toBe('crashed');
    expect(e.message).toBe('the runner process crashed (exit code 3)');
  });

  it('says the runner crashed on an uncaught exception, with its message', async () => {
    const e = await failure(attempt('throw-in-timer').promise);
    expect(e.code).toBe('crashed');
    expect(e.message).toMatch(/^the runner process crashed \(exit code 70\): Error: boom in a timer/);
  });

  it('kills a runner that hangs past its time limit', async () => {
    const started = Date.now();
    const e = await failure(attempt('hang', { timeSeconds: 2, memoryMb: 256 }).promise);
    expect(e.code).toBe('time_limit');
    expect(e.message).toBe('time limit of 2 s reached');
    expect(Date.now() - started).toBeLessThan(2_000 + 3_000 + 2_000);
  });

  it('kills a runner whose memory outgrows the limit, off the heap or on it', async () => {
    const buffers = await failure(attempt('buffers', { timeSeconds: 30, memoryMb: 200 }).promise);
    expect(buffers.code).toBe('out_of_memory');
    expect(buffers.message).toBe('the runner process ran out of memory (limit 200 MB)');
    const heap = await failure(attempt('heap', { timeSeconds: 30, memoryMb: 200 }).promise);
    expect(heap.code).toBe('out_of_memory');
    expect(heap.message).toBe('the runner process ran out of memory (limit 200 MB)');
  });

  it('kills a detached grandchild when the attempt ends', async () => {
    const a = attempt('detached-grandchild');
    await a.promise;
    const pid = Number(readFileSync(path.join(a.runDir, 'grandchild.pid'), 'utf8'));
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
    expect(a.logs.some((l) => /killed 1 process/.test(l))).toBe(true);
  });

  it('stops the runner when the attempt is aborted, and rejects with the reason', async () => {
    const controller = new AbortController();
    const a = attempt('hang', { timeSeconds: 30, memoryMb: 256 }, controller.signal);
    setTimeout(() => controller.abort(new Error('the server stopped during the run')), 1000);
    const e = await failure(a.promise);
    expect(e.message).toBe('the server stopped during the run');
    expect(attemptProcesses(processTable(), a.attemptKey)).toEqual([]);
  });

  it('gives the runner and its tools none of the server’s secrets', async () => {
    const secrets = { SERVER_KEY: 'k'.repeat(64), OPERATOR_TOKEN: 'fso_secret', DATABASE_URL: 'postgres://secret@db/x', SMTP_URL: 'smtp://secret@mail' };
    const saved = { ...process.env };
    Object.assign(process.env, secrets);
    try {
      const a = attempt('env');
      await a.promise;
      const runnerEnv = JSON.parse(readFileSync(path.join(a.runDir, 'runner-env.json'), 'utf8')) as Record<string, string>;
      const toolEnv = readFileSync(path.join(a.runDir, 'tool-env.txt'), 'utf8');
      for (const [name, value] of Object.entries(secrets)) {
        expect(runnerEnv[name]).toBeUndefined();
        expect(toolEnv).not.toContain(value);
      }
      expect(runnerEnv.PATH).toBe(process.env.PATH);
      expect(runnerEnv.FULLSTOP_ATTEMPT).toMatch(new RegExp(`\\.${a.attemptKey}$`));
      expect(toolEnv).toContain(`FULLSTOP_ATTEMPT=${runnerEnv.FULLSTOP_ATTEMPT}`);
    } finally {
      for (const name of Object.keys(secrets)) if (!(name in saved)) delete process.env[name];
    }
  });

  it('passes only allow-listed variables', () => {
    expect(childEnv({ PATH: '/bin', SERVER_KEY: 'x', LC_ALL: 'C', NODE_OPTIONS: '--require x' }, { EXTRA: '1' })).toEqual({ PATH: '/bin', LC_ALL: 'C', EXTRA: '1' });
    expect(existsSync(HOSTILE)).toBe(true);
  });
});
