import { idParam, RETENTION_DEFAULT_DAYS, retentionResponse, retentionSummary, setRetentionRequest } from '@fullstop/contracts';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../lib/access.ts';
import { audit } from '../../lib/audit.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { getClient } from '../accounts/index.ts';
import { assertClientAccess } from '../auth/index.ts';
import { getRetentionDays, setRetentionDays } from './repository.ts';
import { RetentionService } from './service.ts';

const routes: FastifyPluginAsyncZod = async (app) => {
  const defaultDays = RETENTION_DEFAULT_DAYS;
  const operatorRoute = <S extends object>(summary: string, schema: S) => ({
    config: { access: access.operators },
    schema: { tags: ['operator'], params: idParam, summary, ...schema },
  });

  app.get(
    '/operator/clients/:id/retention',
    operatorRoute('How long the client’s runs and builds are kept', { response: { 200: retentionResponse, ...errorResponses(401, 403, 404) } }),
    async (request) => {
      const client = await getClient(app.db, request.params.id);
      return retentionSummary(client.retentionDays, defaultDays);
    },
  );

  app.put(
    '/operator/clients/:id/retention',
    operatorRoute('Set the client’s retention in days (null: the default)', {
      body: setRetentionRequest,
      response: { 200: retentionResponse, ...errorResponses(400, 401, 403, 404) },
    }),
    async (request) => {
      const client = await getClient(app.db, request.params.id);
      const { days } = request.body;
      await setRetentionDays(app.db, client.id, days);
      await audit(app.db, request.log, {
        type: 'retention.changed',
        clientId: client.id,
        userId: request.principal?.userId,
        address: request.ip,
        details: { from: client.retentionDays, to: days },
      });
      return retentionSummary(days, defaultDays);
    },
  );

  app.get(
    '/clientProfile/retention/:id',
    {
      config: { access: access.clientReadersAndOperators },
      schema: {
        tags: ['client profile'],
        security: [{ bearer: [] }, { apiKey: [] }],
        params: idParam,
        summary: 'How long the client’s runs and uploaded builds are kept, and what is deleted',
        response: { 200: retentionResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      assertClientAccess(request.principal, id);
      await getClient(app.db, id);
      return retentionSummary(await getRetentionDays(app.db, id), defaultDays);
    },
  );
};

/**
 * Retention: the routes, and (unless RETENTION_SWEEP_INTERVAL is 0; under NODE_ENV=test unless set) the sweep
 * every RETENTION_SWEEP_INTERVAL seconds in this process. Several API processes may each sweep: see service.ts.
 */
export const retentionFeature = fp(async (app) => {
  const service = new RetentionService({ db: app.db, paths: app.paths, artifacts: app.artifacts, log: app.log.child({ feature: 'retention' }), defaultDays: RETENTION_DEFAULT_DAYS });
  app.decorate('retention', service);
  await app.register(routes);
  const interval = app.env.RETENTION_SWEEP_INTERVAL ?? (app.env.NODE_ENV === 'test' ? 0 : 3600);
  if (interval > 0) app.addHook('onReady', async () => service.start(interval));
  app.addHook('preClose', async () => service.stop());
});

declare module 'fastify' {
  interface FastifyInstance {
    retention: RetentionService;
  }
}
