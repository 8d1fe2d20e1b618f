import {
  falsePositiveRequest,
  falsePositivesResponse,
  idParam,
  messageResponse,
  operatorRunRequest,
  runQueuedResponse,
  runResultResponse,
  securityAlertsResponse,
  suiteHistoryResponse,
  suiteImportRequest,
  suiteImportResponse,
  suiteInvalidResponse,
  targetOriginRequest,
  targetOriginsResponse,
} from '@fullstop/contracts';
import { normaliseSuitePath, type RunnerSummary, type SuiteFiles, SuiteValidationError } from '@fullstop/engine';
import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clients, engineFalsePositives, engineRunTests, engineTargetOrigins } from '../../../db/schema/index.ts';
import { NotFoundError, ValidationError } from '../../../lib/errors.ts';
import { errorResponses } from '../../../lib/route-schemas.ts';
import type { EngineDeps } from '../deps.ts';
import { alertId, falsePositiveMatcher } from '../alerts/false-positives.ts';
import { queueRun, runResult, waitForRun } from '../runs/queue-runs.ts';
import { importSuite, suiteHistory } from '../suites/suite-store.ts';
import { parseOrigin } from '../targets/run-target.ts';

const clientParams = idParam;
/** Suites are at most 5 MB of files; base64 and JSON add about a third. */
const SUITE_BODY_LIMIT = 8 * 1024 * 1024;

