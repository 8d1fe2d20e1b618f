import multipart from '@fastify/multipart';
import {
  idParam,
  MANUAL_EVIDENCE_MAX_BYTES,
  manualCaseListResponse,
  manualEvidenceParams,
  manualSettings,
  manualStepParams,
  manualStepRequest,
  manualSubmitRequest,
  manualWorkDetailResponse,
  manualWorkListResponse,
  manualWorkParams,
  messageResponse,
} from '@fullstop/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../lib/access.ts';
import { audit } from '../../lib/audit.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { multipartFile } from '../../lib/multipart-file.ts';
import { operatorClientRoute } from '../../lib/operator-route.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { getClient, userName } from '../accounts/index.ts';
import { ownClientId } from '../auth/index.ts';
import { isAttachmentType, storeUpload, wrongType } from '../bugs/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { manualSettingsOf } from '../runs/index.ts';
import { findWork, openWork, saveManualSettings } from './repository.ts';
import { addEvidence, claim, evidenceKey, listWork, manualCasesOf, release, removeEvidence, saveStep, submit, type Tester, workDetail } from './service.ts';

const operatorRoute = <S extends { summary: string; response: object }>(schema: S) => ({ config: { access: access.operators }, schema: { tags: ['operator'], ...schema } });

/**
 * The operators' Manual work (issue 41): the queue of manual cases waiting for a tester, a claim at a time, each
 * step's verdict, note and evidence, and the submit that makes the verdict the test's result. Every claim,
 * verdict and upload is an audit event. Clients never call these: they read the result in their reports.
 */
