import multipart from '@fastify/multipart';
import {
  consoleSuiteImportResponse,
  errorResponse,
  idParam,
  suiteCurrentResponse,
  suiteDiffQuery,
  suiteDiffResponse,
  suiteFileQuery,
  suiteFileResponse,
  suiteFilesResponse,
  suiteImportRefused,
  suiteMakeCurrentField,
  suiteTryResponse,
  suiteVersionParams,
  suiteVersionsResponse,
} from '@fullstop/contracts';
import { SUITE_LIMITS, SuiteValidationError } from '@fullstop/engine';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit } from '../../lib/audit.ts';
import { NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { findUserById, getClient } from '../accounts/index.ts';
import type { Principal } from '../auth/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { localSuite } from './suite-store.ts';
import { operatorClientRoute } from '../../lib/operator-route.ts';
import { queueRun } from '../runs/index.ts';
import { operatorRunOrigin } from '../runs/index.ts';
import { diffSuites, listSuiteFiles, readSuiteFile } from './suite-browse.ts';
import { currentSuite, setCurrentSuite, type SuiteRow, suiteByVersion, suiteVersions, testsIn } from './suite-repository.ts';
import { importSuite } from './suite-service.ts';
import { suiteFilesOfUpload, unzipSuite, type UploadedFile } from './suite-upload.ts';
import { operatorImportCheck } from './import-check.ts';

/** A zip may be a little larger than the files it holds (headers, stored entries); what it holds is checked after. */
const UPLOAD_MAX_BYTES = SUITE_LIMITS.maxTotalBytes + 1024 * 1024;
/** A folder may hold a few files the import leaves out (hidden ones), so the form may carry a few more. */
const UPLOAD_MAX_FILES = SUITE_LIMITS.maxFiles + 50;


async function versionOf(deps: EngineDeps, clientId: string, version: number): Promise<SuiteRow> {
  await getClient(deps.db, clientId);
  const suite = await suiteByVersion(deps.db, clientId, version);
  if (!suite) throw new NotFoundError(`Suite version ${version} not found`);
  return localSuite(deps, suite);
}

/** Who imported a version, as the list shows it: an operator's e-mail, or how the call was made. */
async function importerOf(deps: EngineDeps, principal: Principal | null): Promise<string | null> {
  if (principal?.userId) return (await findUserById(deps.db, principal.userId))?.email ?? principal.userId;
  return principal?.via ?? null;
}

interface SuiteUpload {
  source: 'zip' | 'folder';
  files: UploadedFile[];
  makeCurrent: boolean;
}

/** The form: one zip in field "zip", or a folder's files in field "files" (each named by its relative path). */
async function readUpload(request: FastifyRequest): Promise<SuiteUpload> {
  if (!request.isMultipart()) {
    throw new UnsupportedMediaTypeError('Send the suite as multipart/form-data: one zip in the field "zip", or the folder’s files in the field "files"');
  }
  const files: UploadedFile[] = [];
  let zip: Buffer | null = null;
  let makeCurrent = true;
  let total = 0;
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      if (part.fieldname !== 'makeCurrent') throw new ValidationError(`${part.fieldname}: unknown field (send zip, files and makeCurrent)`, part.fieldname);
      const parsed = suiteMakeCurrentField.safeParse(String(part.value));
      if (!parsed.success) throw new ValidationError('makeCurrent must be true or false', 'makeCurrent');
      makeCurrent = parsed.data === 'true';
      continue;
    }
    if (part.fieldname !== 'zip' && part.fieldname !== 'files') {
      part.file.resume();
      throw new ValidationError(`${part.fieldname}: unknown field (send the suite in "zip" or "files")`, part.fieldname);
    }
    const content = await part.toBuffer();
    total += content.length;
    if (total > UPLOAD_MAX_BYTES) throw new PayloadTooLargeError(`A suite may hold at most ${SUITE_LIMITS.maxTotalBytes} bytes`);
    if (part.fieldname === 'zip') {
      if (zip) throw new ValidationError('zip: send one zip archive', 'zip');
      zip = content;
    } else {
      files.push({ path: part.filename, content });
    }
  }
  if (zip && files.length > 0) throw new ValidationError('Send either a zip or a folder’s files, not both', 'zip');
  if (zip) return { source: 'zip', files: await unzipSuite(zip), makeCurrent };
  if (files.length === 0) throw new ValidationError('Send the suite: a zip in the field "zip", or the folder’s files in the field "files"', 'files');
  return { source: 'folder', files, makeCurrent };
}

const refused = (err: SuiteValidationError) => ({ message: `The suite is not valid:\n${err.message}`, code: 'SUITE_INVALID', issues: err.issues });

/**
 * The console's Suites page: every version with its files, a diff between two, an import from the browser that
 * may leave the current version in place, a trial run of any version, and the switch of the current one.
 */
