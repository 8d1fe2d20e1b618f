import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { EngineDeps } from '../deps.ts';
import { operatorAlertRoutes } from './operator-alert-routes.ts';
import { operatorOriginRoutes } from './operator-origin-routes.ts';
import { operatorRunRoutes } from './operator-run-routes.ts';
import { operatorSecretRoutes } from './operator-secret-routes.ts';
import { operatorSuiteRoutes } from './operator-suite-routes.ts';

/** The operator API of the engine: suites, runs for a client, alerts and false positives, allowed origins, login secrets. */
export function operatorEngineRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(operatorSuiteRoutes(deps));
    await app.register(operatorRunRoutes(deps));
    await app.register(operatorAlertRoutes(deps));
    await app.register(operatorOriginRoutes(deps));
    await app.register(operatorSecretRoutes(deps));
  };
}
