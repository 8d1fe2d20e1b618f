import { PAYMENT_CATALOGUE, messageResponse, paymentPreset, paymentPresetParams, paymentPresetsResponse } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { audit } from '../../lib/audit.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { operatorClientRoute } from '../../lib/operator-route.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { getClient } from '../accounts/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { disablePaymentPreset, enablePaymentPreset } from './payment-preset-repository.ts';
import { paymentPresetsOf } from './payment-presets.ts';

/**
 * Operator routes of the payment providers' presets (issue 43): switching one on opens that provider's test-mode
 * origins to one client's tests; each switch is an audit event.
 */
export function paymentPresetRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/operator/clients/:id/payment-providers',
      operatorClientRoute(app, { summary: 'The payment providers whose test-mode origins may be opened to the client’s tests, each on or off', response: { 200: paymentPresetsResponse, ...errorResponses(401, 403, 404) } }),
      async (request) => {
        const client = await getClient(deps.db, request.params.id);
        return { presets: await paymentPresetsOf(deps.db, client.id) };
      },
    );

    app.put(
      '/operator/clients/:id/payment-providers/:provider',
      operatorClientRoute(app, {
        summary: 'Switch a payment provider’s preset on: its test-mode origins open to this client’s tests only',
        params: paymentPresetParams,
        response: { 200: paymentPreset, ...errorResponses(400, 401, 403, 404) },
      }),
      async (request) => {
        const client = await getClient(deps.db, request.params.id);
        const { provider } = request.params;
        if (await enablePaymentPreset(deps.db, client.id, provider, request.principal?.userId ?? null)) {
          await audit(deps.db, request.log, {
            type: 'payment-preset.enabled',
            clientId: client.id,
            userId: request.principal?.userId,
            address: request.ip,
            details: { provider, origins: [...PAYMENT_CATALOGUE[provider].origins], via: request.principal?.via },
          });
        }
        const preset = (await paymentPresetsOf(deps.db, client.id)).find((p) => p.provider === provider);
        if (!preset) throw new Error(`${provider} has no preset`);
        return preset;
      },
    );

    app.delete(
      '/operator/clients/:id/payment-providers/:provider',
      operatorClientRoute(app, { summary: 'Switch a payment provider’s preset off: its origins close to this client’s tests', params: paymentPresetParams, response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) } }),
      async (request) => {
        const client = await getClient(deps.db, request.params.id);
        const { provider } = request.params;
        const { label } = PAYMENT_CATALOGUE[provider];
        if (!(await disablePaymentPreset(deps.db, client.id, provider))) throw new NotFoundError(`${label} is not switched on for this client`);
        await audit(deps.db, request.log, {
          type: 'payment-preset.disabled',
          clientId: client.id,
          userId: request.principal?.userId,
          address: request.ip,
          details: { provider, origins: [...PAYMENT_CATALOGUE[provider].origins], via: request.principal?.via },
        });
        return { message: `${label} is switched off: its origins are closed to this client’s tests` };
      },
    );
  };
}
