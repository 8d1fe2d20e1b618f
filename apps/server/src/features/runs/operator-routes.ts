import { operatorRunRequest, runQueuedResponse, runResultResponse } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.ts';
import { getClient } from '../accounts/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { DEFAULT_WAIT_SECONDS, queueRun, resultWhenDone } from './queue-runs.ts';
import { operatorRunOrigin } from './run-origin.ts';
import { operatorClientRoute } from '../../lib/operator-route.ts';

/** Operator route that runs a client's tests, as `fullstop run --client` does. */
export function operatorRunRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/operator/clients/:id/runs',
      operatorClientRoute(app, {
        summary: 'Run a client’s tests (all, or one); with wait, answer when the run ends',
        body: operatorRunRequest,
        response: { 200: z.union([runResultResponse, runQueuedResponse]), ...errorResponses(400, 401, 403, 404) },
      }),
      async (request) => {
        const clientId = request.params.id;
        await getClient(deps.db, clientId);
        const { testName, wait, timeout } = request.body;
        const queued = await queueRun(deps, clientId, testName === undefined ? {} : { testName }, operatorRunOrigin(request.principal));
        if (!wait) return { message: `${queued.testCount} test(s) queued (run ${queued.runId})`, runId: queued.runId };
        return resultWhenDone(deps, clientId, queued.runId, timeout ?? DEFAULT_WAIT_SECONDS, request.raw);
      },
    );
  };
}
