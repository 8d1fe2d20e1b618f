import { idParam } from '@fullstop/contracts';
import { count, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.ts';
import { users } from '../../db/schema/index.ts';
import { audit } from '../../lib/audit.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { createClientWithUser, createUser, listClients, normaliseEmail } from '../accounts/service.ts';
import { ConflictError, NotFoundError } from '../../lib/errors.ts';
import { maskApiKey, readApiKey } from '../auth/api-keys.ts';
import { noStore } from '../auth/no-store.ts';
import {
  clientList,
  createClientRequest,
  createClientResponse,
  createUserRequest,
  createUserResponse,
  revealApiKeyResponse,
} from './schemas.ts';

async function assertEmailFree(db: Db, email: string): Promise<void> {
  const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, normaliseEmail(email))).limit(1);
  if (taken) throw new ConflictError('A user with this email already exists', 'email');
}

/** The operator API (operator token or an operator's bearer token): onboarding clients and their users. */
export const operatorRoutes: FastifyPluginAsyncZod = async (app) => {
  const security = [{ bearer: [] }];

  app.post(
    '/operator/clients',
    {
      preHandler: app.requireOperator,
      onSend: noStore,
      schema: {
        tags: ['operator'],
        summary: 'Create a client with its first user and API key (answered masked)',
        security,
        body: createClientRequest,
        response: { 201: createClientResponse, ...errorResponses(400, 401, 403, 409) },
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
      preHandler: app.requireOperator,
      onSend: noStore,
      schema: {
        tags: ['operator'],
        summary: 'List every client, with its API key masked',
        security,
        response: { 200: clientList, ...errorResponses(401, 403) },
      },
    },
    async () => {
      const rows = await listClients(app.db);
      const counts = await app.db.select({ clientId: users.clientId, n: count() }).from(users).groupBy(users.clientId);
      const byClient = new Map(counts.map((c) => [c.clientId, Number(c.n)]));
      const masked = await Promise.all(rows.map(async (c) => maskApiKey((await readApiKey(app.db, app.keys, c.id)) ?? '')));
      return {
        clients: rows.map((c, i) => ({
          id: c.id,
          clientName: c.name,
          website: c.website,
          createdAt: c.createdAt.toISOString(),
          users: byClient.get(c.id) ?? 0,
          apiKeyMasked: masked[i]!,
        })),
      };
    },
  );

  app.post(
    '/operator/users',
    {
      preHandler: app.requireOperator,
      schema: {
        tags: ['operator'],
        summary: "Create a user for a client (or another operator)",
        security,
        body: createUserRequest,
        response: { 201: createUserResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { clientId, email, password, username, role } = request.body;
      const { userId } = await createUser(app.db, { email, password, username, role, clientId: clientId ?? null });
      await audit(app.db, request.log, { type: 'user.created', clientId, userId, address: request.ip, details: { role, by: request.principal?.via } });
      return reply.code(201).send({ userId });
    },
  );

  app.post(
    '/operator/clients/:id/reveal-api-key',
    {
      preHandler: app.requireOperator,
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
};
