import { messageResponse, secretListResponse, secretParams, setSecretRequest } from '@fullstop/contracts';
import { secretNamesOf } from '@fullstop/engine';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { audit } from '../../lib/audit.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { getClient } from '../accounts/index.ts';
import { noStore } from '../auth/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { deleteSecret, listSecrets, setSecret } from './secret-repository.ts';
import { currentSuite } from '../suites/index.ts';
import { operatorClientRoute } from '../../lib/operator-route.ts';

/**
 * Operator routes of a client's suite-login secrets (decision 0060). A value goes in and never comes out: the list
 * gives names, dates and which names the current suite's login needs but lacks.
 */
export function secretRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/operator/clients/:id/secrets',
      operatorClientRoute(app, { summary: 'The client’s login secrets: names and when set, never values', response: { 200: secretListResponse, ...errorResponses(401, 403, 404) } }),
      async (request) => {
        const client = await getClient(deps.db, request.params.id);
        const secrets = await listSecrets(deps.db, client.id);
        const login = (await currentSuite(deps.db, client.id))?.manifest.login;
        const set = new Set(secrets.map((s) => s.name));
        return {
          secrets: secrets.map((s) => ({ name: s.name, setAt: s.setAt.toISOString() })),
          missing: login ? secretNamesOf(login).filter((n) => !set.has(n)) : [],
        };
      },
    );

    app.put(
      '/operator/clients/:id/secrets/:name',
      {
        ...operatorClientRoute(app, {
          summary: 'Set a login secret of the client (replaces one of the same name)',
          params: secretParams,
          body: setSecretRequest,
          response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) },
        }),
        onSend: noStore,
      },
      async (request) => {
        const client = await getClient(deps.db, request.params.id);
        const { name } = request.params;
        const replaced = await setSecret(deps.db, deps.keys, client.id, name, request.body.value);
        await audit(deps.db, request.log, { type: 'secret.set', clientId: client.id, userId: request.principal?.userId, address: request.ip, details: { name, replaced } });
        return { message: `secret "${name}" ${replaced ? 'replaced' : 'set'}` };
      },
    );

    app.delete(
      '/operator/clients/:id/secrets/:name',
      operatorClientRoute(app, { summary: 'Delete a login secret of the client', params: secretParams, response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) } }),
      async (request) => {
        const client = await getClient(deps.db, request.params.id);
        const { name } = request.params;
        if (!(await deleteSecret(deps.db, client.id, name))) throw new NotFoundError(`the client has no secret "${name}"`);
        await audit(deps.db, request.log, { type: 'secret.deleted', clientId: client.id, userId: request.principal?.userId, address: request.ip, details: { name } });
        return { message: `secret "${name}" deleted` };
      },
    );
  };
}
