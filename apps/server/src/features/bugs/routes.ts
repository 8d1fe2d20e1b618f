import path from 'node:path';
import multipart from '@fastify/multipart';
import {
  bug,
  BUG_ATTACHMENT_MAX_BYTES,
  bugAttachment,
  bugAttachmentParams,
  bugList,
  bugListQuery,
  bugParams,
  bugPrefill,
  bugPrefillQuery,
  bugSeverityBody,
  bugTransitionBody,
  createBugBody,
  idParam,
  newBugComment,
  updateBugBody,
} from '@fullstop/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../lib/access.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { ownClientId } from '../auth/index.ts';
import { multipartFile } from '../../lib/multipart-file.ts';
import { bugKey, cleanName, isAttachmentType, storeUpload, uploadKind, wrongType } from './attachments.ts';
import { findAttachment, insertAttachment } from './repository.ts';
import { attachmentOf, type BugService, bugService, type Caller, callerOf } from './service.ts';

/**
 * Bug reports. Clients (bearer or API key) read and answer their own under /bugs and never see drafts; operators
 * write and move them under /operator/... Every answer about one bug carries the actions the caller may take.
 */
export const bugsFeature: FastifyPluginAsyncZod = async (app) => {
  const service = bugService(app);
  app.engine.deps.runFinished.push((run) => service.settleRun(run));
  await app.register(multipart, {
    limits: { fileSize: BUG_ATTACHMENT_MAX_BYTES, files: 1, fields: 5, parts: 10, fieldSize: 16 * 1024 },
    throwFileSizeLimit: true,
  });

  /** A client's call: the caller must be a client (a user or its key). */
  const asClient = (request: FastifyRequest): Caller => {
    ownClientId(request.principal);
    return callerOf(request);
  };

  clientRoutes(app, service, asClient);
  operatorRoutes(app, service);
};

type App = Parameters<FastifyPluginAsyncZod>[0];

async function upload(app: App, service: BugService, request: FastifyRequest, caller: Caller, id: string) {
  const row = await service.visible(caller, id);
  const part = await multipartFile(request);
  const type = part.mimetype.toLowerCase();
  if (!isAttachmentType(type)) {
    part.file.resume();
    throw wrongType();
  }
  const stored = await storeUpload(app.paths, app.artifacts, bugKey(row.id), { file: part.file, filename: part.filename, type });
  let attachment;
  try {
    attachment = await insertAttachment(app.db, {
      bugId: row.id,
      name: cleanName(part.filename, `attachment${path.extname(stored.relPath)}`),
      kind: uploadKind(type),
      contentType: type,
      sizeBytes: stored.size,
      path: stored.relPath,
      uploadedBy: caller.principal.userId,
    });
  } catch (err) {
    await app.artifacts.delete(stored.relPath);
    throw err;
  }
  await service.attached(caller, row, attachment);
  return attachmentOf(attachment);
}

