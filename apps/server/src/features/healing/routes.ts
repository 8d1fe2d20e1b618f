import { healingDecisionResponse, healingProposalParams, healingProposalsQuery, healingProposalsResponse, healingRejectBody, runHealsParams, runHealsResponse } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../lib/access.ts';
import { operatorClientRoute } from '../../lib/operator-route.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { getClient } from '../accounts/index.ts';
import { noStore, ownClientId } from '../auth/index.ts';
import { callerOf } from '../bugs/index.ts';
import { healingService } from './service.ts';

/**
 * Healed locators (issue 42, docs/healing.md): a client reads the healed cases of a run; an operator reads the suite
 * versions heals proposed, with their diffs and screenshots, and accepts (the version becomes current) or rejects
 * one with a note. Both decisions are audited.
 */
export const healingFeature: FastifyPluginAsyncZod = async (app) => {
  const service = healingService(app);
  const proposals = (clientId: string) => `/operator/clients/${clientId}/healing/proposals`;
  const decisionErrors = errorResponses(400, 401, 403, 404, 409);

  app.get(
    '/test/runs/:runId/heals',
    {
      config: { access: access.clientReaders },
      onSend: noStore,
      schema: { tags: ['tests'], summary: 'The run’s healed cases: per browser test, each case whose locators were healed, and how', params: runHealsParams, response: { 200: runHealsResponse, ...errorResponses(400, 401, 403, 404) } },
    },
    async (request) => service.runHeals(ownClientId(request.principal), request.params.runId),
  );

  app.get(
    proposals(':id'),
    {
      ...operatorClientRoute(app, {
        summary: 'The suite versions the client’s healed locators proposed, newest first, each heal with its screenshot link',
        querystring: healingProposalsQuery,
        response: { 200: healingProposalsResponse, ...errorResponses(400, 401, 403, 404) },
      }),
      onSend: noStore,
    },
    async (request) => {
      await getClient(app.db, request.params.id);
      return service.list(request.params.id, request.query.status);
    },
  );

  app.post(
    `${proposals(':id')}/:proposalId/accept`,
    {
      config: { access: access.operators },
      schema: {
        tags: ['operator'],
        summary: 'Accepts the heals: their proposed suite version becomes current (audited as a switch of the current version)',
        params: healingProposalParams,
        response: { 200: healingDecisionResponse, ...decisionErrors },
      },
    },
    async (request) => service.accept(callerOf(request), request.params.id, request.params.proposalId),
  );

  app.post(
    `${proposals(':id')}/:proposalId/reject`,
    {
      config: { access: access.operators },
      schema: {
        tags: ['operator'],
        summary: 'Rejects the heals with a note: the version stays as it was, and the same heals are not proposed again',
        params: healingProposalParams,
        body: healingRejectBody,
        response: { 200: healingDecisionResponse, ...decisionErrors },
      },
    },
    async (request) => service.reject(callerOf(request), request.params.id, request.params.proposalId, request.body.note),
  );
};