export function manualRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, { limits: { fileSize: MANUAL_EVIDENCE_MAX_BYTES, files: 1, fields: 5, parts: 10, fieldSize: 16 * 1024 }, throwFileSizeLimit: true });

    const tester = async (request: FastifyRequest): Promise<Tester> => {
      const id = request.principal?.userId ?? 'operator-token';
      return { id, name: (await userName(deps.db, request.principal?.userId ?? null)) ?? 'Fullstop QA team' };
    };
    const record = async (request: FastifyRequest, type: `manual.${string}`, workId: string, details: Record<string, unknown>) => {
      const w = await findWork(deps.db, workId);
      await audit(deps.db, request.log, { type, clientId: w?.clientId, userId: request.principal?.userId, address: request.ip, details: { workId, test: w?.testName, runId: w?.runId, ...details } });
    };

    app.get('/operator/manual', operatorRoute({ summary: 'Manual work waiting for a tester, soonest due first', response: { 200: manualWorkListResponse, ...errorResponses(401, 403) } }), async (request) =>
      listWork(await tester(request), await openWork(deps.db)),
    );

    app.get(
      '/operator/manual/:id',
      operatorRoute({ summary: 'One piece of manual work: the case, its steps and what was recorded so far', params: manualWorkParams, response: { 200: manualWorkDetailResponse, ...errorResponses(401, 403, 404) } }),
      async (request) => workDetail(deps, request.params.id, await tester(request)),
    );

    app.post(
      '/operator/manual/:id/claim',
      operatorRoute({ summary: 'Claim manual work: one at a time, released when it stays quiet past twice its estimate', params: manualWorkParams, response: { 200: manualWorkDetailResponse, ...errorResponses(401, 403, 404, 409) } }),
      async (request) => {
        const detail = await claim(deps, request.params.id, await tester(request));
        await record(request, 'manual.claimed', request.params.id, { platform: detail.platform });
        return detail;
      },
    );

    app.post(
      '/operator/manual/:id/release',
      operatorRoute({ summary: 'Give claimed manual work back to the queue', params: manualWorkParams, response: { 200: messageResponse, ...errorResponses(401, 403, 404, 409) } }),
      async (request) => {
        await release(deps, request.params.id, await tester(request));
        await record(request, 'manual.released', request.params.id, {});
        return { message: 'Given back to the queue: what you recorded stays for the next tester' };
      },
    );

    app.put(
      '/operator/manual/:id/steps/:step',
      operatorRoute({ summary: 'A step’s verdict and note', params: manualStepParams, body: manualStepRequest, response: { 200: manualWorkDetailResponse, ...errorResponses(400, 401, 403, 404, 409) } }),
      async (request) => {
        const detail = await saveStep(deps, request.params.id, request.params.step, request.body, await tester(request));
        await record(request, 'manual.step', request.params.id, { step: request.params.step, verdict: request.body.verdict });
        return detail;
      },
    );

    app.post(
      '/operator/manual/:id/steps/:step/evidence',
      operatorRoute({ summary: 'Upload a screenshot or screen recording for a step (multipart field "file")', params: manualStepParams, response: { 200: manualWorkDetailResponse, ...errorResponses(400, 401, 403, 404, 409, 413, 415) } }),
      async (request) => {
        const me = await tester(request);
        let uploaded: { name: string; size: number } | null = null;
        const detail = await addEvidence(deps, request.params.id, request.params.step, me, async (folder) => {
          const part = await multipartFile(request);
          const type = part.mimetype.toLowerCase();
          if (!isAttachmentType(type)) {
            part.file.resume();
            throw wrongType();
          }
          const stored = await storeUpload(app.paths, app.artifacts, folder, { file: part.file, filename: part.filename, type });
          const name = (part.filename || 'evidence').split(/[\\/]/).pop()!.slice(0, 200);
          uploaded = { name, size: stored.size };
          return { key: stored.relPath, name, contentType: type, size: stored.size };
        });
        await record(request, 'manual.evidence', request.params.id, { step: request.params.step, ...uploaded! });
        return detail;
      },
    );

    app.get(
      '/operator/manual/:id/steps/:step/evidence/:evidenceId',
      operatorRoute({ summary: 'A step’s uploaded file', params: manualEvidenceParams, response: { 200: z.any().describe('the file'), ...errorResponses(401, 403, 404) } }),
      async (request, reply) => {
        const e = await evidenceKey(deps, request.params.id, request.params.step, request.params.evidenceId);
        const body = await app.artifacts.get(e.key);
        if (!body) throw new NotFoundError('Evidence not found');
        return reply
          .header('content-type', e.contentType)
          .header('content-disposition', `inline; filename="${e.name.replace(/[^\w.-]+/g, '_')}"`)
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-store')
          .send(body.body);
      },
    );

    app.delete(
      '/operator/manual/:id/steps/:step/evidence/:evidenceId',
      operatorRoute({ summary: 'Remove a step’s uploaded file', params: manualEvidenceParams, response: { 200: manualWorkDetailResponse, ...errorResponses(401, 403, 404, 409) } }),
      async (request) => {
        const detail = await removeEvidence(deps, request.params.id, request.params.step, request.params.evidenceId, await tester(request));
        await record(request, 'manual.evidence-removed', request.params.id, { step: request.params.step, evidenceId: request.params.evidenceId });
        return detail;
      },
    );

    app.post(
      '/operator/manual/:id/submit',
      operatorRoute({ summary: 'Submit the verdict: it becomes the test’s result in its run', params: manualWorkParams, body: manualSubmitRequest, response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404, 409) } }),
      async (request) => {
        const done = await submit(deps, request.params.id, request.body, await tester(request));
        await record(request, 'manual.submitted', request.params.id, { verdict: done.verdict, used: request.body.used });
        return { message: `Submitted: "${done.testName}" ${done.verdict === 'passed' ? 'passed' : done.verdict === 'blocked' ? 'was blocked' : 'failed'}` };
      },
    );

    app.get(
      '/test/manual-cases',
      { config: { access: access.clientReaders }, schema: { tags: ['tests'], summary: 'The current suite’s manual cases: goal, steps and platforms', response: { 200: manualCaseListResponse, ...errorResponses(401, 403) } } },
      async (request) => ({ cases: await manualCasesOf(deps, ownClientId(request.principal)) }),
    );

    app.get(
      '/operator/clients/:id/manual-settings',
      operatorClientRoute(app, { summary: 'When the client’s manual cases are due after a run', response: { 200: manualSettings, ...errorResponses(401, 403, 404) } }),
      async (request) => manualSettingsOf(deps.db, (await getClient(deps.db, request.params.id)).id),
    );

    app.put(
      '/operator/clients/:id/manual-settings',
      operatorClientRoute(app, { summary: 'Set when the client’s manual cases are due after a run', params: idParam, body: manualSettings, response: { 200: manualSettings, ...errorResponses(400, 401, 403, 404) } }),
      async (request) => {
        const client = await getClient(deps.db, request.params.id);
        await saveManualSettings(deps.db, client.id, request.body);
        await audit(deps.db, request.log, { type: 'manual.settings', clientId: client.id, userId: request.principal?.userId, address: request.ip, details: request.body });
        return request.body;
      },
    );
  };
}
