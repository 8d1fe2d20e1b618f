import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { loadEnv } from '../../src/config/env.ts';
import { openPostgres } from '../../src/db/database.ts';
import { engineConfig } from '../../src/features/engine/config.ts';
import { createEngine } from '../../src/features/engine/engine-service.ts';
import { FAKE_RUNNERS_MODULE, fakeRunners } from '../engine/fixtures/fake-runners.ts';

/**
 * The engine of a second process beside `app`: its own connection pool (of `poolSize`) and pg-boss on the app's
 * PostgreSQL database, with the fake runners. `env`: its settings beyond NODE_ENV=test. `close` stops it and its pool.
 */
export function secondEngine(app: FastifyInstance, options: { poolSize?: number; env?: Record<string, string> } = {}) {
  if (app.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
  const pool = openPostgres(app.database.url, options.poolSize ?? 6);
  const engine = createEngine({
    db: pool.db,
    raw: pool.raw,
    paths: app.paths,
    config: engineConfig(loadEnv({ NODE_ENV: 'test', ...options.env })),
    keys: app.keys,
    log: pino({ level: 'silent' }),
    demoClientId: null,
    runners: fakeRunners,
    runnersModule: FAKE_RUNNERS_MODULE,
  });
  return {
    engine,
    async close(): Promise<void> {
      await engine.stop();
      await pool.close();
    },
  };
}
