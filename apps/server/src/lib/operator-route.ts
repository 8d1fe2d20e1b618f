import { idParam } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';

/**
 * What every operator route on one client (`/operator/clients/:id/...`) shares: the operator's token, the
 * `operator` tag and the client id in the path. `schema` adds the summary, body and responses.
 */
export function operatorClientRoute<S extends { summary: string; response: object }>(app: FastifyInstance, schema: S) {
  return { preHandler: app.requireOperator, schema: { tags: ['operator'], params: idParam, ...schema } };
}
