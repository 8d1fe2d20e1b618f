import {
  eventsTokenResponse,
  idString,
  runDetailResponse,
  runHistoryQuery,
  runHistoryResponse,
  runQuery,
  runQueuedResponse,
  runCancelParams,
  runCancelResponse,
  runResultResponse,
  runTestCancelParams,
  testGroups,
  testNameParams,
} from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ownClientId } from '../auth/index.ts';
import { noStore } from '../auth/index.ts';
import { access } from '../../lib/access.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import type { EngineDeps } from '../engine/index.ts';
import { isTerminal, runDetailOf, runEventOf } from './mappers.ts';
import { manualWaitingOf } from './manual-work-repository.ts';
import { DEFAULT_WAIT_SECONDS, queueRun, resultWhenDone } from './queue-runs.ts';
import { clientRunOrigin } from './run-origin.ts';
import { listRuns, runDetail } from './run-repository.ts';
import { currentSuite } from '../suites/index.ts';
import { testGroupsOf } from '../suites/index.ts';
import { eventsRoute } from './events-route.ts';
import { EVENTS_TOKEN_TTL_SECONDS, signEventsToken } from './events-token.ts';
import { operatorRunRoutes } from './operator-routes.ts';
import { cancelCaller, cancelRun } from './cancel-runs.ts';
import { queuePlacesOf } from '../queue/index.ts';

/** The client's tests: list, run (all or one), run history, and the live event stream; the operator's runs for a client. */
export function runRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(eventsRoute(deps));
    await app.register(operatorRunRoutes(deps));
    app.get(
      '/test/fetch/all',
      {
        config: { access: access.clientReaders },
        schema: { tags: ['tests'], summary: 'Group name to the names of its tests', response: { 200: testGroups, ...errorResponses(401, 403) } },
      },
      async (request) => {
        const clientId = ownClientId(request.principal);
        return app.cache.wrap(clientId, 'tests', async () => testGroupsOf((await currentSuite(deps.db, clientId))?.manifest ?? null));
      },
    );

    const run = async (
      request: { principal: Parameters<typeof ownClientId>[0]; raw: NodeJS.EventEmitter; headers: Parameters<typeof clientRunOrigin>[1] },
      query: z.infer<typeof runQuery>,
      testName: string | undefined,
    ) => {
      const clientId = ownClientId(request.principal);
      const scope = { ...(testName === undefined ? {} : { testName }), ...(query.automatedOnly ? { automatedOnly: true } : {}), ...(query.afterDeploy ? { afterDeploy: true } : {}) };
      const queued = await queueRun(deps, clientId, scope, clientRunOrigin(request.principal, request.headers));
      if (!query.wait) {
        const message =
          testName === undefined
            ? `All tests queued: ${queued.testCount} test${queued.testCount === 1 ? '' : 's'} (run ${queued.runId})`
            : `Test ${testName} queued (run ${queued.runId})`;
        return { message, runId: queued.runId };
      }
      return resultWhenDone(deps, clientId, queued.runId, query.timeout ?? DEFAULT_WAIT_SECONDS, request.raw);
    };

    const runResponses = { 200: z.union([runResultResponse, runQueuedResponse]), ...errorResponses(400, 401, 403, 404) };
    app.get(
      '/test/run/all',
      {
        config: { access: access.clientWriters, action: 'run tests' },
        schema: { tags: ['tests'], summary: 'Queue every test; with wait=true answer when the run ends', querystring: runQuery, response: runResponses },
      },
      async (request) => run(request, request.query, undefined),
    );
    app.get(
      '/test/run/:testName',
      {
        config: { access: access.clientWriters, action: 'run tests' },
        schema: { tags: ['tests'], summary: 'Queue one test by name', params: testNameParams, querystring: runQuery, response: runResponses },
      },
      async (request) => run(request, request.query, request.params.testName),
    );

    app.get(
      '/test/runs',
      {
        config: { access: access.clientReaders },
        schema: { tags: ['tests'], summary: 'Run history, newest first', querystring: runHistoryQuery, response: { 200: runHistoryResponse, ...errorResponses(400, 401, 403) } },
      },
      async (request) => {
        const rows = await listRuns(deps.db, ownClientId(request.principal), request.query);
        return { runs: rows.map(runEventOf) };
      },
    );

    app.get(
      '/test/runs/:runId',
      {
        config: { access: access.clientReaders },
        schema: { tags: ['tests'], summary: 'One run with every attempt of every test', params: z.object({ runId: idString }), response: { 200: runDetailResponse, ...errorResponses(401, 403, 404) } },
      },
      async (request) => {
        const run = await runDetail(deps.db, ownClientId(request.principal), request.params.runId);
        if (!run) throw new NotFoundError('Run not found');
        // Its waiting tests' places in the queue (one query, and none when nothing of it waits).
        const detail = runDetailOf(run, await queuePlacesOf(deps.db, run.tests.filter((t) => t.status === 'queued').map((t) => t.id)));
        // Its manual cases still waiting for a tester (issue 41).
        const manual = await manualWaitingOf(deps.db, run.tests.filter((t) => t.kind === 'manual' && !isTerminal(t.status)).map((t) => t.id));
        return { ...detail, manual };
      },
    );

    const cancelResponses = { 200: runCancelResponse, ...errorResponses(400, 401, 403, 404, 409) };
    app.post(
      '/test/runs/:runId/cancel',
      {
        config: { access: access.clientWriters, action: 'cancel runs' },
        schema: { tags: ['tests'], summary: 'Cancel a run: its queued tests never start, its running ones are stopped; 409 once it ended', params: runCancelParams, response: cancelResponses },
      },
      async (request) => cancelRun(deps, ownClientId(request.principal), request.params.runId, null, cancelCaller(request)),
    );
    app.post(
      '/test/runs/:runId/tests/:runTestId/cancel',
      {
        config: { access: access.clientWriters, action: 'cancel runs' },
        schema: { tags: ['tests'], summary: 'Cancel one test of a run, queued or running; 409 once it ended', params: runTestCancelParams, response: cancelResponses },
      },
      async (request) => cancelRun(deps, ownClientId(request.principal), request.params.runId, request.params.runTestId, cancelCaller(request)),
    );

    app.post(
      '/test/events/token',
      {
        config: { access: access.clientReaders },
        onSend: noStore,
        schema: { tags: ['tests'], summary: 'A short-lived token for the event stream (EventSource cannot send headers)', response: { 200: eventsTokenResponse, ...errorResponses(401, 403) } },
      },
      async (request) => ({
        token: signEventsToken(app.keys, ownClientId(request.principal), request.principal?.userId ?? null),
        expiresIn: EVENTS_TOKEN_TTL_SECONDS,
      }),
    );
  };
}
