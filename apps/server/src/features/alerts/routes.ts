import {
  alertChannel,
  alertChannelList,
  alertChannelResponse,
  alertDeliveryList,
  alertTestResponse,
  confirmAlertChannelBody,
  createAlertChannelBody,
  idParam,
  messageResponse,
  updateAlertChannelBody,
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
import { deleteChannel, findChannel, listAlertDeliveries } from './repository.ts';
import { AlertsService } from './service.ts';

const NOT_FOUND = 'Alert channel not found';

const routes: FastifyPluginAsyncZod<{ service: AlertsService }> = async (app, { service }) => {
  const tags = ['alerts'];
  const security: Record<string, string[]>[] = [{ bearer: [] }, { apiKey: [] }];
  const manage = { access: access.teamWriters, action: 'manage alerts' };

  app.get(
    '/alerts/channels',
    { config: { access: access.clientReaders }, schema: { tags, security, summary: 'The client’s alert channels (webhook secrets masked)', response: { 200: alertChannelList, ...errorResponses(401, 403) } } },
    async (request) => ({ channels: await service.list(ownClientId(request.principal)) }),
  );

  app.get(
    '/alerts/deliveries',
    { config: { access: access.clientReaders }, schema: { tags, security, summary: 'The last 50 alert deliveries and what each channel answered', response: { 200: alertDeliveryList, ...errorResponses(401, 403) } } },
    async (request) => ({ deliveries: await listAlertDeliveries(app.db, ownClientId(request.principal)) }),
  );

  app.post(
    '/alerts/channels',
    {
      config: manage,
      onSend: noStore,
      schema: { tags, summary: 'Add an alert channel (all rules unless chosen); a generic webhook’s signing secret is shown once', body: createAlertChannelBody, response: { 201: alertChannelResponse, ...errorResponses(400, 401, 403, 409, 429) } },
    },
    async (request, reply) => {
      const clientId = ownClientId(request.principal);
      const result = await service.create(clientId, request.body);
      await audit(app.db, request.log, { type: 'alert.channel-created', clientId, userId: request.principal?.userId, address: request.ip, details: { id: result.channel.id, kind: result.channel.kind, rules: result.channel.rules } });
      return reply.code(201).send(result);
    },
  );

  app.patch(
    '/alerts/channels/:id',
    {
      config: manage,
      onSend: noStore,
      schema: { tags, summary: 'Change an alert channel: name, target, rules, on/off, or a new webhook secret (shown once)', params: idParam, body: updateAlertChannelBody, response: { 200: alertChannelResponse, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (request) => {
      const clientId = ownClientId(request.principal);
      const row = await findChannel(app.db, clientId, request.params.id);
      if (!row) throw new NotFoundError(NOT_FOUND);
      const result = await service.update(row, request.body);
      await audit(app.db, request.log, { type: 'alert.channel-updated', clientId, userId: request.principal?.userId, address: request.ip, details: { id: row.id, changed: Object.keys(request.body) } });
      return result;
    },
  );

  app.delete(
    '/alerts/channels/:id',
    { config: manage, schema: { tags, summary: 'Remove an alert channel (its past deliveries stay listed)', params: idParam, response: { 200: messageResponse, ...errorResponses(401, 403, 404) } } },
    async (request) => {
      const clientId = ownClientId(request.principal);
      if (!(await deleteChannel(app.db, clientId, request.params.id))) throw new NotFoundError(NOT_FOUND);
      await audit(app.db, request.log, { type: 'alert.channel-deleted', clientId, userId: request.principal?.userId, address: request.ip, details: { id: request.params.id } });
      return { message: 'Alert channel removed' };
    },
  );

  app.post(
    '/alerts/channels/:id/test',
    { config: manage, schema: { tags, summary: 'Send a test alert now and say what the channel answered', params: idParam, response: { 200: alertTestResponse, ...errorResponses(401, 403, 404, 409, 429) } } },
    async (request) => {
      const clientId = ownClientId(request.principal);
      const row = await findChannel(app.db, clientId, request.params.id);
      if (!row) throw new NotFoundError(NOT_FOUND);
      return service.test(clientId, row);
    },
  );

  app.post(
    '/alerts/channels/:id/confirmation',
    { config: manage, schema: { tags, summary: 'Mail an e-mail channel’s confirmation link again (counted like a test alert)', params: idParam, response: { 200: alertChannel, ...errorResponses(400, 401, 403, 404, 409, 429) } } },
    async (request) => {
      const row = await findChannel(app.db, ownClientId(request.principal), request.params.id);
      if (!row) throw new NotFoundError(NOT_FOUND);
      return service.resendConfirmation(row);
    },
  );

  app.post(
    '/alerts/confirm',
    { config: { access: access.anyone }, schema: { tags, summary: 'No login: the link mailed to a new e-mail channel’s address confirms it (once, for 72 hours)', body: confirmAlertChannelBody, response: { 200: messageResponse, ...errorResponses(400, 410) } } },
    async (request) => service.confirm(request.body.token),
  );

  app.get(
    '/operator/clients/:id/alert-channels',
    { config: { access: access.operators }, schema: { tags: ['operator'], params: idParam, summary: 'A client’s alert channels (secrets masked)', response: { 200: alertChannelList, ...errorResponses(401, 403, 404) } } },
    async (request) => ({ channels: await service.list((await getClient(app.db, request.params.id)).id) }),
  );

  app.get(
    '/operator/clients/:id/alert-deliveries',
    { config: { access: access.operators }, schema: { tags: ['operator'], params: idParam, summary: 'A client’s last 50 alert deliveries and their answers', response: { 200: alertDeliveryList, ...errorResponses(401, 403, 404) } } },
    async (request) => ({ deliveries: await listAlertDeliveries(app.db, (await getClient(app.db, request.params.id)).id) }),
  );
};

/**
 * Alerts: routes, and (outside tests, or with ALERTS_WORKER=1) the loop that evaluates finished runs, whichever
 * process finished them, and delivers. A run ending in this process starts a pass at once.
 */
export const alertsFeature = fp(async (app) => {
  const service = new AlertsService({ db: app.db, keys: app.keys, env: app.env, log: app.log.child({ feature: 'alerts' }), mailer: app.mailer });
  app.decorate('alerts', service);
  app.engine.deps.runFinished.push(async () => service.onRunFinished());
  await app.register(routes, { service });
  // Slack and Teams URLs stored in clear before decision 0076 are sealed before the server answers.
  await service.sealLegacyTargets();
  if (app.env.ALERTS_WORKER ?? app.env.NODE_ENV !== 'test') {
    app.addHook('onReady', async () => service.start());
  }
  app.addHook('preClose', async () => service.stop());
});

declare module 'fastify' {
  interface FastifyInstance {
    alerts: AlertsService;
  }
}
