import {
  clientMobileProviderResponse,
  idParam,
  messageResponse,
  mobileProviderResponse,
  mobileProviderTestResponse,
  setMobileProviderBody,
} from '@fullstop/contracts';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../lib/access.ts';
import { audit } from '../../lib/audit.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { getClient } from '../accounts/index.ts';
import { assertClientAccess, noStore } from '../auth/index.ts';
import { findMobileProvider } from './repository.ts';
import { MobileDevicesService } from './service.ts';

const routes: FastifyPluginAsyncZod<{ service: MobileDevicesService }> = async (app, { service }) => {
  const operatorRoute = <S extends object>(summary: string, schema: S) => ({
    config: { access: access.operators },
    onSend: noStore,
    schema: { tags: ['operator'], params: idParam, summary, ...schema },
  });

  app.get(
    '/operator/clients/:id/mobile-devices',
    operatorRoute('The client’s device provider for mobile UI tests (the access key as a hint)', { response: { 200: mobileProviderResponse, ...errorResponses(401, 403, 404) } }),
    async (request) => {
      const client = await getClient(app.db, request.params.id);
      return { provider: await service.get(client.id) };
    },
  );

  app.put(
    '/operator/clients/:id/mobile-devices',
    operatorRoute('Set the client’s device provider (an Appium endpoint, BrowserStack, Sauce Labs or AWS Device Farm); the access key is write-only and bound to the hub’s and REST API’s origins', {
      body: setMobileProviderBody,
      response: { 200: mobileProviderResponse, ...errorResponses(400, 401, 403, 404) },
    }),
    async (request) => {
      const client = await getClient(app.db, request.params.id);
      const { provider, newKey } = await service.set(client.id, request.body);
      await audit(app.db, request.log, {
        type: 'mobile-provider.set',
        clientId: client.id,
        userId: request.principal?.userId,
        address: request.ip,
        details: { kind: provider.kind, origin: new URL(provider.url).origin, apiOrigin: provider.apiUrl ? new URL(provider.apiUrl).origin : null, username: provider.username, projectArn: provider.projectArn, testGridProjectArn: provider.testGridProjectArn, cloudMinutesPerRun: provider.cloudMinutesPerRun, newKey, keyStored: provider.accessKeyHint !== null },
      });
      return { provider };
    },
  );

  app.delete(
    '/operator/clients/:id/mobile-devices',
    operatorRoute('Remove the client’s device provider (its mobile UI tests then fail saying so)', { response: { 200: messageResponse, ...errorResponses(401, 403, 404) } }),
    async (request) => {
      const client = await getClient(app.db, request.params.id);
      if (!(await service.remove(client.id))) throw new NotFoundError('No device provider is set for this client');
      await audit(app.db, request.log, { type: 'mobile-provider.deleted', clientId: client.id, userId: request.principal?.userId, address: request.ip });
      return { message: 'Device provider removed' };
    },
  );

  app.post(
    '/operator/clients/:id/mobile-devices/test',
    operatorRoute('Ask the provider’s endpoint for its status (GET <url>/status; AWS Device Farm: its project) and say what it answered', { response: { 200: mobileProviderTestResponse, ...errorResponses(401, 403, 404) } }),
    async (request) => {
      const client = await getClient(app.db, request.params.id);
      const row = await findMobileProvider(app.db, client.id);
      if (!row) throw new NotFoundError('No device provider is set for this client');
      return service.test(row);
    },
  );

  app.get(
    '/clientProfile/mobile-devices/:id',
    {
      config: { access: access.clientReadersAndOperators },
      schema: {
        tags: ['client profile'],
        security: [{ bearer: [] }, { apiKey: [] }],
        params: idParam,
        summary: 'Whether the client has a device provider for mobile UI tests, its kind and host',
        response: { 200: clientMobileProviderResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      assertClientAccess(request.principal, request.params.id);
      const client = await getClient(app.db, request.params.id);
      return service.summary(client.id);
    },
  );
};

/** A client's device provider for mobile UI tests (issue 28): an operator sets it; runs read it (index.ts). */
export const mobileDevicesFeature = fp(async (app) => {
  const service = new MobileDevicesService({
    db: app.db,
    keys: app.keys,
    allowPrivate: (clientId) => app.env.ENGINE_ALLOW_PRIVATE_TARGETS || clientId === app.demoClientId,
  });
  await app.register(routes, { service });
});
