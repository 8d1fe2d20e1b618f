import pino from 'pino';
import { ConfigError, loadEnv } from '../../config/env.ts';
import { migrateDatabase, openPostgres } from '../../db/database.ts';
import { dataPaths, ensureDataDirs } from '../../lib/data-dir.ts';
import { createReadiness, logReadiness } from '../health/readiness.ts';
import { engineConfig } from './config.ts';
import { createEngine } from './engine-service.ts';
import { loadServerKeys } from '../../lib/server-keys.ts';
import { ProcessRegistry } from '../system/process-registry.ts';

/**
 * `fullstop worker`: a process that only runs queued tests. PostgreSQL only, because the embedded database
 * admits one process (docs/decisions/0041). Runs until SIGINT/SIGTERM, then lets its runs end their attempts.
 */
export async function runWorkerProcess(concurrency: number): Promise<void> {
  const env = loadEnv();
  if (!env.DATABASE_URL) {
    throw new ConfigError(
      'fullstop worker needs DATABASE_URL (PostgreSQL): the embedded database admits a single process, whose ' +
        'in-process workers (ENGINE_WORKERS) already run the tests.',
    );
  }
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new ConfigError('--concurrency must be 1-64');
  const log = pino({ level: env.LOG_LEVEL });
  // This machine's engines: a test whose engine is missing here ends as an error saying what to install.
  logReadiness(log, await createReadiness(env).check());
  const paths = dataPaths(env.DATA_DIR);
  ensureDataDirs(paths);
  const database = openPostgres(env.DATABASE_URL, concurrency + 4);
  await migrateDatabase(database);
  const engine = createEngine({
    db: database.db,
    raw: database.raw,
    paths,
    config: engineConfig(env),
    keys: loadServerKeys(paths.dataDir, env.SERVER_KEY),
    log,
    demoClientId: null,
  });
  await engine.startWorkers(concurrency);
  await engine.startScheduler();
  // The console's System page lists this process while its heartbeat is fresh.
  const registry = new ProcessRegistry(database.db, { id: engine.deps.workerId, role: 'worker', workers: concurrency }, log);
  await registry.start();
  log.info({ concurrency, workerId: engine.deps.workerId }, 'worker started');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  log.info('worker stopping');
  await registry.stop();
  await engine.stop();
  await database.close();
}
