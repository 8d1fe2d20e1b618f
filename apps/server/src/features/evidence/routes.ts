import path from 'node:path';
import {
  evidenceFileParams,
  evidenceLinkParams,
  evidenceLinkResponse,
  evidenceListResponse,
  evidenceParams,
  operatorEvidenceLinkParams,
  operatorEvidenceParams,
  traceViewerFileQuery,
  type EvidenceLinkResponse,
  type EvidenceListResponse,
} from '@fullstop/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access } from '../../lib/access.ts';
import { NotFoundError, UnauthorizedError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { ownClientId } from '../auth/index.ts';
import { noStore } from '../auth/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { runTestKey } from '../../lib/run-paths.ts';
import { findClientRunTest } from '../runs/index.ts';
import { evidenceContentType, listEvidence, objectInside } from './evidence-files.ts';
import { EVIDENCE_FILE_PREFIX, EVIDENCE_LINK_TTL_SECONDS, signEvidenceToken, verifyEvidenceToken } from './evidence-token.ts';
import { TRACE_VIEWER_FILE_ROUTE, TRACE_VIEWER_PREFIX, traceViewer } from './trace-viewer.ts';

/** A screenshot opened on its own shows as an image and nothing else; a trace is only ever downloaded or fetched. */
const SCREENSHOT_CSP = "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'";
const TRACE_CSP = "sandbox; default-src 'none'; frame-ancestors 'none'";

type RunTestParams = { runId: string; runTestId: string };

/**
 * A failed test's traces and screenshots: listed for the client who owns the run (and operators), opened through
 * short-lived signed links, and a trace stepped through in Playwright's trace viewer on our own origin.
 */
export function evidenceRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const listFor = async (clientId: string, params: RunTestParams): Promise<EvidenceListResponse> => {
      const rt = await findClientRunTest(deps.db, clientId, params.runId, params.runTestId);
      if (!rt) throw new NotFoundError('Run test not found');
      const evidence = await listEvidence(deps.artifacts, rt);
      return {
        runId: rt.runId,
        runTestId: rt.id,
        testName: rt.testName,
        status: rt.status,
        evidence: evidence.map(({ path: _path, ...item }) => item),
      };
    };

    const linkFor = async (clientId: string, params: RunTestParams & { evidenceId: string }): Promise<EvidenceLinkResponse> => {
      const rt = await findClientRunTest(deps.db, clientId, params.runId, params.runTestId);
      if (!rt) throw new NotFoundError('Run test not found');
      const item = (await listEvidence(deps.artifacts, rt)).find((e) => e.evidenceId === params.evidenceId);
      if (!item) throw new NotFoundError('Evidence not found');
      const token = signEvidenceToken(app.keys, { clientId, runId: rt.runId, runTestId: rt.id, path: item.path, kind: item.kind });
      const file = `${EVIDENCE_FILE_PREFIX}${token}`;
      return {
        url: item.kind === 'trace' ? `${TRACE_VIEWER_PREFIX}index.html?trace=${encodeURIComponent(file)}` : file,
        expiresIn: EVIDENCE_LINK_TTL_SECONDS,
      };
    };

    const sendEvidence = async (request: FastifyRequest, reply: FastifyReply, token: string) => {
      const claims = verifyEvidenceToken(app.keys, token);
      if (!claims) {
        throw new UnauthorizedError('This evidence link is invalid or has expired: open the evidence again from the portal', 'INVALID_TOKEN');
      }
      const rt = await findClientRunTest(deps.db, claims.clientId, claims.runId, claims.runTestId);
      const found = rt && (await objectInside(deps.artifacts, runTestKey(rt.clientId, rt.runId, rt.id), claims.path));
      const contentType = evidenceContentType(claims.kind, claims.path);
      const stored = found && contentType ? await deps.artifacts.get(found.key) : null;
      if (!stored || !contentType) throw new NotFoundError('Evidence not found');
      const stream = stored.body;
      stream.on('error', (err) => request.log.warn({ err }, 'reading an evidence file failed'));
      const trace = claims.kind === 'trace';
      return reply
        .header('content-type', contentType)
        .header('content-length', String(stored.size))
        .header('content-disposition', `${trace ? 'attachment' : 'inline'}; filename="${trace ? 'trace' : 'screenshot'}${path.extname(claims.path).toLowerCase()}"`)
        .header('cache-control', 'private, no-store')
        .header('content-security-policy', trace ? TRACE_CSP : SCREENSHOT_CSP)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .header('cross-origin-resource-policy', 'same-origin')
        .send(stream);
    };

    const listDoc = {
      summary: 'The traces and screenshots of one test of a run, with the case each belongs to',
      response: { 200: evidenceListResponse, ...errorResponses(400, 401, 403, 404) },
    };
    const linkDoc = {
      summary: 'A short-lived link: a trace opens in the trace viewer, a screenshot is the image',
      response: { 200: evidenceLinkResponse, ...errorResponses(400, 401, 403, 404) },
    };

    app.get(
      '/test/runs/:runId/tests/:runTestId/evidence',
      { config: { access: access.clientReaders }, schema: { tags: ['tests'], params: evidenceParams, ...listDoc } },
      async (request) => listFor(ownClientId(request.principal), request.params),
    );
    app.post(
      '/test/runs/:runId/tests/:runTestId/evidence/:evidenceId/link',
      { config: { access: access.clientReaders }, onSend: noStore, schema: { tags: ['tests'], params: evidenceLinkParams, ...linkDoc } },
      async (request) => linkFor(ownClientId(request.principal), request.params),
    );

    app.get(
      '/operator/clients/:id/runs/:runId/tests/:runTestId/evidence',
      { config: { access: access.operators }, schema: { tags: ['operator'], params: operatorEvidenceParams, ...listDoc } },
      async (request) => listFor(request.params.id, request.params),
    );
    app.post(
      '/operator/clients/:id/runs/:runId/tests/:runTestId/evidence/:evidenceId/link',
      { config: { access: access.operators }, onSend: noStore, schema: { tags: ['operator'], params: operatorEvidenceLinkParams, ...linkDoc } },
      async (request) => linkFor(request.params.id, request.params),
    );

    // A wildcard, not `:token`: a token is longer than the router lets a named parameter be.
    app.get(
      `${EVIDENCE_FILE_PREFIX}*`,
      {
        config: { access: access.anyone },
        schema: {
          tags: ['tests'],
          summary: 'One evidence file; the token comes from an evidence link and is the only credential',
          params: evidenceFileParams,
          response: { 200: z.any().describe('the file'), ...errorResponses(400, 401, 404) },
        },
      },
      async (request, reply) => sendEvidence(request, reply, request.params['*']),
    );

    // The trace viewer asks for `/evidence/file/<token>` (the link's `trace=`) through this route.
    app.get(
      TRACE_VIEWER_FILE_ROUTE,
      {
        config: { access: access.anyone },
        schema: {
          tags: ['tests'],
          summary: 'The trace viewer’s way to read a trace named by a relative address: only evidence links',
          querystring: traceViewerFileQuery,
          response: { 200: z.any().describe('the trace'), ...errorResponses(400, 401, 404) },
        },
      },
      async (request, reply) => {
        const { path: wanted } = request.query;
        const token = wanted.startsWith(EVIDENCE_FILE_PREFIX) ? wanted.slice(EVIDENCE_FILE_PREFIX.length) : '';
        if (!token || /[/?#]/.test(token)) throw new NotFoundError('The trace viewer reads only evidence links here');
        return sendEvidence(request, reply, token);
      },
    );

    await app.register(traceViewer);
  };
}
