import {
  clientRequest,
  clientRequestList,
  clientRequestParams,
  clientRequestStatus,
  createClientRequest,
  operatorClientRequestList,
  updateClientRequest,
} from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError, TooManyRequestsError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { ownClientId } from '../auth/guard.ts';
import { countSince, createForClient, listAll, listForClient, updateStatus } from './repository.ts';

/** A client can send this many requests per day; more is a script gone wrong, not a person. */
export const REQUESTS_PER_DAY = 50;
const DAY_MS = 24 * 3600 * 1000;

/**
 * Client requests: a new feature to test, a manual test, a free retest under the satisfaction guarantee.
 * Clients (bearer or x-api-key) see and create only their own; operators list all and move them along.
 */
export const requestsFeature: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/requests',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['requests'],
        summary: "The caller's client's requests, newest first",
        response: { 200: clientRequestList, ...errorResponses(401, 403) },
      },
    },
    async (request) => listForClient(app.db, ownClientId(request.principal)),
  );

  app.post(
    '/requests',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['requests'],
        summary: 'Send a request to the QA team',
        body: createClientRequest,
        response: { 201: clientRequest, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const clientId = ownClientId(request.principal);
      if ((await countSince(app.db, clientId, new Date(Date.now() - DAY_MS))) >= REQUESTS_PER_DAY) {
        throw new TooManyRequestsError(`At most ${REQUESTS_PER_DAY} requests a day; please try again tomorrow`, 3600);
      }
      const created = await createForClient(app.db, clientId, request.principal?.userId ?? null, request.body);
      request.log.info({ requestId: created.id, clientId, kind: created.kind }, 'client request created');
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/operator/requests',
    {
      preHandler: app.requireOperator,
      schema: {
        tags: ['operator'],
        summary: "Every client's requests, newest first",
        querystring: z.object({ status: clientRequestStatus.optional() }),
        response: { 200: operatorClientRequestList, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => listAll(app.db, request.query.status),
  );

  app.patch(
    '/operator/requests/:id',
    {
      preHandler: app.requireOperator,
      schema: {
        tags: ['operator'],
        summary: "Change a request's status",
        params: clientRequestParams,
        body: updateClientRequest,
        response: { 200: clientRequest, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const updated = await updateStatus(app.db, request.params.id, request.body.status);
      if (!updated) throw new NotFoundError('Request not found');
      return updated;
    },
  );
};
