import pino from 'pino';
import { ConfigError, loadEnv } from '../../config/env.ts';
import { migrateDatabase, openPostgres } from '../../db/database.ts';
import { createArtifactStore } from '../../lib/artifact-store/index.ts';
import { dataPaths, ensureDataDirs } from '../../lib/data-dir.ts';
import { createReadiness, logReadiness } from '../health/index.ts';
import { engineConfig } from './config.ts';
import { createEngine } from './engine-service.ts';
import { announceRunners, runnerIsolation } from './isolation.ts';
import { ClusterChannel } from '../../lib/cluster-channel.ts';
import { loadServerKeys } from '../../lib/server-keys.ts';
import { ProcessRegistry } from '../system/index.ts';

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
  // A worker on another machine than the API processes needs ARTIFACT_STORE=s3 for its reports to be served.
  const artifacts = await createArtifactStore(env, paths);
  await artifacts.check();
  const database = openPostgres(env.DATABASE_URL, concurrency + 4);
  await migrateDatabase(database);
  // The API processes hear this worker's events and result changes through it (EVENTS_VIA_NOTIFY=false: they poll).
  const channel = env.EVENTS_VIA_NOTIFY ? new ClusterChannel(env.DATABASE_URL, database.db, log.child({ feature: 'cluster' })) : null;
  await channel?.start();
  // Its runner users are one per test it runs at once (--concurrency), plus its warm pool's.
  const config = engineConfig(env, { workers: concurrency });
  const engine = createEngine({
    db: database.db,
    raw: database.raw,
    paths,
    artifacts,
    config,
    keys: loadServerKeys(paths.dataDir, env.SERVER_KEY),
    log,
    demoClientId: null,
    channel,
    // Every API process drops its cached reports and insights of the client.
    onResultsChanged: (clientId) => void channel?.publish({ kind: 'cache', clientId, namespaces: ['reports', 'insights'] }),
  });
  await announceRunners(config, log, { production: env.NODE_ENV === 'production', workers: concurrency });
  await engine.startWorkers(concurrency);
  await engine.startScheduler();
  // The console's System page lists this process while its heartbeat is fresh.
  const registry = new ProcessRegistry(database.db, { id: engine.deps.workerId, role: 'worker', workers: concurrency, isolation: runnerIsolation(config, concurrency) }, log);
  await registry.start();
  log.info({ concurrency, workerId: engine.deps.workerId }, 'worker started');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  log.info('worker stopping');
  await registry.stop();
  await engine.stop();
  await channel?.close();
  await database.close();
}
