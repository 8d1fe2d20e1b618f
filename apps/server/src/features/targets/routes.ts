import { messageResponse, targetOriginRequest, targetOriginsResponse } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { NotFoundError, ValidationError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { getClient } from '../accounts/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { parseOrigin } from './run-target.ts';
import { addTargetOrigin, listTargetOrigins, removeTargetOrigin } from './target-origin-repository.ts';
import { operatorClientRoute } from '../../lib/operator-route.ts';
import { paymentPresetRoutes } from './payment-preset-routes.ts';

/** Operator routes of the origins beyond its website that a client's tests may reach, and of the payment presets. */
export function targetRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(paymentPresetRoutes(deps));

    app.get(
      '/operator/clients/:id/origins',
      operatorClientRoute(app, { summary: 'Origins the client’s tests may reach', response: { 200: targetOriginsResponse, ...errorResponses(401, 403, 404) } }),
      async (request) => {
        const client = await getClient(deps.db, request.params.id);
        return { website: client.website, origins: await listTargetOrigins(deps.db, client.id) };
      },
    );

    app.post(
      '/operator/clients/:id/origins',
      operatorClientRoute(app, {
        summary: 'Let the client’s tests reach one more origin',
        body: targetOriginRequest,
        response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) },
      }),
      async (request) => {
        const client = await getClient(deps.db, request.params.id);
        const origin = parseOrigin(request.body.origin);
        if (!origin) throw new ValidationError('origin must be an http(s) origin such as https://api.example.com (no path)', 'origin');
        await addTargetOrigin(deps.db, client.id, origin);
        return { message: `${origin} added` };
      },
    );

    app.delete(
      '/operator/clients/:id/origins',
      operatorClientRoute(app, { summary: 'Remove an added origin', body: targetOriginRequest, response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) } }),
      async (request) => {
        const client = await getClient(deps.db, request.params.id);
        const origin = parseOrigin(request.body.origin) ?? request.body.origin;
        if (!(await removeTargetOrigin(deps.db, client.id, origin))) throw new NotFoundError(`${origin} was not added`);
        return { message: `${origin} removed` };
      },
    );
  };
}
