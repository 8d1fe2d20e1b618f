import { clientProfile, generateApiKeyResponse, idParam } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../lib/access.ts';
import { audit } from '../../lib/audit.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { getClient } from '../accounts/index.ts';
import { replaceApiKey } from '../accounts/index.ts';
import { maskApiKey } from '../../lib/api-keys.ts';
import { assertClientAccess } from '../auth/index.ts';
import { noStore } from '../auth/index.ts';
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
  // Both routes name a client (its own user or API key, or an operator) and answer with its API key.
  const clientKeyRoute = { config: { access: access.clientReadersAndOperators }, onSend: noStore };
  const security: Record<string, string[]>[] = [{ bearer: [] }, { apiKey: [] }];
  const clientKeySchema = { tags: ['client profile'], security, params: idParam };

  app.get(
    '/clientProfile/:id',
    {
      ...clientKeyRoute,
      schema: {
        ...clientKeySchema,
        summary: "A client's profile: website, API key (masked for operators, empty for viewers), uploaded apps",
        response: { 200: clientProfile, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      assertClientAccess(request.principal, id);
      // Operators see the key masked: the whole key takes the audited reveal route (operator API).
      const operator = request.principal?.role === 'operator';
      // A viewer of the client's team gets no key at all: with it they could run tests as "the API key". The portal
      // then reads with their bearer token, which the server holds to what a viewer may do.
      const viewer = request.principal?.teamRole === 'viewer';
      const variant = operator ? 'json-masked' : viewer ? 'json-viewer' : 'json';
      // The hot read: the serialized answer is cached too, so a hit skips the response schema's work.
      const json =
        app.cache.get<string>(id, 'profile', variant) ??
        app.cache.set(
          id,
          'profile',
          JSON.stringify(
            clientProfile.parse(
              await profileOf(id).then((p) => (operator ? { ...p, apiToken: maskApiKey(p.apiToken) } : viewer ? { ...p, apiToken: '' } : p)),
            ),
          ),
          variant,
        );
      // A string is sent as it is (already checked against the schema when it was cached).
      return reply.type('application/json; charset=utf-8').send(json as never);
    },
  );

  app.post(
    '/clientProfile/generateAPIKey/:id',
    {
      ...clientKeyRoute,
      config: { access: access.clientWritersAndOperators, action: 'generate API keys' },
      schema: {
        ...clientKeySchema,
        summary: 'Replace the client API key; the old key stops working at once (an operator sees the new one masked)',
        response: { 200: generateApiKeyResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      assertClientAccess(request.principal, id);
      await getClient(app.db, id);
      const apiKey = await replaceApiKey(app.db, app.keys, id);
      // Forgets the old key in memory and announces it ('api-key-replaced'), so open streams end with it; both are
      // told to the other processes before the answer, so the next call anywhere refuses the old key.
      await Promise.all([app.forgetApiKeys(id), app.cache.invalidate(id, 'profile')]);
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
