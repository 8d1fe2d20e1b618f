import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MASK } from '../../src/lib/mask-secrets.ts';
import { emptyWarmPool, runInSandbox, type SandboxStats } from '../../src/sandbox/index.ts';
import { DEFAULT_CHROMIUM_PATH } from '../../src/lib/chromium.ts';

const LEAKY = fileURLToPath(new URL('./fixtures/leaky-runners.ts', import.meta.url));
const TOKEN = 'tok-leaky-8c21f0e9';
const root = mkdtempSync(path.join(os.tmpdir(), 'fullstop-masking-'));

describe('a runner that spills the secret', () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  afterAll(() => emptyWarmPool());

  // Pre-forked, the process was started before the attempt's secrets existed: they come with its test alone.
  it.each([
    { mode: 'fresh', warmRunners: 0 },
    { mode: 'pre-forked', warmRunners: 1 },
  ])('has it masked in its output, log, files and result ($mode runner process)', { timeout: 60_000 }, async ({ warmRunners }) => {
    const leaky = async () => {
      const runDir = mkdtempSync(path.join(root, 'run-'));
      const lines: string[] = [];
      let stats: SandboxStats | undefined;
      const result = await runInSandbox(
        {
          test: { name: 'leaky', group: 'G', kind: 'api', options: {}, login: { type: 'header', headers: { 'X-Token': '{{secret:token}}' } } },
          target: { baseUrl: 'https://example.test', allowedOrigins: [], allowPrivateAddresses: false },
          ctx: { runDir, chromiumPath: DEFAULT_CHROMIUM_PATH, workers: 1, signal: new AbortController().signal, log: (m, d) => lines.push(`${m} ${JSON.stringify(d ?? {})}`), warmRunners },
          limits: { timeSeconds: 30, memoryMb: 512 },
          attemptKey: `masking-${process.pid}-${warmRunners}`,
          runnersModule: LEAKY,
          secrets: { token: TOKEN },
        },
        (s) => (stats = s),
      );
      return { runDir, lines, result, warm: stats!.warm };
    };
    // The first attempt fills the pool; the second takes from it.
    if (warmRunners) await leaky();
    const { runDir, lines, result, warm } = await leaky();
    expect(warm).toBe(warmRunners > 0);
    const log = lines.join('\n');
    // Each channel spoke (the masked value is there), none kept the token.
    for (const channel of ['stdout', 'stderr', 'log']) expect(log).toContain(`${channel}: ${MASK}`);
    expect(log).not.toContain(TOKEN);
    expect(readFileSync(path.join(runDir, 'leak.txt'), 'utf8')).toBe(`file: ${MASK}`);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(result.summary.kind === 'api' && result.summary.cases[0]?.error).toBe(`got ${MASK}`);
  });

  it('has it masked in the files of a runner stopped at its time limit', { timeout: 60_000 }, async () => {
    const runDir = mkdtempSync(path.join(root, 'hang-'));
    const run = runInSandbox({
      test: { name: 'leaky', group: 'G', kind: 'api', options: { hang: true }, login: { type: 'header', headers: { 'X-Token': '{{secret:token}}' } } },
      target: { baseUrl: 'https://example.test', allowedOrigins: [], allowPrivateAddresses: false },
      ctx: { runDir, chromiumPath: DEFAULT_CHROMIUM_PATH, workers: 1, signal: new AbortController().signal, log: () => {} },
      limits: { timeSeconds: 4, memoryMb: 512 },
      attemptKey: `masking-hang-${process.pid}`,
      runnersModule: LEAKY,
      secrets: { token: TOKEN },
    });
    await expect(run).rejects.toMatchObject({ code: 'time_limit' });
    expect(readFileSync(path.join(runDir, 'before-hang.txt'), 'utf8')).toBe(`file: ${MASK}`);
  });
});
