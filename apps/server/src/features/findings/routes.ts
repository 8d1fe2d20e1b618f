import { falsePositiveRequest, falsePositivesResponse, messageResponse, securityAlertsResponse } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { NotFoundError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { listFalsePositives, markFalsePositive, unmarkFalsePositive } from './false-positive-repository.ts';
import { latestScanFindings } from './scan-findings.ts';
import { getClient } from '../accounts/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { operatorClientRoute } from '../../lib/operator-route.ts';

/** "Alert <rule>" or "Alert <rule> on <url>", as the operator named it. */
const alertName = (ruleId: string, url: string | undefined) => `Alert ${ruleId}${url ? ` on ${url}` : ''}`;

/** Operator routes of a client’s security-scan findings (the scan calls them alerts) and the ones marked false positives. */
export function findingRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // Insights and reports count false positives apart: a change here changes them.
    const invalidateResults = (clientId: string) => {
      app.cache.invalidate(clientId, 'insights');
      app.cache.invalidate(clientId, 'reports');
    };

    app.get(
      '/operator/clients/:id/alerts',
      operatorClientRoute(app, { summary: 'Alerts of the client’s latest security scan', response: { 200: securityAlertsResponse, ...errorResponses(401, 403, 404) } }),
      async (request) => {
        await getClient(deps.db, request.params.id);
        return latestScanFindings(deps.db, request.params.id);
      },
    );

    app.get(
      '/operator/clients/:id/false-positives',
      operatorClientRoute(app, { summary: 'Alerts marked false positives', response: { 200: falsePositivesResponse, ...errorResponses(401, 403, 404) } }),
      async (request) => {
        await getClient(deps.db, request.params.id);
        const rows = await listFalsePositives(deps.db, request.params.id);
        return { falsePositives: rows.map((r) => ({ ruleId: r.ruleId, url: r.url || null, note: r.note, createdAt: r.createdAt.toISOString() })) };
      },
    );

    app.post(
      '/operator/clients/:id/false-positives',
      operatorClientRoute(app, {
        summary: 'Mark an alert (rule, optionally one URL) a false positive',
        body: falsePositiveRequest,
        response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) },
      }),
      async (request) => {
        const clientId = request.params.id;
        await getClient(deps.db, clientId);
        const { ruleId, url, note } = request.body;
        await markFalsePositive(deps.db, clientId, { ruleId, url: url ?? '' }, note ?? null, request.principal?.via ?? null);
        invalidateResults(clientId);
        return { message: `${alertName(ruleId, url)} marked a false positive` };
      },
    );

    app.delete(
      '/operator/clients/:id/false-positives',
      operatorClientRoute(app, {
        summary: 'Count an alert by its risk again',
        body: falsePositiveRequest.pick({ ruleId: true, url: true }),
        response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) },
      }),
      async (request) => {
        const clientId = request.params.id;
        await getClient(deps.db, clientId);
        const { ruleId, url } = request.body;
        if (!(await unmarkFalsePositive(deps.db, clientId, { ruleId, url: url ?? '' }))) throw new NotFoundError('No such false positive');
        invalidateResults(clientId);
        return { message: `${alertName(ruleId, url)} counts by its risk again` };
      },
    );
  };
}
