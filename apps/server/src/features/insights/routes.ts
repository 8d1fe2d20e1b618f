import { apiPaths, insightTrends } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../lib/access.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { ownClientId } from '../auth/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { insightTrendsOf } from './insight-trends.ts';

/** The insight cards' history: when each card's run was, and a point per run over the last runs of its kind. */
export function insightRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      apiPaths.insightTrends,
      {
        config: { access: access.clientReaders },
        schema: {
          tags: ['insights'],
          summary: 'For each insight card: the date of its run and its trend over the last 20 runs of its kind',
          response: { 200: insightTrends, ...errorResponses(401, 403) },
        },
      },
      async (request) => insightTrendsOf(deps.db, ownClientId(request.principal)),
    );
  };
}
