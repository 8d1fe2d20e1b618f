import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from '../helpers/app.ts';
import { processesOf, RealServer, until, WorkerProcess } from './helpers/real-server.ts';

const chromiumOf = (tag: string) => processesOf(tag).filter((p) => /chrom/.test(p.cmd));

/**
 * `fullstop worker` (PostgreSQL) is killed with SIGKILL while one test has a real Chromium open and another has
 * started a detached process whose runner process is killed too. The first runner process takes its browser
 * down on its own; the detached orphan is killed by the sweep when a worker starts again; the reaper gives the
 * lost attempts up and both tests are retried and pass. Needs TEST_DATABASE_URL (a database of its own is made).
 */
describe.skipIf(!TEST_DATABASE_URL)('a fullstop worker killed with browsers open', () => {
  const dbName = `fullstop_chaos_${randomBytes(4).toString('hex')}`;
  const admin = () => new pg.Client({ connectionString: TEST_DATABASE_URL });
  const url = new URL(TEST_DATABASE_URL ?? 'postgres://x/x');
  url.pathname = `/${dbName}`;
  const server = new RealServer({ DATABASE_URL: url.toString(), ENGINE_WORKERS: '0' });
  const workerEnv = { DATABASE_URL: url.toString(), ENGINE_STALE_AFTER: '5', ENGINE_RETRIES: '1' };
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    const c = admin();
    await c.connect();
    await c.query(`CREATE DATABASE ${dbName}`);
    await c.end();
    await server.start();
  });
  afterAll(async () => {
    for (const w of workers) await w.kill('SIGTERM');
    await server.close();
    const c = admin();
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await c.end();
  });

  it('leaves no process behind and retries both tests', { timeout: 60_000 }, async () => {
    const once = { misbehaveOnAttempts: [1], sleepMs: 60_000, sleepOnAttempts: [1] };
    const apiKey = await server.clientWithSuite({
      Hostile: [
        { name: 'first', kind: 'browser', options: { misbehave: 'chromium', ...once } },
        { name: 'second', kind: 'api', options: { misbehave: 'detached', ...once } },
      ],
    });
    const worker = new WorkerProcess(server, workerEnv);
    workers.push(worker);
    await worker.start();
    const runId = await server.runAll(apiKey);
    await until('the browser and the detached child', () => server.runFiles('chromium.tag').length + server.runFiles('detached.tag').length === 2, 30_000);
    const firstTag = readFileSync(server.runFiles('chromium.tag')[0]!, 'utf8');
    const secondTag = readFileSync(server.runFiles('detached.tag')[0]!, 'utf8');
    expect(firstTag.startsWith(`${worker.child!.pid}.`)).toBe(true);
    await until('the browser', () => chromiumOf(firstTag).length > 1, 10_000);
    const secondHost = processesOf(secondTag).find((p) => p.cmd.includes('runner-host'))!;
    expect(secondHost).toBeDefined();

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
