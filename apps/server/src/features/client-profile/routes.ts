import { clientProfile, generateApiKeyResponse, idParam } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { audit } from '../../lib/audit.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { replaceApiKey } from '../auth/api-keys.ts';
import { assertClientAccess } from '../auth/guard.ts';
import { loadClientProfile } from './repository.ts';

export const clientProfileRoutes: FastifyPluginAsyncZod = async (app) => {
  const profileOf = async (id: string) => {
    const profile = await app.cache.wrap(id, 'profile', () => loadClientProfile(app.db, app.keys, id));
    if (!profile) {
      app.cache.invalidate(id, 'profile');
      throw new NotFoundError('Client not found');
    }
    return profile;
  };

  app.get(
    '/clientProfile/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['client profile'],
        summary: "A client's profile: website, API key, uploaded apps",
        security: [{ bearer: [] }, { apiKey: [] }],
        params: idParam,
        response: { 200: clientProfile, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      assertClientAccess(request.principal, id);
      // The hot read: the serialized answer is cached too, so a hit skips the response schema's work.
      const json =
        app.cache.get<string>(id, 'profile', 'json') ??
        app.cache.set(id, 'profile', JSON.stringify(clientProfile.parse(await profileOf(id))), 'json');
      // A string is sent as it is (already checked against the schema when it was cached).
      return reply.type('application/json; charset=utf-8').send(json as never);
    },
  );

  app.post(
    '/clientProfile/generateAPIKey/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['client profile'],
        summary: 'Replace the client API key; the old key stops working at once',
        security: [{ bearer: [] }, { apiKey: [] }],
        params: idParam,
        response: { 200: generateApiKeyResponse, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      assertClientAccess(request.principal, id);
      const exists = await loadClientProfile(app.db, app.keys, id);
      if (!exists) throw new NotFoundError('Client not found');
      const apiKey = await replaceApiKey(app.db, app.keys, id);
      app.forgetApiKeys(id);
      app.cache.invalidate(id, 'profile');
      await audit(app.db, request.log, {
        type: 'api-key.generated',
        clientId: id,
        userId: request.principal?.userId,
        address: request.ip,
        details: { via: request.principal?.via },
      });
      return { apiKey };
    },
  );
};
