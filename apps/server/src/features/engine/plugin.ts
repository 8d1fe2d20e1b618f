import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readSuiteFolder, type Runner, type TestKind } from '@fullstop/engine';
import fp from 'fastify-plugin';
import { SERVER_DIR } from '../../lib/server-dir.ts';
import { engineConfig } from './config.ts';
import { createEngine, type Engine } from './engine-service.ts';
import { announceRunners } from './isolation.ts';
import { isRunnerPool } from '@fullstop/engine/sandbox';
import { evidenceRoutes } from '../evidence/routes.ts';
import { findingRoutes } from '../findings/routes.ts';
import { historyRoutes } from '../history/routes.ts';
import { insightRoutes } from '../insights/routes.ts';
import { reportRoutes } from '../reports/routes.ts';
import { runRoutes } from '../runs/routes.ts';
import { scheduleRoutes } from '../schedules/routes.ts';
import { secretRoutes } from '../secrets/routes.ts';
import { targetRoutes } from '../targets/routes.ts';
import { manualRoutes } from '../manual/index.ts';
import { suiteRoutes } from '../suites/routes.ts';
import { currentSuite } from '../suites/index.ts';
import { importSuite } from '../suites/index.ts';

/** The demo client's suite: it tests this product's own site. */
export const DEMO_SUITE_DIR = path.resolve(SERVER_DIR, '../../suites/demo');

/** Tests: the runners suites are validated against, and the module exporting them that runner processes load. */
export interface EngineOptions {
  runners?: Partial<Record<TestKind, Runner>>;
  runnersModule?: string;
}

/**
 * The test engine's routes, queue and workers (tests, runs, reports, insights). Workers run in this process
 * unless ENGINE_WORKERS=0; pg-boss itself starts only when first needed.
 */
export const engineFeature = fp<EngineOptions>(
  async (app, opts) => {
  const config = engineConfig(app.env);
  // Without runners of their own, suites are validated against ENGINE_RUNNERS_MODULE's, the ones the runs load.
  const runnersModule = opts.runnersModule ?? config.runnersModule;
  const runners = opts.runners ?? (runnersModule ? ((await import(pathToFileURL(runnersModule).href)) as Pick<EngineOptions, 'runners'>).runners : undefined);
  const engine = createEngine({
    runners,
    runnersModule,
    db: app.db,
    raw: app.database,
    paths: app.paths,
    artifacts: app.artifacts,
    config,
    keys: app.keys,
    log: app.log.child({ feature: 'engine' }),
    demoClientId: app.demoClientId,
    // Announced to the other API processes too (the cache's channel).
    onResultsChanged: (clientId) => {
      void app.cache.invalidate(clientId, 'reports');
      void app.cache.invalidate(clientId, 'insights');
    },
    channel: app.cluster,
  });
  app.decorate('engine', engine);

  // Each feature of the engine brings its routes, the client's and the operator's (`<feature>/routes.ts`).
  for (const routes of [runRoutes, reportRoutes, evidenceRoutes, historyRoutes, insightRoutes, scheduleRoutes, suiteRoutes, secretRoutes, targetRoutes, findingRoutes, manualRoutes]) {
    await app.register(routes(engine.deps));
  }

  if (app.demoClientId && config.demoSuite && existsSync(DEMO_SUITE_DIR) && !(await currentSuite(app.db, app.demoClientId))) {
    try {
      const imported = await importSuite(engine.deps, app.demoClientId, await readSuiteFolder(DEMO_SUITE_DIR), 'demo');
      app.log.info({ tests: imported.tests }, 'imported the demo suite');
    } catch (err) {
      app.log.error({ err }, 'the demo suite could not be imported');
    }
  }

  app.addHook('onReady', async () => {
    // Before any test runs: a root server claims (makes) its runner users, and says who runners run as.
    await announceRunners(config, app.log, { production: app.env.NODE_ENV === 'production', workers: config.workers });
    await engine.startWorkers(config.workers);
    if (config.scheduler) await engine.startScheduler();
  });
  app.addHook('preClose', async () => {
    await engine.stop();
    // Its runs have ended: the runner users it held are free for another process of this machine.
    if (isRunnerPool(config.runAs)) config.runAs.close();
  });
  },
  { name: 'engine' },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** The engine's services; tests start workers through it. */
    engine: Engine;
  }
}
