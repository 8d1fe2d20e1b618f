import {
  historyReportParams,
  historyRunParams,
  historyRunReportParams,
  reportLinkQuery,
  reportLinkResponse,
  reportViewQuery,
  runHistoryDetail,
  runHistoryPage,
  runHistoryPageQuery,
} from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError, UnauthorizedError } from '../../../lib/errors.ts';
import { errorResponses } from '../../../lib/route-schemas.ts';
import { ownClientId } from '../../auth/guard.ts';
import { noStore } from '../../auth/no-store.ts';
import type { EngineDeps } from '../deps.ts';
import { serveReport } from '../reports/report-service.ts';
import { runHistory, runHistoryDetail as detailOf } from './history-service.ts';
import { openRunTestReport, runTestReportLink, viewTokenOf } from './run-test-reports.ts';

/** The client's run history: pages of runs, one run with what changed since before, and that run's reports. */
export function historyRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/test/history',
      {
        preHandler: app.authenticate,
        schema: { tags: ['tests'], summary: 'Runs, newest first, paged; by status, or those that ran a test', querystring: runHistoryPageQuery, response: { 200: runHistoryPage, ...errorResponses(400, 401, 403) } },
      },
      async (request) => runHistory(deps, ownClientId(request.principal), request.query),
    );

    app.get(
      '/test/history/:runId',
      {
        preHandler: app.authenticate,
        schema: { tags: ['tests'], summary: 'One run: who started it, each test with evidence and reports, what changed since before', params: historyRunParams, response: { 200: runHistoryDetail, ...errorResponses(400, 401, 403, 404) } },
      },
      async (request) => {
        const detail = await detailOf(deps, ownClientId(request.principal), request.params.runId);
        if (!detail) throw new NotFoundError('Run not found');
        return detail;
      },
    );

    app.post(
      '/test/history/:runId/tests/:runTestId/report/:format/link',
      {
        preHandler: app.authenticate,
        onSend: noStore,
        schema: { tags: ['tests'], summary: 'A short-lived address that shows this run’s report of one test in a tab of its own', params: historyReportParams, querystring: reportLinkQuery, response: { 200: reportLinkResponse, ...errorResponses(400, 401, 403, 404) } },
      },
      async (request) => runTestReportLink(deps, app.keys, ownClientId(request.principal), request.params, request.query),
    );

    app.get(
      '/test/history/:runId/tests/:runTestId/report/:format/view',
      {
        schema: {
          tags: ['tests'],
          summary: 'This run’s report of one test, shown under the reports’ sandbox policy; the token comes from its link',
          params: historyReportParams,
          querystring: reportViewQuery,
          response: { 200: z.any().describe('the file'), ...errorResponses(400, 401, 404) },
        },
      },
      async (request, reply) => {
        const view = viewTokenOf(app.keys, request.query.token, request.params);
        if (!view) throw new UnauthorizedError('This report link is invalid or has expired: open the report again from the portal', 'INVALID_TOKEN');
        return serveReport(request, reply, await openRunTestReport(deps, view.clientId, request.params), view.reader);
      },
    );

    app.post(
      '/test/history/:runId/report/:format/link',
      {
        preHandler: app.authenticate,
        onSend: noStore,
        schema: { tags: ['tests'], summary: 'A short-lived address that shows (html) or downloads (pdf) the report of a whole run', params: historyRunReportParams, querystring: reportLinkQuery, response: { 200: reportLinkResponse, ...errorResponses(400, 401, 403, 404) } },
      },
      async (request) => runTestReportLink(deps, app.keys, ownClientId(request.principal), request.params, request.query),
    );

    app.get(
      '/test/history/:runId/report/:format/view',
      {
        schema: {
          tags: ['tests'],
          summary: 'The report of a whole run, shown under the reports’ sandbox policy; the token comes from its link',
          params: historyRunReportParams,
          querystring: reportViewQuery,
          response: { 200: z.any().describe('the file'), ...errorResponses(400, 401, 404) },
        },
      },
      async (request, reply) => {
        const view = viewTokenOf(app.keys, request.query.token, request.params);
        if (!view) throw new UnauthorizedError('This report link is invalid or has expired: open the report again from the portal', 'INVALID_TOKEN');
        return serveReport(request, reply, await openRunTestReport(deps, view.clientId, request.params), view.reader);
      },
    );
  };
}
