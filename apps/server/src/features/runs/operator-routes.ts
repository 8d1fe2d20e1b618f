import { idParam, operatorRunRequest, runCancelParams, runCancelResponse, runQueuedResponse, runResultResponse, runTestCancelParams } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.ts';
import { getClient } from '../accounts/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { DEFAULT_WAIT_SECONDS, queueRun, resultWhenDone } from './queue-runs.ts';
import { operatorRunOrigin } from './run-origin.ts';
import { operatorClientRoute } from '../../lib/operator-route.ts';
import { cancelCaller, cancelRun } from './cancel-runs.ts';

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
        const { testName, wait, timeout, automatedOnly, afterDeploy } = request.body;
        const queued = await queueRun(deps, clientId, { ...(testName === undefined ? {} : { testName }), automatedOnly, afterDeploy }, operatorRunOrigin(request.principal));
        if (!wait) return { message: `${queued.testCount} test(s) queued (run ${queued.runId})`, runId: queued.runId };
        return resultWhenDone(deps, clientId, queued.runId, timeout ?? DEFAULT_WAIT_SECONDS, request.raw);
      },
    );

    // Cancel any client's run, or one test of it (the console's run page and Runs feed, `fullstop cancel --client`).
    const cancelResponses = { 200: runCancelResponse, ...errorResponses(400, 401, 403, 404, 409) };
    app.post(
      '/operator/clients/:id/runs/:runId/cancel',
      operatorClientRoute(app, { summary: 'Cancel a client’s run: its queued tests never start, its running ones are stopped; 409 once it ended', params: idParam.extend(runCancelParams.shape), response: cancelResponses }),
      async (request) => cancelRun(deps, request.params.id, request.params.runId, null, cancelCaller(request)),
    );
    app.post(
      '/operator/clients/:id/runs/:runId/tests/:runTestId/cancel',
      operatorClientRoute(app, { summary: 'Cancel one test of a client’s run, queued or running; 409 once it ended', params: idParam.extend(runTestCancelParams.shape), response: cancelResponses }),
      async (request) => cancelRun(deps, request.params.id, request.params.runId, request.params.runTestId, cancelCaller(request)),
    );
  };
}