async function download(service: BugService, caller: Caller, params: { id: string; attachmentId: string }, reply: FastifyReply) {
  const row = await service.visible(caller, params.id);
  const attachment = await findAttachment(service.db, row.id, params.attachmentId);
  if (!attachment) throw new NotFoundError('Attachment not found');
  const stored = await service.artifacts.get(await service.file(caller, row, attachment));
  if (!stored) throw new NotFoundError('Attachment not found');
  stored.body.on('error', (err) => reply.log.warn({ err }, 'reading a bug attachment failed'));
  return reply
    .header('content-type', attachment.contentType)
    .header('content-disposition', `attachment; filename="${cleanName(attachment.name, 'attachment')}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .header('content-length', String(attachment.sizeBytes))
    .send(stored.body);
}

const uploadSchema = { consumes: ['multipart/form-data'], response: { 201: bugAttachment, ...errorResponses(400, 401, 403, 404, 413, 415) } };

function clientRoutes(app: App, service: BugService, asClient: (request: FastifyRequest) => Caller) {
  const config = { access: access.clientReaders };
  const tags = ['bugs'];
  app.get('/bugs', { config, schema: { tags, summary: "The client's bug reports, newest first", querystring: bugListQuery, response: { 200: bugList, ...errorResponses(400, 401, 403) } } }, async (request) =>
    service.list(asClient(request), { status: request.query.status, severity: request.query.severity }),
  );
  app.get('/bugs/:id', { config, schema: { tags, summary: 'One bug with its evidence, thread and history', params: bugParams, response: { 200: bug, ...errorResponses(401, 403, 404) } } }, async (request) =>
    service.get(asClient(request), request.params.id),
  );
  app.post(
    '/bugs/:id/transition',
    { config: { access: access.clientWriters, action: 'answer bugs or ask for retests' }, schema: { tags, summary: 'Answer a bug: accept, reject, fixed, wont-fix, not-a-bug, request-retest, reopen', params: bugParams, body: bugTransitionBody, response: { 200: bug, ...errorResponses(400, 401, 403, 404, 409) } } },
    async (request) => service.transition(asClient(request), request.params.id, request.body.action, request.body.reason),
  );
  app.patch('/bugs/:id/severity', { config: { access: access.clientWriters, action: "change a bug's severity" }, schema: { tags, summary: "Change a bug's severity", params: bugParams, body: bugSeverityBody, response: { 200: bug, ...errorResponses(400, 401, 403, 404) } } }, async (request) =>
    service.setSeverity(asClient(request), request.params.id, request.body.severity),
  );
  app.post('/bugs/:id/comments', { config, schema: { tags, summary: "Write in a bug's thread", params: bugParams, body: newBugComment, response: { 200: bug, ...errorResponses(400, 401, 403, 404) } } }, async (request) =>
    service.comment(asClient(request), request.params.id, request.body.body),
  );
  app.post('/bugs/:id/attachments', { config: { access: access.clientWriters, action: 'upload files' }, schema: { tags, summary: 'Attach an image or a video (multipart, field "file", at most 50 MB)', params: bugParams, ...uploadSchema } }, async (request, reply) =>
    reply.code(201).send(await upload(app, service, request, asClient(request), request.params.id)),
  );
  app.get('/bugs/:id/attachments/:attachmentId', { config, schema: { tags, summary: "Download a bug's attachment", params: bugAttachmentParams, response: errorResponses(401, 403, 404) } }, async (request, reply) =>
    download(service, asClient(request), request.params, reply),
  );
}

function operatorRoutes(app: App, service: BugService) {
  const config = { access: access.operators };
  const tags = ['operator'];
  app.get('/operator/bugs', { config, schema: { tags, summary: "Every client's bugs (status=retest: the retest queue)", querystring: bugListQuery, response: { 200: bugList, ...errorResponses(400, 401, 403) } } }, async (request) =>
    service.list(callerOf(request), request.query),
  );
  app.get('/operator/bugs/:id', { config, schema: { tags, summary: 'One bug', params: bugParams, response: { 200: bug, ...errorResponses(401, 403, 404) } } }, async (request) =>
    service.get(callerOf(request), request.params.id),
  );
  app.get(
    '/operator/clients/:id/bugs/prefill',
    { config, schema: { tags, summary: "A bug's fields as a run test's evidence fills them", params: idParam, querystring: bugPrefillQuery, response: { 200: bugPrefill, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => service.prefill(request.params.id, request.query.runTestId, request.query.ruleId),
  );
  app.post(
    '/operator/clients/:id/bugs',
    { config, schema: { tags, summary: 'Write a bug (a draft unless publish)', params: idParam, body: createBugBody, response: { 201: bug, ...errorResponses(400, 401, 403, 404) } } },
    async (request, reply) => reply.code(201).send(await service.create(callerOf(request), request.params.id, request.body)),
  );
  app.patch('/operator/bugs/:id', { config, schema: { tags, summary: "Edit a bug's fields", params: bugParams, body: updateBugBody, response: { 200: bug, ...errorResponses(400, 401, 403, 404) } } }, async (request) =>
    service.update(callerOf(request), request.params.id, request.body),
  );
  app.post(
    '/operator/bugs/:id/transition',
    { config, schema: { tags, summary: 'Move a bug: publish, request-retest, verify, reopen', params: bugParams, body: bugTransitionBody, response: { 200: bug, ...errorResponses(400, 401, 403, 404, 409) } } },
    async (request) => service.transition(callerOf(request), request.params.id, request.body.action, request.body.reason),
  );
  app.post('/operator/bugs/:id/comments', { config, schema: { tags, summary: "Write in a bug's thread", params: bugParams, body: newBugComment, response: { 200: bug, ...errorResponses(400, 401, 403, 404) } } }, async (request) =>
    service.comment(callerOf(request), request.params.id, request.body.body),
  );
  app.post('/operator/bugs/:id/attachments', { config, schema: { tags, summary: 'Attach an image or a video (multipart, field "file", at most 50 MB)', params: bugParams, ...uploadSchema } }, async (request, reply) =>
    reply.code(201).send(await upload(app, service, request, callerOf(request), request.params.id)),
  );
  app.get('/operator/bugs/:id/attachments/:attachmentId', { config, schema: { tags, summary: "Download a bug's attachment", params: bugAttachmentParams, response: errorResponses(401, 403, 404) } }, async (request, reply) =>
    download(service, callerOf(request), request.params, reply),
  );
}
