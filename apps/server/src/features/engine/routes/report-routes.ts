import { insights, reportFileParams, reportGroups } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError } from '../../../lib/errors.ts';
import { errorResponses } from '../../../lib/route-schemas.ts';
import { ownClientId } from '../../auth/guard.ts';
import type { EngineDeps } from '../deps.ts';
import { computeInsights } from '../insights/compute-insights.ts';
import { listReports, openReport } from '../reports/report-store.ts';

/** Reports (list and files) and insights of the caller's own client. */
export function reportRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/report/fetch/all',
      {
        preHandler: app.authenticate,
        schema: { tags: ['reports'], summary: 'Latest reports by group and name, with their formats', response: { 200: reportGroups, ...errorResponses(401, 403, 404) } },
      },
      async (request) => {
        const clientId = ownClientId(request.principal);
        const reports = await app.cache.wrap(clientId, 'reports', async () => (await listReports(deps.db, clientId)) ?? false);
        if (!reports) throw new NotFoundError('No reports available');
        return reports;
      },
    );

    app.get(
      '/report/fetch/:reportName/:format',
      {
        preHandler: app.authenticate,
        schema: {
          tags: ['reports'],
          summary: 'One report file: json, html, zip or xml (JUnit)',
          params: reportFileParams,
          response: { 200: z.any().describe('the file'), ...errorResponses(401, 403, 404) },
        },
      },
      async (request, reply) => {
        const clientId = ownClientId(request.principal);
        const file = await openReport(deps.db, clientId, request.params.reportName, request.params.format);
        return reply
          .header('content-type', file.contentType)
          .header('content-length', String(file.size))
          .header('content-disposition', `inline; filename="${file.fileName}"`)
          .header('cache-control', 'private, no-store')
          .header('content-security-policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox")
          .send(file.stream);
      },
    );

    app.get(
      '/insight/fetch/all',
      {
        preHandler: app.authenticate,
        schema: { tags: ['insights'], summary: 'load, zap, frontend-report and security-report from each kind’s latest run', response: { 200: insights, ...errorResponses(401, 403) } },
      },
      async (request) => {
        const clientId = ownClientId(request.principal);
        return app.cache.wrap(clientId, 'insights', () => computeInsights(deps.db, clientId));
      },
    );
  };
}