export function suiteConsoleRoutes(deps: EngineDeps): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, {
      // Folder uploads name each file by its path under the chosen folder: keep it.
      preservePath: true,
      limits: { fileSize: UPLOAD_MAX_BYTES, files: UPLOAD_MAX_FILES, fields: 5, parts: UPLOAD_MAX_FILES + 5, fieldSize: 1024 },
      throwFileSizeLimit: true,
    });

    app.get(
      '/operator/clients/:id/suites',
      operatorClientRoute(app, { summary: 'Every version of the client’s suite, newest first, the current one marked', response: { 200: suiteVersionsResponse, ...errorResponses(401, 403, 404) } }),
      async (request) => {
        await getClient(deps.db, request.params.id);
        const rows = await suiteVersions(deps.db, request.params.id);
        return {
          versions: rows.map((r) => ({
            version: r.version,
            fileCount: r.fileCount,
            tests: testsIn(r),
            importedBy: r.importedBy,
            createdAt: r.createdAt.toISOString(),
            current: r.isCurrent,
          })),
        };
      },
    );

    app.get(
      '/operator/clients/:id/suites/diff',
      operatorClientRoute(app, {
        summary: 'What changed between two versions of the client’s suite, file by file, as unified diffs',
        querystring: suiteDiffQuery,
        response: { 200: suiteDiffResponse, ...errorResponses(400, 401, 403, 404) },
      }),
      async (request) => {
        const from = await versionOf(deps, request.params.id, request.query.from);
        const to = await versionOf(deps, request.params.id, request.query.to);
        return diffSuites(from, to);
      },
    );

    app.get(
      '/operator/clients/:id/suites/:version/files',
      operatorClientRoute(app, { summary: 'The files of one version of the client’s suite', params: suiteVersionParams, response: { 200: suiteFilesResponse, ...errorResponses(400, 401, 403, 404) } }),
      async (request) => {
        const suite = await versionOf(deps, request.params.id, request.params.version);
        return { version: suite.version, files: await listSuiteFiles(suite) };
      },
    );

    app.get(
      '/operator/clients/:id/suites/:version/file',
      operatorClientRoute(app, {
        summary: 'One file of a version of the client’s suite, as text (binary files answer a note)',
        params: suiteVersionParams,
        querystring: suiteFileQuery,
        response: { 200: suiteFileResponse, ...errorResponses(400, 401, 403, 404) },
      }),
      async (request) => {
        const suite = await versionOf(deps, request.params.id, request.params.version);
        return readSuiteFile(suite, request.query.path);
      },
    );

    app.post(
      '/operator/clients/:id/suites',
      {
        ...operatorClientRoute(app, {
          summary: 'Import a suite from the console: a zip (field "zip") or a folder’s files (field "files"); makeCurrent=false keeps it for trial',
          params: idParam,
          consumes: ['multipart/form-data'],
          response: { 201: consoleSuiteImportResponse, 400: z.union([suiteImportRefused, errorResponse]), ...errorResponses(401, 403, 404, 413, 415) },
        }),
      },
      async (request, reply) => {
        const clientId = request.params.id;
        await getClient(deps.db, clientId);
        try {
          const upload = await readUpload(request);
          const files = suiteFilesOfUpload(upload.files);
          // Kept for a trial only when another version runs meanwhile: a client without one would see no tests at all.
          const makeCurrent = upload.makeCurrent || !(await currentSuite(deps.db, clientId));
          const imported = await importSuite(deps, clientId, files, await importerOf(deps, request.principal), { makeCurrent, check: operatorImportCheck(deps, clientId, request.log) });
          if (makeCurrent) app.cache.invalidate(clientId, 'tests');
          await audit(deps.db, request.log, {
            type: 'suite.imported',
            clientId,
            userId: request.principal?.userId,
            address: request.ip,
            details: { version: imported.version, current: makeCurrent, source: upload.source, files: files.size, tests: imported.tests },
          });
          const message = !makeCurrent
            ? `Suite version ${imported.version} imported for trial: ${imported.tests} tests (the current version still runs)`
            : upload.makeCurrent
              ? `Suite version ${imported.version} imported and made current: ${imported.tests} tests`
              : `Suite version ${imported.version} imported and made current, as no version was: ${imported.tests} tests`;
          return reply.code(201).send({ message, version: imported.version, tests: imported.tests, groups: imported.groups, current: makeCurrent });
        } catch (err) {
          if (!(err instanceof SuiteValidationError)) throw err;
          return reply.code(400).send(refused(err));
        }
      },
    );

    app.post(
      '/operator/clients/:id/suites/:version/try',
      operatorClientRoute(app, {
        summary: 'Run every test of one version of the client’s suite, without making it current',
        params: suiteVersionParams,
        response: { 200: suiteTryResponse, ...errorResponses(400, 401, 403, 404) },
      }),
      async (request) => {
        const clientId = request.params.id;
        const suite = await versionOf(deps, clientId, request.params.version);
        const queued = await queueRun(deps, clientId, { suite }, operatorRunOrigin(request.principal));
        await audit(deps.db, request.log, {
          type: 'suite.tried',
          clientId,
          userId: request.principal?.userId,
          address: request.ip,
          details: { version: suite.version, runId: queued.runId, current: suite.isCurrent },
        });
        return { message: `${queued.testCount} test(s) of suite version ${suite.version} queued (run ${queued.runId})`, runId: queued.runId, version: suite.version };
      },
    );

    app.post(
      '/operator/clients/:id/suites/:version/current',
      operatorClientRoute(app, {
        summary: 'Make one version of the client’s suite the one that runs',
        params: suiteVersionParams,
        response: { 200: suiteCurrentResponse, ...errorResponses(400, 401, 403, 404) },
      }),
      async (request) => {
        const clientId = request.params.id;
        const suite = await versionOf(deps, clientId, request.params.version);
        if (suite.isCurrent) return { message: `Suite version ${suite.version} is already current`, version: suite.version, previous: suite.version };
        const previous = await setCurrentSuite(deps.db, clientId, suite.id);
        app.cache.invalidate(clientId, 'tests');
        await audit(deps.db, request.log, {
          type: 'suite.current',
          clientId,
          userId: request.principal?.userId,
          address: request.ip,
          details: { version: suite.version, previous },
        });
        return { message: `Suite version ${suite.version} is now current: it runs from now on`, version: suite.version, previous };
      },
    );
  };
}
