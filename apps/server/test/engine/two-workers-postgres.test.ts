import { eq } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/config/env.ts';
import { openPostgres } from '../../src/db/database.ts';
import { engineAttempts, engineRunTests } from '../../src/db/schema/index.ts';
import { engineConfig } from '../../src/features/engine/config.ts';
import { createEngine } from '../../src/features/engine/engine-service.ts';
import { TEST_DATABASE_URL } from '../helpers/app.ts';
import { FAKE_RUNNERS_MODULE, fakeRunners } from './fixtures/fake-runners.ts';
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
    const other = openPostgres(app.database.url, 6);
    const second = createEngine({
      db: other.db,
      raw: other.raw,
      paths: app.paths,
      config: engineConfig(loadEnv({ NODE_ENV: 'test' })),
      keys: app.keys,
      log: pino({ level: 'silent' }),
      demoClientId: null,
      runners: fakeRunners,
      runnersModule: FAKE_RUNNERS_MODULE,
    });
    try {
      await app.engine.startWorkers(2);
      await second.startWorkers(2);
      const { runId } = (await app.inject({ url: '/test/run/all', headers: { 'x-api-key': c.apiKey } })).json();
      const result = await waitForRunEnd(app, c.apiKey, runId, 90_000);
      expect(result.status).toBe('passed');
      const rows = await app.db.select().from(engineRunTests).where(eq(engineRunTests.runId, runId));
      expect(rows).toHaveLength(40);
      const attempts = await app.db.select().from(engineAttempts);
      const mine = attempts.filter((a) => rows.some((r) => r.id === a.runTestId));
      expect(mine).toHaveLength(40);
      expect(new Set(mine.map((a) => a.runTestId)).size).toBe(40);
      const workers = new Set(mine.map((a) => a.workerId));
      expect(workers).toEqual(new Set([app.engine.deps.workerId, second.deps.workerId]));
    } finally {
      await second.stop();
      await other.close();
      await app.close();
    }
  });
});
