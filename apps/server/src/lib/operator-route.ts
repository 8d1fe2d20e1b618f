import { idParam } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import { access } from './access.ts';

/**
 * What every operator route on one client (`/operator/clients/:id/...`) shares: operators only, the
 * `operator` tag and the client id in the path. `schema` adds the summary, body and responses.
 */
export function operatorClientRoute<S extends { summary: string; response: object }>(_app: FastifyInstance, schema: S) {
  return { config: { access: access.operators }, schema: { tags: ['operator'], params: idParam, ...schema } };
}
