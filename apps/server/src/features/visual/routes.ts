import {
  operatorVisualCandidateParams,
  operatorVisualReviewParams,
  visualApproveAllResponse,
  visualBugBody,
  visualDecisionResponse,
  visualRejectBody,
  visualReviewParams,
  visualReviewResponse,
} from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../lib/access.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { assertClientAccess, noStore, ownClientId } from '../auth/index.ts';
import { callerOf } from '../bugs/index.ts';
import { visualService } from './service.ts';

/**
 * Visual review (issue 27, decision 0082): a client reads a run's shots in the portal; an operator approves or
 * rejects each candidate (or every one of a run) in the console, and may open a bug from a rejected one. The images
 * are evidence links: the same signed tokens and route as a failed test's screenshots.
 */
export const visualFeature: FastifyPluginAsyncZod = async (app) => {
  const service = visualService(app);
  const reviewDoc = {
    summary: 'A run’s visual shots: per test, per shot its page, cell, status, share changed, region, images and review',
    response: { 200: visualReviewResponse, ...errorResponses(400, 401, 403, 404) },
  };
  const decisionErrors = errorResponses(400, 401, 403, 404, 409);

  app.get(
    '/test/runs/:runId/visual',
    { config: { access: access.clientReaders }, onSend: noStore, schema: { tags: ['tests'], params: visualReviewParams, ...reviewDoc } },
    async (request) => service.review(ownClientId(request.principal), request.params.runId),
  );

  app.get(
    '/operator/clients/:id/runs/:runId/visual',
    { config: { access: access.operators }, onSend: noStore, schema: { tags: ['operator'], params: operatorVisualReviewParams, ...reviewDoc } },
    async (request) => {
      assertClientAccess(request.principal, request.params.id);
      return service.review(request.params.id, request.params.runId);
    },
  );

  app.post(
    '/operator/clients/:id/runs/:runId/visual/candidates/:candidateId/approve',
    {
      config: { access: access.operators },
      schema: {
        tags: ['operator'],
        summary: 'Makes the shot its key’s baseline for later runs (a new version); an earlier report keeps its images',
        params: operatorVisualCandidateParams,
        response: { 200: visualDecisionResponse, ...decisionErrors },
      },
    },
    async (request) => service.approveOne(callerOf(request), request.params.id, request.params.runId, request.params.candidateId),
  );

  app.post(
    '/operator/clients/:id/runs/:runId/visual/approve-all',
    {
      config: { access: access.operators },
      schema: {
        tags: ['operator'],
        summary: 'Approves every shot of the run that waits for a decision',
        params: operatorVisualReviewParams,
        response: { 200: visualApproveAllResponse, ...decisionErrors },
      },
    },
    async (request) => service.approveAll(callerOf(request), request.params.id, request.params.runId),
  );

  app.post(
    '/operator/clients/:id/runs/:runId/visual/candidates/:candidateId/reject',
    {
      config: { access: access.operators },
      schema: {
        tags: ['operator'],
        summary: 'Rejects the shot: the baseline stays as it was',
        params: operatorVisualCandidateParams,
        body: visualRejectBody,
        response: { 200: visualDecisionResponse, ...decisionErrors },
      },
    },
    async (request) => service.rejectOne(callerOf(request), request.params.id, request.params.runId, request.params.candidateId, request.body.note),
  );

  app.post(
    '/operator/clients/:id/runs/:runId/visual/candidates/:candidateId/bug',
    {
      config: { access: access.operators },
      schema: {
        tags: ['operator'],
        summary: 'Rejects the shot (when it still waits) and opens a bug with its baseline, current and diff images',
        params: operatorVisualCandidateParams,
        body: visualBugBody,
        response: { 200: visualDecisionResponse, ...decisionErrors },
      },
    },
    async (request) => service.openBug(callerOf(request), request.params.id, request.params.runId, request.params.candidateId, request.body),
  );
};
