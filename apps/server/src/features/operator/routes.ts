import { idParam, opsClientList, newClientBody, newClientResponse, newUserBody, newUserResponse, revealApiKeyResponse } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../lib/access.ts';
import { audit } from '../../lib/audit.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { createClientWithUser, createUser } from '../accounts/index.ts';
import { readApiKey } from '../accounts/index.ts';
import { maskApiKey } from '../../lib/api-keys.ts';
import { noStore } from '../auth/index.ts';
import { consoleRoutes } from './console-routes.ts';
import { clientHealthMap, healthOf } from './health-repository.ts';
import { assertEmailFree, listClientSummaries } from './service.ts';

/** The operator API (operator token or an operator's bearer token): onboarding clients and their users. */
export const operatorRoutes: FastifyPluginAsyncZod = async (app) => {
  const security = [{ bearer: [] }];

  app.post(
    '/operator/clients',
    {
      config: { access: access.operators },
      onSend: noStore,
      schema: {
        tags: ['operator'],
        summary: 'Create a client with its first user and API key (answered masked)',
        security,
        body: newClientBody,
        response: { 201: newClientResponse, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { name, website, email, password, username } = request.body;
      await assertEmailFree(app.db, email);
      const { clientId, userId, apiKey } = await createClientWithUser(app.db, app.keys, { name, website, email, password, username });
      await audit(app.db, request.log, { type: 'client.created', clientId, userId, address: request.ip, details: { by: request.principal?.via } });
      return reply.code(201).send({ clientId, userId, apiKeyMasked: maskApiKey(apiKey) });
    },
  );

  app.get(
    '/operator/clients',
    {
      config: { access: access.operators },
      onSend: noStore,
      schema: {
        tags: ['operator'],
        summary: 'List every client, with its API key masked and its health (last run, failing tests, open bugs, requests waiting)',
        security,
        response: { 200: opsClientList, ...errorResponses(401, 403) },
      },
    },
    async () => {
      const [clients, health] = await Promise.all([listClientSummaries(app.db, app.keys), clientHealthMap(app.db)]);
      return { clients: clients.map((c) => ({ ...c, health: healthOf(health, c.id) })) };
    },
  );

  app.post(
    '/operator/users',
    {
      config: { access: access.operators },
      schema: {
        tags: ['operator'],
        summary: "Create a user for a client (or another operator)",
        security,
        body: newUserBody,
        response: { 201: newUserResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { clientId, email, password, username, role, teamRole } = request.body;
      const { userId } = await createUser(app.db, { email, password, username, role, teamRole, clientId: clientId ?? null });
      await audit(app.db, request.log, { type: 'user.created', clientId, userId, address: request.ip, details: { role, teamRole, by: request.principal?.via } });
      return reply.code(201).send({ userId });
    },
  );

  app.post(
    '/operator/clients/:id/reveal-api-key',
    {
      config: { access: access.operators },
      onSend: noStore,
      schema: {
        tags: ['operator'],
        summary: "Show a client's whole API key; every reveal is written to the audit log (who, which client, when)",
        security,
        params: idParam,
        response: { 200: revealApiKeyResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const apiKey = await readApiKey(app.db, app.keys, id);
      if (!apiKey) throw new NotFoundError('Client not found');
      const by = { via: request.principal?.via, operatorUserId: request.principal?.userId ?? null };
      await audit(app.db, request.log, { type: 'api-key.revealed', clientId: id, userId: request.principal?.userId, address: request.ip, details: by }, { required: true });
      request.log.info({ clientId: id, ...by, address: request.ip }, 'an operator revealed a client API key');
      return { clientId: id, apiKey };
    },
  );

  await app.register(consoleRoutes);
};
