import { type SuiteImportRequest, suiteHistoryResponse, suiteImportRequest, suiteImportResponse, suiteInvalidResponse } from '@fullstop/contracts';
import { normaliseSuitePath, type SuiteFiles, SuiteValidationError } from '@fullstop/engine';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ValidationError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { getClient } from '../accounts/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { suiteHistory } from './suite-repository.ts';
import { suiteConsoleRoutes } from './suite-console-routes.ts';
import { suiteProposalRoutes } from './proposal-routes.ts';
import { deployFollowUpRoutes } from './deploy-follow-up-routes.ts';
import { suiteStatusRoutes } from './suite-status.ts';
import { importSuite } from './suite-service.ts';
import { operatorImportCheck } from './import-check.ts';
import { operatorClientRoute } from '../../lib/operator-route.ts';

/** Suites are at most 5 MB of files; base64 and JSON add about a third. */
const SUITE_BODY_LIMIT = 8 * 1024 * 1024;

/** The request's files by their safe relative path; a 400 names the first unsafe or repeated one. */
function suiteFilesOf(body: SuiteImportRequest): SuiteFiles {
  const files: SuiteFiles = new Map();
  for (const [i, f] of body.files.entries()) {
    const p = normaliseSuitePath(f.path);
    if (!p) throw new ValidationError(`files.${i}.path: "${f.path}" is not a safe relative path`, `files.${i}.path`);
    if (files.has(p)) throw new ValidationError(`files.${i}.path: "${p}" is listed twice`, `files.${i}.path`);
    files.set(p, Buffer.from(f.content, f.encoding === 'base64' ? 'base64' : 'utf8'));
  }
  return files;
}

/**
 * Operator routes of a client's suite: import a new version (the CLI's; it becomes current), list the versions,
 * and the console's Suites page (suite-console-routes.ts).
 */
export function suiteRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(suiteConsoleRoutes(deps));
    await app.register(suiteProposalRoutes(deps));
    await app.register(deployFollowUpRoutes(deps));
    await app.register(suiteStatusRoutes(deps.db));

    app.post(
      '/operator/clients/:id/suite',
      {
        ...operatorClientRoute(app, {
          summary: 'Import a suite folder (as JSON of files) as the client’s next version',
          body: suiteImportRequest,
          response: { 201: suiteImportResponse, 422: suiteInvalidResponse, ...errorResponses(400, 401, 403, 404, 413) },
        }),
        bodyLimit: SUITE_BODY_LIMIT,
      },
      async (request, reply) => {
        const clientId = request.params.id;
        await getClient(deps.db, clientId);
        try {
          const imported = await importSuite(deps, clientId, suiteFilesOf(request.body), request.principal?.via ?? null, { check: operatorImportCheck(deps, clientId, request.log) });
          app.cache.invalidate(clientId, 'tests');
          const message = `Suite version ${imported.version} imported: ${imported.tests} tests in ${Object.keys(imported.groups).length} groups`;
          return reply.code(201).send({ message, version: imported.version, tests: imported.tests, groups: imported.groups });
        } catch (err) {
          if (!(err instanceof SuiteValidationError)) throw err;
          return reply.code(422).send({ message: `The suite is not valid:\n${err.message}`, code: 'SUITE_INVALID', issues: err.issues });
        }
      },
    );

    app.get(
      '/operator/clients/:id/suite',
      operatorClientRoute(app, { summary: 'Every imported version of the client’s suite', response: { 200: suiteHistoryResponse, ...errorResponses(401, 403, 404) } }),
      async (request) => {
        await getClient(deps.db, request.params.id);
        const rows = await suiteHistory(deps.db, request.params.id);
        return { versions: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
      },
    );
  };
}
