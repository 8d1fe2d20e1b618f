import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { processesSupervisedBy, realServerForSuite, SECRETS } from './helpers/real-server.ts';

const MEMORY_MB = 256;

/**
 * A runner that crashes, one that hangs past its time limit and one that blows its memory, all at once in the
 * real server: each run ends as an error that says what happened, the retry happens where errors are retried
 * (not for the time limit, which would only repeat), /healthz answers throughout, and nothing is left running.
 */
describe('hostile runners in the real server', () => {
  const server = realServerForSuite({ ENGINE_WORKERS: '4', ENGINE_RETRIES: '1', ENGINE_RUN_MEMORY_MB: String(MEMORY_MB) });

  it('ends each attempt in words, retries, and keeps the API answering', { timeout: 150_000 }, async () => {
    const apiKey = await server.clientWithSuite({
      Hostile: [
        { name: 'crashes', kind: 'api', options: { misbehave: 'exit' } },
        { name: 'throws', kind: 'api', options: { misbehave: 'throw' } },
        { name: 'hangs', kind: 'api', options: { misbehave: 'hang' }, timeoutSeconds: 3 },
        { name: 'blows memory', kind: 'api', options: { misbehave: 'memory' } },
        { name: 'reads env', kind: 'api', options: { misbehave: 'env' } },
      ],
    });
    server.watchHealth();
    const runId = await server.runAll(apiKey);
    const d = await server.waitForEnd(apiKey, runId, 120_000);
    server.stopWatching();

    expect(d.status).toBe('error');
    const test = (name: string) => d.tests.find((t) => t.testName === name)!;
    const crashed = 'the runner process crashed (exit code 3)';
    expect(test('crashes')).toMatchObject({ status: 'error', error: crashed });
    expect(test('crashes').attempts.map((a) => a.error)).toEqual([crashed, crashed]);
    expect(test('throws').status).toBe('error');
    expect(test('throws').attempts).toHaveLength(2);
    for (const a of test('throws').attempts) expect(a.error).toMatch(/^the runner process crashed \(exit code 70\): Error: planned crash in a timer/);
    expect(test('hangs')).toMatchObject({ status: 'error', error: 'time limit of 3 s reached' });
    expect(test('hangs').attempts).toHaveLength(1);
    const oom = `the runner process ran out of memory (limit ${MEMORY_MB} MB)`;
    expect(test('blows memory')).toMatchObject({ status: 'error', error: oom });
    expect(test('blows memory').attempts.map((a) => a.error)).toEqual([oom, oom]);
    expect(test('reads env').status).toBe('passed');

    // The server answered all along, and quickly (CHAOS_VERBOSE=1 prints the figures).
    if (process.env.CHAOS_VERBOSE) console.log('healthz while runners misbehaved', server.health);
    expect(server.health.calls).toBeGreaterThan(10);
    expect(server.health.failures).toEqual([]);
    expect(server.health.slowestMs).toBeLessThan(2000);

    // The runner saw none of the server's secrets.
    const env = JSON.parse(readFileSync(server.runFiles('env.json')[0]!, 'utf8')) as Record<string, string>;
    for (const name of Object.keys(SECRETS)) expect(env[name]).toBeUndefined();
    expect(JSON.stringify(env)).not.toContain(SECRETS.SERVER_KEY);
    expect(env.FULLSTOP_ATTEMPT).toMatch(new RegExp(`^${server.child!.pid}\\.`));

    // Nothing of any attempt is left running.
    expect(processesSupervisedBy(server.child!.pid!)).toEqual([]);
  });
});
