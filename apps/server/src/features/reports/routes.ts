import { insights, reportFileParams, reportGroups, reportLinkQuery, reportLinkResponse, reportViewQuery } from '@fullstop/contracts';
import { resolveReaderTime } from '@fullstop/engine';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access } from '../../lib/access.ts';
import { NotFoundError, UnauthorizedError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { noStore, ownClientId } from '../auth/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { computeInsights } from '../insights/index.ts';
import { closeReportBrowsers, printedPdf } from './report-pdf.ts';
import { findLatestReport, listReports, serveReport } from './report-service.ts';
import { signUrlToken, verifyUrlToken } from '../../lib/url-token.ts';
import { REPORT_VIEW_TTL_SECONDS } from './report-service.ts';

export { REPORT_CSP } from './report-service.ts';

const VIEW_PURPOSE = 'fullstop report view token v1';

/** Reports (list, files, view links) and insights of the caller's own client. */
export function reportRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // The report browser a pdf download launched (closed anyway once idle) goes with the server.
    app.addHook('onClose', closeReportBrowsers);

    app.get(
      '/report/fetch/all',
      {
        config: { access: access.clientReaders },
        schema: { tags: ['reports'], summary: 'Latest reports by group and name, with their formats', response: { 200: reportGroups, ...errorResponses(401, 403, 404) } },
      },
      async (request) => {
        const clientId = ownClientId(request.principal);
        const reports = await app.cache.wrap(clientId, 'reports', async () => (await listReports(deps, clientId)) ?? false);
        if (!reports) throw new NotFoundError('No reports available');
        return reports;
      },
    );

    app.get(
      '/report/fetch/:reportName/:format',
      {
        config: { access: access.clientReaders },
        schema: {
          tags: ['reports'],
          summary: 'One report file: json, html, pdf, zip or xml (JUnit); zip, xml and pdf as a named download (a pdf is printed on its first download: 503 when it cannot be)',
          params: reportFileParams,
          response: { 200: z.any().describe('the file'), ...errorResponses(401, 403, 404, 503) },
        },
      },
      async (request, reply) => {
        const clientId = ownClientId(request.principal);
        const report = await findLatestReport(deps, clientId, request.params.reportName, request.params.format);
        return serveReport(request, reply, report);
      },
    );

    app.post(
      '/report/link/:reportName/:format',
      {
        config: { access: access.clientReaders },
        // The address carries a token: no cache may keep it.
        onSend: noStore,
        schema: {
          tags: ['reports'],
          summary: 'A short-lived address that shows one report in a sandboxed tab of its own (or downloads it), times in the reader’s locale',
          params: reportFileParams,
          querystring: reportLinkQuery,
          response: { 200: reportLinkResponse, ...errorResponses(400, 401, 403, 404, 503) },
        },
      },
      async (request) => {
        const clientId = ownClientId(request.principal);
        const { reportName } = request.params;
        const format = request.params.format.toLowerCase();
        // Only for a report of the caller's own client that exists in this format.
        const report = await findLatestReport(deps, clientId, reportName, format);
        // A pdf not printed yet is printed before its link is given: the portal downloads through a hidden link,
        // which cannot show why a print failed, while this answer's 503 is shown to the reader in words.
        if (report.print) await printedPdf(report.print, request.log);
        // An unknown locale or zone is not an error: the report reads in en-GB and UTC instead.
        const reader = resolveReaderTime(request.query);
        const token = signUrlToken(app.keys, VIEW_PURPOSE, { c: clientId, r: reportName, f: format, l: reader.locale, z: reader.timeZone }, REPORT_VIEW_TTL_SECONDS);
        return {
          url: `/report/view/${encodeURIComponent(reportName)}/${encodeURIComponent(format)}?token=${encodeURIComponent(token)}`,
          expiresIn: REPORT_VIEW_TTL_SECONDS,
        };
      },
    );

    app.get(
      '/report/view/:reportName/:format',
      {
        config: { access: access.anyone },
        schema: {
          tags: ['reports'],
          summary: 'One report, shown in the browser under a sandbox policy; the token comes from POST /report/link',
          params: reportFileParams,
          querystring: reportViewQuery,
          response: { 200: z.any().describe('the file'), ...errorResponses(400, 401, 404, 503) },
        },
      },
      async (request, reply) => {
        const claims = verifyUrlToken(app.keys, VIEW_PURPOSE, request.query.token);
        const format = request.params.format.toLowerCase();
        if (!claims || typeof claims.c !== 'string' || claims.r !== request.params.reportName || claims.f !== format) {
          throw new UnauthorizedError('This report link is invalid or has expired: open the report again from the portal', 'INVALID_TOKEN');
        }
        const report = await findLatestReport(deps, claims.c, request.params.reportName, format);
        return serveReport(request, reply, report, resolveReaderTime({ locale: claims.l, timeZone: claims.z }));
      },
    );

    app.get(
      '/insight/fetch/all',
      {
        config: { access: access.clientReaders },
        schema: { tags: ['insights'], summary: 'load, zap, frontend-report and security-report from each kind’s latest run', response: { 200: insights, ...errorResponses(401, 403) } },
      },
      async (request) => {
        const clientId = ownClientId(request.principal);
        return app.cache.wrap(clientId, 'insights', () => computeInsights(deps.db, clientId));
      },
    );
  };
}
