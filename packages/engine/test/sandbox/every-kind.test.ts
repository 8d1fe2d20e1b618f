import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInSandbox, type SandboxStats } from '../../src/sandbox/index.ts';
import { TEST_KINDS, type TestDefinition } from '../../src/types.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'fullstop-kinds-'));

/**
 * Every kind's runner loads in a runner process on Node's own type stripping (no loader), alone: options that are
 * not an object make each one answer its validation error right after loading. The figures are the start-up
 * cost per attempt (`SANDBOX_TIMINGS=1` prints them).
 */
describe('the runner process of each kind', () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('loads the runner of every kind and answers its result', { timeout: 120_000 }, async () => {
    const timings: Record<string, { readyMs: number; totalMs: number }> = {};
    for (const kind of TEST_KINDS) {
      const runDir = mkdtempSync(path.join(root, `${kind}-`));
      const started = performance.now();
      let stats: SandboxStats | undefined;
      const result = await runInSandbox(
        {
          test: { name: kind, group: 'G', kind, options: 42 as unknown as TestDefinition['options'] },
          target: { baseUrl: 'https://example.test', allowedOrigins: [], allowPrivateAddresses: false },
          ctx: { runDir, chromiumPath: '/usr/bin/chromium', workers: 1, signal: new AbortController().signal, log: () => {} },
          limits: { timeSeconds: 60, memoryMb: 1024 },
          attemptKey: `kind-${kind}-${process.pid}`,
        },
        (s) => (stats = s),
      );
      timings[kind] = { readyMs: stats!.readyMs, totalMs: Math.round(performance.now() - started) };
      expect(result.status, kind).toBe('error');
      expect(result.errorCode, `${kind}: ${result.error}`).toBe('validation_error');
    }
    if (process.env.SANDBOX_TIMINGS) console.log(timings);
  });
});
