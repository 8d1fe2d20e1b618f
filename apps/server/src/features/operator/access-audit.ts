import { PAGE_VIEW_AUDIT_TYPE } from '@fullstop/contracts';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { audit } from '../../lib/audit.ts';

/** The one console call not recorded: reading the audit log itself, which would otherwise fill it with its own reads. */
const NOT_AUDITED = new Set(['GET /operator/audit']);

/**
 * The client a call is about: `:id` of /operator/clients/:id/..., else `:clientId`, `?clientId=` or the body's; only
 * an id-shaped value. The `:id` of other routes (a bug's, a request's) is not a client's.
 */
export function clientIdOf(request: Pick<FastifyRequest, 'params' | 'query' | 'body'> & { routeOptions: { url?: string | undefined } }): string | null {
  const pick = (source: unknown, key: string): string | null => {
    const value = source && typeof source === 'object' ? (source as Record<string, unknown>)[key] : undefined;
    return typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : null;
  };
  const clientRoute = request.routeOptions.url?.startsWith('/operator/clients/:id') ?? false;
  return (clientRoute ? pick(request.params, 'id') : null) ?? pick(request.params, 'clientId') ?? pick(request.query, 'clientId') ?? pick(request.body, 'clientId');
}

/**
 * Every call of the operator API, whatever its answer (also refused ones: a client's key probing /operator is worth
 * knowing; anonymous ones are not recorded), becomes an `ops.access` row: who (the operator's user, or `via: operator-token`), the route's pattern,
 * the status and the client concerned, from which address. Registered for the whole app, so the engine's operator
 * routes and every later feature's are covered without each route remembering to.
 */
export const operatorAccessAudit = fp(
  async (app) => {
    app.addHook('onResponse', async (request, reply) => {
      const path = request.url.split('?', 1)[0] ?? '';
      if (!path.startsWith('/operator/') && path !== '/operator') return;
      const route = request.routeOptions.url ?? path;
      if (NOT_AUDITED.has(`${request.method} ${route}`)) return;
      const principal = request.principal;
      // Anonymous probes (no or a bad credential) are refused before anything is read; recording each would let
      // anyone fill the log. Login failures have their own throttled record.
      if (!principal) return;
      await audit(app.db, request.log, {
        type: PAGE_VIEW_AUDIT_TYPE,
        clientId: clientIdOf(request),
        userId: principal.userId,
        address: request.ip,
        details: {
          method: request.method,
          route,
          statusCode: reply.statusCode,
          via: principal.via,
          ...(principal.role !== 'operator' ? { role: principal.role } : {}),
        },
      });
    });
  },
  { name: 'operator-access-audit' },
);
