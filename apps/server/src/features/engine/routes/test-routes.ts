import {
  eventsTokenResponse,
  idString,
  runDetailResponse,
  runHistoryQuery,
  runHistoryResponse,
  runQuery,
  runQueuedResponse,
  runResultResponse,
  testGroups,
  testNameParams,
} from '@fullstop/contracts';
import type { SuiteManifest } from '@fullstop/engine';
import { and, asc, desc, eq, inArray, lt } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { engineAttempts, engineRuns, engineRunTests } from '../../../db/schema/index.ts';
import { ownClientId } from '../../auth/guard.ts';
import { noStore } from '../../auth/no-store.ts';
import { NotFoundError } from '../../../lib/errors.ts';
import { errorResponses } from '../../../lib/route-schemas.ts';
import type { EngineDeps } from '../deps.ts';
import { runEventOf } from '../runs/mappers.ts';
import { queueRun, runResult, waitForRun } from '../runs/queue-runs.ts';
import { currentSuite, testGroupsOf } from '../suites/suite-store.ts';
import { EVENTS_TOKEN_TTL_SECONDS, signEventsToken } from './events-token.ts';

/** `?wait=true` without a timeout waits this long at most, then answers with the run still going. */
const DEFAULT_WAIT_SECONDS = 30 * 60;

/** The client's tests: list, run (all or one), run history, and the live event stream. */
export function testRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/test/fetch/all',
      {
        preHandler: app.authenticate,
        schema: { tags: ['tests'], summary: 'Group name to the names of its tests', response: { 200: testGroups, ...errorResponses(401, 403) } },
      },
      async (request) => {
        const clientId = ownClientId(request.principal);
        return app.cache.wrap(clientId, 'tests', async () => testGroupsOf(((await currentSuite(deps.db, clientId))?.manifest as SuiteManifest) ?? null));
      },
    );

    const run = async (
      request: { principal: Parameters<typeof ownClientId>[0]; raw: NodeJS.EventEmitter },
      query: z.infer<typeof runQuery>,
      testName: string | undefined,
    ) => {
      const clientId = ownClientId(request.principal);
      const queued = await queueRun(deps, clientId, testName === undefined ? {} : { testName }, request.principal?.via ?? 'api');
      if (!query.wait) {
        const message =
          testName === undefined
            ? `All tests queued: ${queued.testCount} test${queued.testCount === 1 ? '' : 's'} (run ${queued.runId})`
            : `Test ${testName} queued (run ${queued.runId})`;
        return { message, runId: queued.runId };
      }
      const gone = new AbortController();
      request.raw.once('close', () => gone.abort());
      await waitForRun(deps, clientId, queued.runId, (query.timeout ?? DEFAULT_WAIT_SECONDS) * 1000, gone.signal);
      return (await runResult(deps, clientId, queued.runId))!;
    };

    const runResponses = { 200: z.union([runResultResponse, runQueuedResponse]), ...errorResponses(400, 401, 403, 404) };
    app.get(
      '/test/run/all',
      {
        preHandler: app.authenticate,
        schema: { tags: ['tests'], summary: 'Queue every test; with wait=true answer when the run ends', querystring: runQuery, response: runResponses },
      },
      async (request) => run(request, request.query, undefined),
    );
    app.get(
      '/test/run/:testName',
      {
        preHandler: app.authenticate,
        schema: { tags: ['tests'], summary: 'Queue one test by name', params: testNameParams, querystring: runQuery, response: runResponses },
      },
      async (request) => run(request, request.query, request.params.testName),
    );

    app.get(
      '/test/runs',
      {
        preHandler: app.authenticate,
        schema: { tags: ['tests'], summary: 'Run history, newest first', querystring: runHistoryQuery, response: { 200: runHistoryResponse, ...errorResponses(400, 401, 403) } },
      },
      async (request) => {
        const clientId = ownClientId(request.principal);
        const { limit, before } = request.query;
        const rows = await deps.db
          .select()
          .from(engineRuns)
          .where(before ? and(eq(engineRuns.clientId, clientId), lt(engineRuns.createdAt, new Date(before))) : eq(engineRuns.clientId, clientId))
          .orderBy(desc(engineRuns.createdAt))
          .limit(limit);
        return { runs: rows.map(runEventOf) };
      },
    );

    app.get(
      '/test/runs/:runId',
      {
        preHandler: app.authenticate,
        schema: { tags: ['tests'], summary: 'One run with every attempt of every test', params: z.object({ runId: idString }), response: { 200: runDetailResponse, ...errorResponses(401, 403, 404) } },
      },
      async (request) => {
        const clientId = ownClientId(request.principal);
        const result = await runResult(deps, clientId, request.params.runId);
        if (!result) throw new NotFoundError('Run not found');
        const [runRow] = await deps.db.select().from(engineRuns).where(eq(engineRuns.id, result.runId));
        const tests = await deps.db.select().from(engineRunTests).where(eq(engineRunTests.runId, result.runId)).orderBy(asc(engineRunTests.createdAt));
        const attempts = tests.length
          ? await deps.db.select().from(engineAttempts).where(inArray(engineAttempts.runTestId, tests.map((t) => t.id))).orderBy(asc(engineAttempts.attempt))
          : [];
        return {
          ...result,
          createdAt: runRow!.createdAt.toISOString(),
          finishedAt: runRow!.finishedAt?.toISOString() ?? null,
          tests: tests.map((t) => ({
            testName: t.testName,
            group: t.groupName,
            kind: t.kind,
            status: t.status,
            totals: t.totals ?? null,
            error: t.error,
            durationMs: t.durationMs,
            attempts: attempts
              .filter((a) => a.runTestId === t.id)
              .map((a) => ({
                attempt: a.attempt,
                status: a.status,
                workerId: a.workerId,
                error: a.error,
                startedAt: a.startedAt.toISOString(),
                finishedAt: a.finishedAt?.toISOString() ?? null,
              })),
          })),
        };
      },
    );

    app.post(
      '/test/events/token',
      {
        preHandler: app.authenticate,
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
