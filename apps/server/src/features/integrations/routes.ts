import {
  connectIntegrationBody,
  connectIntegrationResponse,
  idParam,
  integrationDeliveryList,
  integrationKindParams,
  integrationList,
  integrationSyncResponse,
  messageResponse,
  operatorIntegrationList,
  testDeliveryResponse,
} from '@fullstop/contracts';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../lib/access.ts';
import { audit } from '../../lib/audit.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { getClient } from '../accounts/index.ts';
import { ownClientId } from '../auth/index.ts';
import { noStore } from '../auth/index.ts';
import { findIntegration, listDeliveries } from './repository.ts';
import { IntegrationsService } from './service.ts';

const KIND_NAMES = { webhook: 'webhook', github: 'GitHub', jira: 'Jira' } as const;

const routes: FastifyPluginAsyncZod<{ service: IntegrationsService }> = async (app, { service }) => {
  const tags = ['integrations'];
  const security: Record<string, string[]>[] = [{ bearer: [] }, { apiKey: [] }];

  app.get(
    '/integrations',
    { config: { access: access.clientReaders }, schema: { tags, security, summary: 'The client’s tracker connections (secrets masked)', response: { 200: integrationList, ...errorResponses(401, 403) } } },
    async (request) => ({ integrations: await service.list(ownClientId(request.principal)) }),
  );

  app.get(
    '/integrations/deliveries',
    { config: { access: access.clientReaders }, schema: { tags, security, summary: 'The last 50 deliveries to the client’s trackers', response: { 200: integrationDeliveryList, ...errorResponses(401, 403) } } },
    async (request) => ({ deliveries: await listDeliveries(app.db, ownClientId(request.principal)) }),
  );

  app.post(
    '/integrations/sync',
    { config: { access: access.teamWriters, action: 'sync trackers' }, schema: { tags, summary: 'Read the exported issues now; a closed one marks its bug fixed', response: { 200: integrationSyncResponse, ...errorResponses(401, 403) } } },
    async (request) => service.sync(ownClientId(request.principal)),
  );

  app.put(
    '/integrations/:kind',
    {
      config: { access: access.teamWriters, action: 'connect trackers' },
      onSend: noStore,
      schema: {
        tags,
        summary: 'Connect or replace a tracker (GitHub and Jira settings are checked with one call); a new webhook secret is shown once',
        params: integrationKindParams,
        body: connectIntegrationBody,
        response: { 200: connectIntegrationResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const clientId = ownClientId(request.principal);
      const { kind } = request.params;
      const result = await service.connect(clientId, kind, request.body);
      await audit(app.db, request.log, { type: 'integration.connected', clientId, userId: request.principal?.userId, address: request.ip, details: { kind, config: result.integration.config, newSecret: Boolean(result.secret) } });
      return result;
    },
  );

  app.delete(
    '/integrations/:kind',
    { config: { access: access.teamWriters, action: 'disconnect trackers' }, schema: { tags, summary: 'Disconnect a tracker (issues already made stay linked)', params: integrationKindParams, response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => {
      const clientId = ownClientId(request.principal);
      const { kind } = request.params;
      if (!(await service.disconnect(clientId, kind))) throw new NotFoundError(`No ${KIND_NAMES[kind]} connection`);
      await audit(app.db, request.log, { type: 'integration.disconnected', clientId, userId: request.principal?.userId, address: request.ip, details: { kind } });
      return { message: `${KIND_NAMES[kind]} disconnected` };
    },
  );

  app.post(
    '/integrations/:kind/test',
    { config: { access: access.teamWriters, action: 'test trackers' }, schema: { tags, summary: 'Send a test delivery now and say what the tracker answered', params: integrationKindParams, response: { 200: testDeliveryResponse, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => {
      const clientId = ownClientId(request.principal);
      const { kind } = request.params;
      const row = await findIntegration(app.db, clientId, kind);
      if (!row) throw new NotFoundError(`No ${KIND_NAMES[kind]} connection`);
      return service.test(clientId, kind, row);
    },
  );

  app.get(
    '/operator/clients/:id/integrations',
    {
      config: { access: access.operators },
      schema: { tags: ['operator'], params: idParam, summary: 'A client’s tracker connections (secrets masked) and its last 50 deliveries', response: { 200: operatorIntegrationList, ...errorResponses(401, 403, 404) } },
    },
    async (request) => {
      const client = await getClient(app.db, request.params.id);
      return { integrations: await service.list(client.id), deliveries: await listDeliveries(app.db, client.id) };
    },
  );
};

/**
 * Bug export to the client's tracker: routes, the listener of bug changes, and (outside tests, or with
 * INTEGRATIONS_WORKER=1) the loops that work deliveries and read issues back.
 */
export const integrationsFeature = fp(async (app) => {
  const service = new IntegrationsService({ db: app.db, keys: app.keys, env: app.env, log: app.log.child({ feature: 'integrations' }), bugChanges: app.bugChanges });
  app.decorate('integrations', service);
  app.bugChanges.on((change) => service.onBugChange(change));
  await app.register(routes, { service });
  if (app.env.INTEGRATIONS_WORKER ?? app.env.NODE_ENV !== 'test') {
    app.addHook('onReady', async () => service.start());
  }
  app.addHook('preClose', async () => service.stop());
});

declare module 'fastify' {
  interface FastifyInstance {
    integrations: IntegrationsService;
  }
}
