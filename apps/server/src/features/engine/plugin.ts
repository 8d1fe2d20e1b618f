import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSuiteFolder } from '@fullstop/engine';
import fp from 'fastify-plugin';
import { loadEngineConfig } from './config.ts';
import { createEngine, type Engine } from './engine-service.ts';
import { eventsRoute } from './routes/events-route.ts';
import { operatorEngineRoutes } from './routes/operator-routes.ts';
import { reportRoutes } from './routes/report-routes.ts';
import { testRoutes } from './routes/test-routes.ts';
import { currentSuite, importSuite } from './suites/suite-store.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The demo client's suite: it tests this product's own site. */
export const DEMO_SUITE_DIR = path.resolve(here, '../../../../../suites/demo');

/**
 * The test engine's routes, queue and workers (tests, runs, reports, insights). Workers run in this process
 * unless ENGINE_WORKERS=0; pg-boss itself starts only when first needed.
 */
export const engineFeature = fp(
  async (app) => {
  const config = loadEngineConfig(process.env, app.env.NODE_ENV);
  const engine = createEngine({
    db: app.db,
    raw: app.database,
    paths: app.paths,
    config,
    log: app.log.child({ feature: 'engine' }),
    demoClientId: app.demoClientId,
    onResultsChanged: (clientId) => {
      app.cache.invalidate(clientId, 'reports');
      app.cache.invalidate(clientId, 'insights');
    },
  });
  app.decorate('engine', engine);

  await app.register(testRoutes(engine.deps));
  await app.register(eventsRoute(engine.deps));
  await app.register(reportRoutes(engine.deps));
  await app.register(operatorEngineRoutes(engine.deps));

  if (app.demoClientId && config.demoSuite && existsSync(DEMO_SUITE_DIR) && !(await currentSuite(app.db, app.demoClientId))) {
    try {
      const imported = await importSuite(engine.deps, app.demoClientId, await readSuiteFolder(DEMO_SUITE_DIR), 'demo');
      app.log.info({ tests: imported.tests }, 'imported the demo suite');
    } catch (err) {
      app.log.error({ err }, 'the demo suite could not be imported');
    }
  }

  app.addHook('onReady', async () => {
    await engine.startWorkers(config.workers);
  });
  app.addHook('preClose', async () => {
    await engine.stop();
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
