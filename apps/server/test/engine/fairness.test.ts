import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { engineAttempts, engineRunTests } from '../../src/db/schema/index.ts';
import { buildEngineApp, clientWithSuite, waitForRunEnd } from './helpers.ts';

/**
 * Workers take jobs in a fair order (queue/job-repository.ts): a client whose four run-alls fill the queue cannot keep
 * another client's single test waiting behind that whole backlog (it waited 73 s before), even though the backlog's
 * tests are longer and pg-boss's own order (longest first) would run them all first.
 */
describe('fair share of the workers between clients', () => {
  it('starts another client’s single test before one client’s backlog drains', { timeout: 90_000 }, async () => {
    const app = await buildEngineApp();
    try {
      // Load tests: longer than an API test (pg-boss's order takes them first), and two fit the capacity of 2 cores,
      // so two workers run two at a time whatever the machine (queue/capacity.ts).
      const slow = (name: string) => ({ name, kind: 'load', options: { sleepMs: 1000 } });
      const a = await clientWithSuite(app, { Frontend: [slow('home'), slow('checkout'), slow('search')] });
      const b = await clientWithSuite(app, { API: [{ name: 'health', kind: 'api' }] });
      const aRuns: string[] = [];
      for (let i = 0; i < 4; i++) aRuns.push((await app.inject({ url: '/test/run/all', headers: { 'x-api-key': a.apiKey } })).json().runId);
      const bRun = (await app.inject({ url: '/test/run/health', headers: { 'x-api-key': b.apiKey } })).json().runId as string;
      await app.engine.startWorkers(2);

      expect((await waitForRunEnd(app, b.apiKey, bRun, 60_000)).status).toBe('passed');
      for (const id of aRuns) expect((await waitForRunEnd(app, a.apiKey, id, 60_000)).status).toBe('passed');

      const tests = await app.db.select().from(engineRunTests).where(inArray(engineRunTests.runId, [...aRuns, bRun]));
      const attempts = await app.db.select().from(engineAttempts).where(inArray(engineAttempts.runTestId, tests.map((t) => t.id)));
      const startOf = (runTestId: string) => attempts.find((x) => x.runTestId === runTestId)!.startedAt.getTime();
      const bStart = startOf(tests.find((t) => t.runId === bRun)!.id);
      const aStarts = tests.filter((t) => t.runId !== bRun).map((t) => startOf(t.id));
      expect(aStarts).toHaveLength(12);
      // With two workers, B's test takes the second free worker: at most one of A's twelve starts before it.
      expect(aStarts.filter((s) => s > bStart).length).toBeGreaterThanOrEqual(10);
    } finally {
      await app.close();
    }
  });
});
