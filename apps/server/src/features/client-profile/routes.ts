import { clientProfile, generateApiKeyResponse, idParam } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { audit } from '../../lib/audit.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { maskApiKey, replaceApiKey } from '../auth/api-keys.ts';
import { assertClientAccess } from '../auth/guard.ts';
import { noStore } from '../auth/no-store.ts';
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
      // The profile carries the client's API key.
      onSend: noStore,
      schema: {
        tags: ['client profile'],
        summary: "A client's profile: website, API key (masked for operators), uploaded apps",
        security: [{ bearer: [] }, { apiKey: [] }],
        params: idParam,
        response: { 200: clientProfile, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      assertClientAccess(request.principal, id);
      // Operators see the key masked: the whole key takes the audited reveal route (operator API).
      const operator = request.principal?.role === 'operator';
      const variant = operator ? 'json-masked' : 'json';
      // The hot read: the serialized answer is cached too, so a hit skips the response schema's work.
      const json =
        app.cache.get<string>(id, 'profile', variant) ??
        app.cache.set(
          id,
          'profile',
          JSON.stringify(clientProfile.parse(await profileOf(id).then((p) => (operator ? { ...p, apiToken: maskApiKey(p.apiToken) } : p)))),
          variant,
        );
      // A string is sent as it is (already checked against the schema when it was cached).
      return reply.type('application/json; charset=utf-8').send(json as never);
    },
  );

  app.post(
    '/clientProfile/generateAPIKey/:id',
    {
      preHandler: app.authenticate,
      onSend: noStore,
      schema: {
        tags: ['client profile'],
        summary: 'Replace the client API key; the old key stops working at once (an operator sees the new one masked)',
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
      // Forgets the old key in memory and announces it ('api-key-replaced'), so open streams end with it.
      app.forgetApiKeys(id);
      app.cache.invalidate(id, 'profile');
      await audit(app.db, request.log, {
        type: 'api-key.generated',
        clientId: id,
        userId: request.principal?.userId,
        address: request.ip,
        details: { via: request.principal?.via },
      });
      return { apiKey: request.principal?.role === 'operator' ? maskApiKey(apiKey) : apiKey };
    },
  );
};
