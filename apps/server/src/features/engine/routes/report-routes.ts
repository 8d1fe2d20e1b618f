import { insights, reportFileParams, reportGroups, reportLinkResponse, reportViewQuery } from '@fullstop/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError, UnauthorizedError } from '../../../lib/errors.ts';
import { errorResponses } from '../../../lib/route-schemas.ts';
import { ownClientId } from '../../auth/guard.ts';
import type { EngineDeps } from '../deps.ts';
import { computeInsights } from '../insights/compute-insights.ts';
import { listReports, openReport, type ReportFile } from '../reports/report-store.ts';
import { signUrlToken, verifyUrlToken } from './events-token.ts';

/**
 * A report holds strings from the client's own site (titles, evidence, error texts). Served with this policy it
 * lives in an opaque origin (sandbox without allow-same-origin): no script runs, nothing can read the portal's
 * storage or cookies, nothing loads from anywhere. The HTML reporter needs only inline styles and data: images.
 */
export const REPORT_CSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** A view link opens one report once the user clicked; a minute is plenty. */
export const REPORT_VIEW_TTL_SECONDS = 60;
const VIEW_PURPOSE = 'fullstop report view token v1';

/** Formats a browser shows; the others (zip) are a download when a browser opens them. */
const SHOWN_FORMATS = new Set(['html', 'json', 'xml']);

/**
 * `show`: the view route, the only one a browser navigates to (the fetch route needs a header, so it is always
 * read by code: the portal's fetch, a CI script); there a zip is an attachment and the rest is shown, sandboxed.
 */
function sendReport(request: FastifyRequest, reply: FastifyReply, file: ReportFile, format: string, show: boolean) {
  // The file may fail to open or read from the moment it exists; fastify ends the answer, this logs why.
  file.stream.on('error', (err) => request.log.warn({ err }, 'reading a report file failed'));
  const inline = !show || SHOWN_FORMATS.has(format.toLowerCase());
  return reply
    .header('content-type', file.contentType)
    .header('content-length', String(file.size))
    .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename="${file.fileName}"`)
    .header('cache-control', 'private, no-store')
    .header('content-security-policy', REPORT_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-resource-policy', 'same-origin')
    .send(file.stream);
}

/** Reports (list, files, view links) and insights of the caller's own client. */
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
        return sendReport(request, reply, file, request.params.format, false);
      },
    );

    app.post(
      '/report/link/:reportName/:format',
      {
        preHandler: app.authenticate,
        schema: {
          tags: ['reports'],
          summary: 'A short-lived address that shows one report in a sandboxed tab of its own',
          params: reportFileParams,
          response: { 200: reportLinkResponse, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        const clientId = ownClientId(request.principal);
        const { reportName } = request.params;
        const format = request.params.format.toLowerCase();
        // Only for a report of the caller's own client that exists in this format.
        const file = await openReport(deps.db, clientId, reportName, format);
        file.stream.on('error', () => {});
        (file.stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
        const token = signUrlToken(app.keys, VIEW_PURPOSE, { c: clientId, r: reportName, f: format }, REPORT_VIEW_TTL_SECONDS);
        return {
          url: `/report/view/${encodeURIComponent(reportName)}/${encodeURIComponent(format)}?token=${encodeURIComponent(token)}`,
          expiresIn: REPORT_VIEW_TTL_SECONDS,
        };
      },
    );

    app.get(
      '/report/view/:reportName/:format',
      {
        schema: {
          tags: ['reports'],
          summary: 'One report, shown in the browser under a sandbox policy; the token comes from POST /report/link',
          params: reportFileParams,
          querystring: reportViewQuery,
          response: { 200: z.any().describe('the file'), ...errorResponses(400, 401, 404) },
        },
      },
      async (request, reply) => {
        const claims = verifyUrlToken(app.keys, VIEW_PURPOSE, request.query.token);
        const format = request.params.format.toLowerCase();
        if (!claims || typeof claims.c !== 'string' || claims.r !== request.params.reportName || claims.f !== format) {
          throw new UnauthorizedError('This report link is invalid or has expired: open the report again from the portal', 'INVALID_TOKEN');
        }
        const file = await openReport(deps.db, claims.c, request.params.reportName, format);
        return sendReport(request, reply, file, format, true);
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
