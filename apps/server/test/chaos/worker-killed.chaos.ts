import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from '../helpers/app.ts';
import { scratchDatabase } from '../helpers/scratch-database.ts';
import { BROWSER_AND_DETACHED, startBrowserAndDetached } from './helpers/browser-and-detached.ts';
import { processesOf, RealServer, until, WorkerProcess } from './helpers/real-server.ts';

/**
 * `fullstop worker` (PostgreSQL) is killed with SIGKILL while one test has a real Chromium open and another has
 * started a detached process whose runner process is killed too. The first runner process takes its browser
 * down on its own; the detached orphan is killed by the sweep when a worker starts again; the reaper gives the
 * lost attempts up and both tests are retried and pass. Needs TEST_DATABASE_URL (a database of its own is made).
 */
describe.skipIf(!TEST_DATABASE_URL)('a fullstop worker killed with browsers open', () => {
  const database = scratchDatabase(TEST_DATABASE_URL ?? 'postgres://x/x', 'fullstop_chaos');
  const server = new RealServer({ DATABASE_URL: database.url, ENGINE_WORKERS: '0' });
  const workerEnv = { DATABASE_URL: database.url, ENGINE_STALE_AFTER: '5', ENGINE_RETRIES: '1' };
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    await database.create();
    await server.start();
  });
  afterAll(async () => {
    for (const w of workers) await w.kill('SIGTERM');
    await server.close();
    await database.drop();
  });

  it('leaves no process behind and retries both tests', { timeout: 120_000 }, async () => {
    const apiKey = await server.clientWithSuite(BROWSER_AND_DETACHED);
    const worker = new WorkerProcess(server, workerEnv);
    workers.push(worker);
    await worker.start();
    const { runId, firstTag, secondTag, secondHost } = await startBrowserAndDetached(server, apiKey, 30_000);
    expect(firstTag.startsWith(`${worker.child!.pid}.`)).toBe(true);

    process.kill(secondHost.pid, 'SIGKILL');
    await worker.kill();

    await until('the first attempt’s processes to end', () => processesOf(firstTag).length === 0, 10_000);
    expect(processesOf(secondTag).map((p) => p.cmd.trim())).toEqual(['sleep 600']);

    const restarted = new WorkerProcess(server, workerEnv);
    workers.push(restarted);
    await restarted.start();
    await until('the sweep at start-up', () => processesOf(secondTag).length === 0, 10_000);

    const d = await server.waitForEnd(apiKey, runId, 40_000);
    expect(d.tests.map((t) => t.status)).toEqual(['passed', 'passed']);
    for (const t of d.tests) {
      expect(t.attempts.map((a) => a.status)).toEqual(['error', 'passed']);
      expect(t.attempts[0]!.error).toMatch(/stopped .*probably killed/);
    }
  });
});
