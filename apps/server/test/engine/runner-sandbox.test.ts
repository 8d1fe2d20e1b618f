import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineRunTests } from '../../src/db/schema/index.ts';
import { attemptFolder, runTestDir } from '../../src/lib/run-paths.ts';
import type { TestClient } from '../helpers/app.ts';
import { buildEngineApp, clientWithSuite, waitForRunEnd } from './helpers.ts';

/** A zombie counts as dead: it only waits for init to reap it. */
const alive = (pid: number) => {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
};

type Detail = { status: string; tests: { testName: string; status: string; error: string | null; attempts: { status: string; error: string | null }[] }[] };

/**
 * Each attempt runs in a runner process of its own (docs/decisions/0050): what a hostile runner does ends its
 * attempt, in words, and is retried where errors are; the API answers all along and nothing is left running.
 */
describe('runs in runner processes', () => {
  let app: FastifyInstance;
  let c: TestClient;

  beforeAll(async () => {
    app = await buildEngineApp();
    app.engine.deps.config.runMemoryMb = 256;
    await app.engine.startWorkers(3);
    c = await clientWithSuite(app, {
      Hostile: [
        { name: 'exits', kind: 'api', options: { misbehave: 'exit' } },
        { name: 'throws once', kind: 'api', options: { misbehave: 'throw', misbehaveOnAttempts: [1] } },
        { name: 'hangs', kind: 'api', options: { misbehave: 'hang' }, timeoutSeconds: 2 },
        { name: 'eats memory once', kind: 'api', options: { misbehave: 'memory', misbehaveOnAttempts: [1] } },
        { name: 'leaves a grandchild', kind: 'api', options: { misbehave: 'detached' } },
      ],
    });
  });
  afterAll(async () => {
    await app.close();
  });

  const run = async (testName: string) => {
    const { runId } = (await app.inject({ url: `/test/run/${encodeURIComponent(testName)}`, headers: { 'x-api-key': c.apiKey } })).json();
    const detail = (await waitForRunEnd(app, c.apiKey, runId, 60_000)) as Detail;
    return { runId: runId as string, test: detail.tests[0]! };
  };

  it('ends a crashed runner’s attempts as errors that say so, after the retry', async () => {
    const { test } = await run('exits');
    expect(test.status).toBe('error');
    expect(test.attempts.map((a) => a.status)).toEqual(['error', 'error']);
    expect(test.attempts.map((a) => a.error)).toEqual(['the runner process crashed (exit code 3)', 'the runner process crashed (exit code 3)']);
    expect(test.error).toBe('the runner process crashed (exit code 3)');
  });

  it('retries an uncaught exception, which then passes', async () => {
    const { test } = await run('throws once');
    expect(test.status).toBe('passed');
    expect(test.attempts[0]!.error).toMatch(/^the runner process crashed \(exit code 70\): Error: planned crash in a timer/);
  });

  it('stops a runner that hangs at its time limit, not retried, while the API answers', async () => {
    const pending = run('hangs');
    const started = Date.now();
    while (Date.now() - started < 1500) {
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
    }
    const { test } = await pending;
    expect(test.status).toBe('error');
    expect(test.error).toBe('time limit of 2 s reached');
    expect(test.attempts).toHaveLength(1);
  });

  it('kills a runner over the memory limit, and retries it', async () => {
    const { test } = await run('eats memory once');
    expect(test.status).toBe('passed');
    expect(test.attempts.map((a) => a.status)).toEqual(['error', 'passed']);
    expect(test.attempts[0]!.error).toBe('the runner process ran out of memory (limit 256 MB)');
  });

  it('kills what the runner started detached when the attempt ends', async () => {
    const { runId, test } = await run('leaves a grandchild');
    expect(test.status).toBe('passed');
    const [rt] = await app.db.select().from(engineRunTests).where(eq(engineRunTests.runId, runId));
    const pidFile = path.join(runTestDir(app.engine.deps.paths, c.clientId, runId, rt!.id), attemptFolder(1), 'grandchild.pid');
    expect(existsSync(pidFile)).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(false);
  });
});