/** The operator API of the engine: suites, runs for a client, false positives, allowed origins. */
export function operatorEngineRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const requireClient = async (id: string) => {
      const [c] = await deps.db.select().from(clients).where(eq(clients.id, id)).limit(1);
      if (!c) throw new NotFoundError('Client not found');
      return c;
    };
    const invalidateResults = (clientId: string) => {
      app.cache.invalidate(clientId, 'insights');
      app.cache.invalidate(clientId, 'reports');
    };

    app.post(
      '/operator/clients/:id/suite',
      {
        preHandler: app.requireOperator,
        bodyLimit: SUITE_BODY_LIMIT,
        schema: {
          tags: ['operator'],
          summary: 'Import a suite folder (as JSON of files) as the client’s next version',
          params: clientParams,
          body: suiteImportRequest,
          response: { 201: suiteImportResponse, 422: suiteInvalidResponse, ...errorResponses(400, 401, 403, 404, 413) },
        },
      },
      async (request, reply) => {
        const clientId = request.params.id;
        await requireClient(clientId);
        const files: SuiteFiles = new Map();
        for (const [i, f] of request.body.files.entries()) {
          const p = normaliseSuitePath(f.path);
          if (!p) throw new ValidationError(`files.${i}.path: "${f.path}" is not a safe relative path`, `files.${i}.path`);
          if (files.has(p)) throw new ValidationError(`files.${i}.path: "${p}" is listed twice`, `files.${i}.path`);
          files.set(p, Buffer.from(f.content, f.encoding === 'base64' ? 'base64' : 'utf8'));
        }
        try {
          const imported = await importSuite(deps, clientId, files, request.principal?.via ?? null);
          app.cache.invalidate(clientId, 'tests');
          return reply.code(201).send({
            message: `Suite version ${imported.version} imported: ${imported.tests} tests in ${Object.keys(imported.groups).length} groups`,
            version: imported.version,
            tests: imported.tests,
            groups: imported.groups,
          });
        } catch (err) {
          if (err instanceof SuiteValidationError) {
            return reply.code(422).send({ message: `The suite is not valid:\n${err.message}`, code: 'SUITE_INVALID', issues: err.issues });
          }
          throw err;
        }
      },
    );

    app.get(
      '/operator/clients/:id/suite',
      {
        preHandler: app.requireOperator,
        schema: { tags: ['operator'], summary: 'Every imported version of the client’s suite', params: clientParams, response: { 200: suiteHistoryResponse, ...errorResponses(401, 403, 404) } },
      },
      async (request) => {
        await requireClient(request.params.id);
        const rows = await suiteHistory(deps.db, request.params.id);
        return { versions: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
      },
    );

    app.post(
      '/operator/clients/:id/runs',
      {
        preHandler: app.requireOperator,
        schema: {
          tags: ['operator'],
          summary: 'Run a client’s tests (all, or one); with wait, answer when the run ends',
          params: clientParams,
          body: operatorRunRequest,
          response: { 200: z.union([runResultResponse, runQueuedResponse]), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const clientId = request.params.id;
        await requireClient(clientId);
        const { testName, wait, timeout } = request.body;
        const queued = await queueRun(deps, clientId, testName === undefined ? {} : { testName }, 'operator');
        if (!wait) return { message: `${queued.testCount} test(s) queued (run ${queued.runId})`, runId: queued.runId };
        const gone = new AbortController();
        request.raw.once('close', () => gone.abort());
        await waitForRun(deps, clientId, queued.runId, (timeout ?? 1800) * 1000, gone.signal);
        return (await runResult(deps, clientId, queued.runId))!;
      },
    );

    app.get(
      '/operator/clients/:id/alerts',
      {
        preHandler: app.requireOperator,
        schema: { tags: ['operator'], summary: 'Alerts of the client’s latest security scan', params: clientParams, response: { 200: securityAlertsResponse, ...errorResponses(401, 403, 404) } },
      },
      async (request) => {
        const clientId = request.params.id;
        await requireClient(clientId);
        const [scan] = await deps.db
          .select()
          .from(engineRunTests)
          .where(and(eq(engineRunTests.clientId, clientId), eq(engineRunTests.kind, 'security-scan'), inArray(engineRunTests.status, ['passed', 'failed']), isNotNull(engineRunTests.summary)))
          .orderBy(desc(engineRunTests.finishedAt))
          .limit(1);
        const summary = scan?.summary as RunnerSummary | undefined;
        if (!scan || summary?.kind !== 'security-scan') return { testName: null, scannedAt: null, alerts: [] };
        const isFalse = await falsePositiveMatcher(deps.db, clientId);
        return {
          testName: scan.testName,
          scannedAt: scan.finishedAt?.toISOString() ?? null,
          alerts: summary.findings.map((f) => ({
            alertId: alertId(f),
            ruleId: f.ruleId,
            name: f.name,
            risk: f.risk,
            url: f.url ?? null,
            evidence: f.evidence ?? null,
            falsePositive: isFalse(f),
          })),
        };
      },
    );

    app.get(
      '/operator/clients/:id/false-positives',
      {
        preHandler: app.requireOperator,
        schema: { tags: ['operator'], summary: 'Alerts marked false positives', params: clientParams, response: { 200: falsePositivesResponse, ...errorResponses(401, 403, 404) } },
      },
      async (request) => {
        await requireClient(request.params.id);
        const rows = await deps.db.select().from(engineFalsePositives).where(eq(engineFalsePositives.clientId, request.params.id));
        return { falsePositives: rows.map((r) => ({ ruleId: r.ruleId, url: r.url || null, note: r.note, createdAt: r.createdAt.toISOString() })) };
      },
    );

    app.post(
      '/operator/clients/:id/false-positives',
      {
        preHandler: app.requireOperator,
        schema: { tags: ['operator'], summary: 'Mark an alert (rule, optionally one URL) a false positive', params: clientParams, body: falsePositiveRequest, response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) } },
      },
      async (request) => {
        const clientId = request.params.id;
        await requireClient(clientId);
        const { ruleId, url, note } = request.body;
        await deps.db
          .insert(engineFalsePositives)
          .values({ clientId, ruleId, url: url ?? '', note: note ?? null, createdBy: request.principal?.via ?? null })
          .onConflictDoUpdate({ target: [engineFalsePositives.clientId, engineFalsePositives.ruleId, engineFalsePositives.url], set: { note: note ?? null } });
        invalidateResults(clientId);
        return { message: `Alert ${ruleId}${url ? ` on ${url}` : ''} marked a false positive` };
      },
    );

    app.delete(
      '/operator/clients/:id/false-positives',
      {
        preHandler: app.requireOperator,
        schema: { tags: ['operator'], summary: 'Count an alert by its risk again', params: clientParams, body: falsePositiveRequest.pick({ ruleId: true, url: true }), response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) } },
      },
      async (request) => {
        const clientId = request.params.id;
        await requireClient(clientId);
        const { ruleId, url } = request.body;
        const removed = await deps.db
          .delete(engineFalsePositives)
          .where(and(eq(engineFalsePositives.clientId, clientId), eq(engineFalsePositives.ruleId, ruleId), eq(engineFalsePositives.url, url ?? '')))
          .returning();
        if (removed.length === 0) throw new NotFoundError('No such false positive');
        invalidateResults(clientId);
        return { message: `Alert ${ruleId}${url ? ` on ${url}` : ''} counts by its risk again` };
      },
    );

    app.get(
      '/operator/clients/:id/origins',
      {
        preHandler: app.requireOperator,
        schema: { tags: ['operator'], summary: 'Origins the client’s tests may reach', params: clientParams, response: { 200: targetOriginsResponse, ...errorResponses(401, 403, 404) } },
      },
      async (request) => {
        const c = await requireClient(request.params.id);
        const rows = await deps.db.select().from(engineTargetOrigins).where(eq(engineTargetOrigins.clientId, c.id));
        return { website: c.website, origins: rows.map((r) => r.origin) };
      },
    );

    app.post(
      '/operator/clients/:id/origins',
      {
        preHandler: app.requireOperator,
        schema: { tags: ['operator'], summary: 'Let the client’s tests reach one more origin', params: clientParams, body: targetOriginRequest, response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) } },
      },
      async (request) => {
        const c = await requireClient(request.params.id);
        const origin = parseOrigin(request.body.origin);
        if (!origin) throw new ValidationError('origin must be an http(s) origin such as https://api.example.com (no path)', 'origin');
        await deps.db.insert(engineTargetOrigins).values({ clientId: c.id, origin }).onConflictDoNothing();
        return { message: `${origin} added` };
      },
    );

    app.delete(
      '/operator/clients/:id/origins',
      {
        preHandler: app.requireOperator,
        schema: { tags: ['operator'], summary: 'Remove an added origin', params: clientParams, body: targetOriginRequest, response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) } },
      },
      async (request) => {
        const c = await requireClient(request.params.id);
        const origin = parseOrigin(request.body.origin) ?? request.body.origin;
        const removed = await deps.db
          .delete(engineTargetOrigins)
          .where(and(eq(engineTargetOrigins.clientId, c.id), eq(engineTargetOrigins.origin, origin)))
          .returning();
        if (removed.length === 0) throw new NotFoundError(`${origin} was not added`);
        return { message: `${origin} removed` };
      },
    );
  };
}
