import { afterAll, describe, expect, it } from 'vitest';
import { RealServer } from '../chaos/helpers/real-server.ts';

/**
 * A real server process (embedded database, fake runners preloaded) is killed with SIGKILL while two tests run.
 * Started again on the same data directory, it must leave nothing stuck: the test with a retry left runs again
 * and passes, the one without ends as an error that says why. Every attempt stays in the run's history.
 */
describe('a server killed during a run', () => {
  const server = new RealServer({ ENGINE_WORKERS: '2', ENGINE_RETRIES: '1' });

  afterAll(() => server.close());

  it('retries the test that has attempts left and fails the other with the reason', { timeout: 150_000 }, async () => {
    await server.start();
    const apiKey = await server.clientWithSuite({
      G: [
        { name: 'slow once', kind: 'browser', options: { sleepMs: 120_000, sleepOnAttempts: [1] } },
        { name: 'no retries', kind: 'api', options: { sleepMs: 120_000 }, retries: 0 },
      ],
    });
    const runId = await server.runAll(apiKey);
    const detail = () => server.detail(apiKey, runId);
    for (let i = 0; i < 100; i++) {
      const d = await detail();
      if (d.tests.every((t) => t.status === 'running')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect((await detail()).tests.map((t) => t.status)).toEqual(['running', 'running']);

    await server.kill();
    await server.start();

    let d = await detail();
    for (let i = 0; i < 150 && !['passed', 'failed', 'error'].includes(d.status); i++) {
      await new Promise((r) => setTimeout(r, 200));
      d = await detail();
    }
    expect(d.status).toBe('error');
    const slow = d.tests.find((t) => t.testName === 'slow once')!;
    expect(slow.status).toBe('passed');
    expect(slow.attempts.map((a) => a.status)).toEqual(['error', 'passed']);
    expect(slow.attempts[0]!.error).toMatch(/stopped .*probably killed/);
    const none = d.tests.find((t) => t.testName === 'no retries')!;
    expect(none.status).toBe('error');
    expect(none.error).toMatch(/stopped .*probably killed/);
    expect(none.attempts).toHaveLength(1);
  });
});
