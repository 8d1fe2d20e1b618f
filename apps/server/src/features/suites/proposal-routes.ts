import { suiteProposal, suiteProposalParams, suiteProposeBody } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { audit } from '../../lib/audit.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { operatorClientRoute } from '../../lib/operator-route.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { findUserById } from '../accounts/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { proposalOf, startProposal } from './proposal-service.ts';

/**
 * A starter suite from a crawl (docs/starter-suite.md), for operators: start a proposal (it crawls in a runner
 * process and answers at once, 202), then poll it until it is done or failed. The CLI's `suite propose` and the
 * console's "Propose a starter suite" button both call these.
 */
export function suiteProposalRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/operator/clients/:id/suites/propose',
      operatorClientRoute(app, {
        summary: 'Crawl the client’s website and propose a starter suite as a new version (not current unless makeCurrent); answers at once, poll the proposal',
        body: suiteProposeBody,
        response: { 202: suiteProposal, ...errorResponses(400, 401, 403, 404, 409) },
      }),
      async (request, reply) => {
        const clientId = request.params.id;
        const principal = request.principal;
        const by = principal?.userId ? ((await findUserById(deps.db, principal.userId))?.email ?? principal.userId) : (principal?.via ?? null);
        const state = await startProposal(deps, clientId, {
          maxPages: request.body.maxPages,
          makeCurrent: request.body.makeCurrent,
          by,
          onEnd: (ended) => {
            if (ended.status === 'done' && ended.current) app.cache.invalidate(clientId, 'tests');
            void audit(deps.db, request.log, {
              type: 'suite.proposed',
              clientId,
              userId: principal?.userId,
              address: request.ip,
              details: {
                proposal: ended.id,
                status: ended.status,
                version: ended.version,
                current: ended.current,
                pages: ended.maxPages,
                tests: ended.tests.length,
                ...(ended.patch ? { patchOf: ended.patch.base, added: ended.patch.added.length, removed: ended.patch.removed.map((r) => r.name) } : {}),
              },
            }).catch(() => undefined);
          },
        });
        return reply.code(202).send(state);
      },
    );

    app.get(
      '/operator/clients/:id/suites/proposals/:proposalId',
      operatorClientRoute(app, {
        summary: 'How a starter suite proposal goes: crawling, writing, done (with the version and its tests) or failed',
        params: suiteProposalParams,
        response: { 200: suiteProposal, ...errorResponses(400, 401, 403, 404) },
      }),
      async (request) => {
        const state = await proposalOf(deps, request.params.id, request.params.proposalId);
        if (!state) throw new NotFoundError('Proposal not found');
        return state;
      },
    );
  };
}
