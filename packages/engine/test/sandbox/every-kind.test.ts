import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyWarmPool, runInSandbox, type SandboxStats } from '../../src/sandbox/index.ts';
import { TEST_KINDS, type TestDefinition } from '../../src/types.ts';
import { DEFAULT_CHROMIUM_PATH } from '../../src/lib/chromium.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'fullstop-kinds-'));

afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Every kind's runner loads in a runner process on Node's own type stripping (no loader), alone: options that are
 * not an object make each one answer its validation error right after loading. The figures are the start-up
 * cost per attempt (`SANDBOX_TIMINGS=1` prints them). Pre-forked, the process has loaded what every kind's
 * runner imports before it is taken (the first kind fills the pool, each next one takes a process).
 */
describe.each([
  { mode: 'fresh', warmRunners: 0 },
  { mode: 'pre-forked', warmRunners: 1 },
])('the $mode runner process of each kind', ({ mode, warmRunners }) => {
  afterAll(() => emptyWarmPool());

  it('loads the runner of every kind and answers its result', { timeout: 120_000 }, async () => {
    const timings: Record<string, { warm: boolean; readyMs: number; loadMs: number; totalMs: number }> = {};
    for (const kind of TEST_KINDS) {
      const runDir = mkdtempSync(path.join(root, `${kind}-`));
      const started = performance.now();
      let stats: SandboxStats | undefined;
      const result = await runInSandbox(
        {
          test: { name: kind, group: 'G', kind, options: 42 as unknown as TestDefinition['options'] },
          target: { baseUrl: 'https://example.test', allowedOrigins: [], allowPrivateAddresses: false },
          ctx: { runDir, chromiumPath: DEFAULT_CHROMIUM_PATH, workers: 1, signal: new AbortController().signal, log: () => {}, warmRunners },
          limits: { timeSeconds: 60, memoryMb: 1024 },
          attemptKey: `kind-${kind}-${process.pid}`,
        },
        (s) => (stats = s),
      );
      timings[kind] = { warm: stats!.warm, readyMs: stats!.readyMs, loadMs: stats!.loadMs, totalMs: Math.round(performance.now() - started) };
      expect(result.status, kind).toBe('error');
      expect(result.errorCode, `${kind}: ${result.error}`).toBe('validation_error');
    }
    expect(Object.values(timings).filter((t) => t.warm).length).toBe(warmRunners > 0 ? TEST_KINDS.length - 1 : 0);
    if (process.env.SANDBOX_TIMINGS) console.log(mode, timings);
  });
});
