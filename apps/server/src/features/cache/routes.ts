import { messageResponse } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CacheNamespace } from '../../plugins/app/cache.ts';
import { access } from '../../lib/access.ts';
import { errorResponses } from '../../lib/route-schemas.ts';

/** The three clearCache calls the portal sends on logout (spec section 7); each empties the caller's client. */
const targets: { url: string; namespaces: CacheNamespace[]; message: string; tag: string }[] = [
  { url: '/clientProfile/clearCache', namespaces: ['profile'], message: 'Client profile cache cleared', tag: 'client profile' },
  { url: '/test/clearCache', namespaces: ['tests'], message: 'Test cache cleared', tag: 'tests' },
  { url: '/report/clearCache', namespaces: ['reports', 'insights'], message: 'Report cache cleared', tag: 'reports' },
];

export const cacheRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const target of targets) {
    app.post(
      target.url,
      {
        config: { access: access.clientReadersAndOperators },
        schema: {
          tags: [target.tag],
          summary: `Empty the server-side ${target.namespaces.join(' and ')} cache of the caller's client`,
          security: [{ bearer: [] }, { apiKey: [] }],
          response: { 200: messageResponse, ...errorResponses(401) },
        },
      },
      async (request) => {
        const clientId = request.principal?.clientId;
        // An operator has no client of its own: its call empties these namespaces for every client.
        if (clientId) for (const ns of target.namespaces) app.cache.invalidate(clientId, ns);
        else app.cache.clearNamespaces(target.namespaces);
        return { message: target.message };
      },
    );
  }
};
