import {
  historyReportParams,
  historyRunParams,
  historyRunReportParams,
  idString,
  reportLinkQuery,
  reportLinkResponse,
  reportViewQuery,
  runHistoryDetail,
  runHistoryPage,
  runHistoryPageQuery,
} from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access } from '../../lib/access.ts';
import { NotFoundError, UnauthorizedError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { ownClientId } from '../auth/index.ts';
import { noStore } from '../auth/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { serveReport } from '../reports/index.ts';
import { runHistory, runHistoryDetail as detailOf } from './history-service.ts';
import { openRunTestReport, type RunTestReportRef, runTestReportLink, viewTokenOf } from './run-test-reports.ts';
import { latestRoutes } from './latest-routes.ts';

/** The client's run history: pages of runs, one run with what changed since before, and that run's reports. */
export function historyRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(latestRoutes(deps));
    app.get(
      '/test/history',
      {
        config: { access: access.clientReaders },
        schema: { tags: ['tests'], summary: 'Runs, newest first, paged; by status, or those that ran a test', querystring: runHistoryPageQuery, response: { 200: runHistoryPage, ...errorResponses(400, 401, 403) } },
      },
      async (request) => runHistory(deps, ownClientId(request.principal), request.query),
    );

    app.get(
      '/test/history/:runId',
      {
        config: { access: access.clientReaders },
        schema: { tags: ['tests'], summary: 'One run: who started it, each test with evidence and reports, what changed since before', params: historyRunParams, response: { 200: runHistoryDetail, ...errorResponses(400, 401, 403, 404) } },
      },
      async (request) => {
        const detail = await detailOf(deps, ownClientId(request.principal), request.params.runId);
        if (!detail) throw new NotFoundError('Run not found');
        return detail;
      },
    );

    // A run's own report of one test, and the report of the whole run (Run all): each a link route and a view route.
    const reportRoutes = (base: string, params: typeof historyReportParams | typeof historyRunReportParams, what: string) => {
      app.post(
        `${base}/link`,
        {
          config: { access: access.clientReaders },
          onSend: noStore,
          schema: { tags: ['tests'], summary: `A short-lived address that shows or downloads ${what}`, params, querystring: reportLinkQuery, response: { 200: reportLinkResponse, ...errorResponses(400, 401, 403, 404, 503) } },
        },
        async (request) => runTestReportLink(deps, app.keys, ownClientId(request.principal), request.params as RunTestReportRef, request.query, request.log),
      );
      app.get(
        `${base}/view`,
        {
          config: { access: access.anyone },
          schema: {
            tags: ['tests'],
            summary: `${what[0]!.toUpperCase()}${what.slice(1)}, shown under the reports’ sandbox policy; the token comes from its link`,
            params,
            querystring: reportViewQuery,
            response: { 200: z.any().describe('the file'), ...errorResponses(400, 401, 404) },
          },
        },
        async (request, reply) => {
          const ref = request.params as RunTestReportRef;
          const view = viewTokenOf(app.keys, request.query.token, ref);
          if (!view) throw new UnauthorizedError('This report link is invalid or has expired: open the report again from the portal', 'INVALID_TOKEN');
          return serveReport(request, reply, await openRunTestReport(deps, view.clientId, ref), view.reader);
        },
      );
    };
    reportRoutes('/test/history/:runId/tests/:runTestId/report/:format', historyReportParams, 'this run’s report of one test');
    reportRoutes('/test/history/:runId/report/:format', historyRunReportParams, 'the report of a whole run (html shown, pdf downloaded)');

    // The console's failing tests open the same report the client reads: the link is the client's, made for an operator.
    app.post(
      '/operator/clients/:id/runs/:runId/tests/:runTestId/report/:format/link',
      {
        config: { access: access.operators },
        onSend: noStore,
        schema: {
          tags: ['operator'],
          summary: 'A short-lived address that shows or downloads a run’s report of one test of any client',
          params: historyReportParams.extend({ id: idString }),
          querystring: reportLinkQuery,
          response: { 200: reportLinkResponse, ...errorResponses(400, 401, 403, 404, 503) },
        },
      },
      async (request) => {
        const { id, ...ref } = request.params;
        return runTestReportLink(deps, app.keys, id, ref, request.query, request.log);
      },
    );
  };
}
