import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { engineAttempts, engineRunTests } from '../../src/db/schema/index.ts';
import { TEST_DATABASE_URL } from '../helpers/app.ts';
import { secondEngine } from '../helpers/second-engine.ts';
import { buildEngineApp, clientWithSuite, waitForRunEnd } from './helpers.ts';

/**
 * Two worker pools, each with its own pg-boss and connection pool, share one PostgreSQL queue (what two
 * `fullstop worker` processes do). Every job runs exactly once and both pools take part.
 * Needs TEST_DATABASE_URL: the embedded database admits one process, so there is nothing to share there.
 */
describe.skipIf(!TEST_DATABASE_URL)('two workers on PostgreSQL', () => {
  it('run every job exactly once between them', { timeout: 120_000 }, async () => {
    const app = await buildEngineApp();
    if (app.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const tests = Array.from({ length: 40 }, (_, i) => ({ name: `t${i}`, kind: 'api', options: { sleepMs: 30 } }));
    const c = await clientWithSuite(app, { G: tests });
    const second = secondEngine(app);
    try {
      await app.engine.startWorkers(2);
      await second.engine.startWorkers(2);
      const { runId } = (await app.inject({ url: '/test/run/all', headers: { 'x-api-key': c.apiKey } })).json();
      const result = await waitForRunEnd(app, c.apiKey, runId, 90_000);
      expect(result.status).toBe('passed');
      const rows = await app.db.select().from(engineRunTests).where(eq(engineRunTests.runId, runId));
      expect(rows).toHaveLength(40);
      const attempts = await app.db.select().from(engineAttempts);
      const mine = attempts.filter((a) => rows.some((r) => r.id === a.runTestId));
      // Exactly once: one passed attempt per test. An attempt that ended in an error (a runner process that did
      // not start in time on a loaded machine) is retried by design; its retry is a new attempt, never a second
      // delivery running beside it.
      const passedAttempts = mine.filter((a) => a.status === 'passed');
      expect(passedAttempts).toHaveLength(40);
      expect(new Set(passedAttempts.map((a) => a.runTestId)).size).toBe(40);
      const retried = mine.filter((a) => a.status !== 'passed');
      expect(retried.filter((a) => a.status !== 'error'), JSON.stringify(retried)).toEqual([]);
      for (const r of retried) {
        const next = mine.find((a) => a.runTestId === r.runTestId && a.attempt === r.attempt + 1);
        expect(next && r.finishedAt && next.startedAt >= r.finishedAt, `attempt ${r.attempt + 1} of a test started before attempt ${r.attempt} ended`).toBe(true);
      }
      const workers = new Set(mine.map((a) => a.workerId));
      expect(workers).toEqual(new Set([app.engine.deps.workerId, second.engine.deps.workerId]));
    } finally {
      await second.close();
      await app.close();
    }
  });
});
