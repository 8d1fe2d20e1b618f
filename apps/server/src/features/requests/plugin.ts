import multipart from '@fastify/multipart';
import {
  CLIENT_REQUEST_STATUS_LABELS,
  CLIENT_REQUEST_TRANSITIONS,
  REQUEST_ATTACHMENT_MAX_BYTES,
  clientRequest,
  clientRequestDetail,
  clientRequestList,
  clientRequestParams,
  createClientRequest,
  operatorClientRequestDetail,
  operatorClientRequestList,
  operatorRequestsQuery,
  requestAttachment,
  requestAttachmentParams,
  requestAttachmentQuery,
  requestReplyBody,
  updateClientRequest,
  type ClientRequestDetail,
  type OperatorClientRequestDetail,
  type RequestSide,
} from '@fullstop/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../lib/access.ts';
import { audit } from '../../lib/audit.ts';
import { AppError, ConflictError, NotFoundError, TooManyRequestsError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { userName } from '../accounts/index.ts';
import { ownClientId, type Principal } from '../auth/index.ts';
import { attachmentKey, storeAttachment } from './attachments.ts';
import { multipartFile } from '../../lib/multipart-file.ts';
import { notifyOtherSide } from './notify.ts';
import {
  addAttachment,
  addMessage,
  clientAttachmentUsage,
  countRepliesSince,
  countSince,
  createForClient,
  describe,
  findAttachment,
  findOwnMessage,
  findRequest,
  listAll,
  listForClient,
  markRead,
  removeAttachment,
  threadOf,
  updateStatus,
} from './repository.ts';

/** A client can send this many requests per day; more is a script gone wrong, not a person. */
export const REQUESTS_PER_DAY = 50;
/** Replies a client can write per day across its requests: each one mails the whole QA team. */
export const REPLIES_PER_DAY = 300;
const DAY_MS = 24 * 3600 * 1000;
const NOT_FOUND = 'Request not found';
/** The code of a 413 for a client's files past its quota (the message names the limit). */
export const ATTACHMENT_QUOTA = 'ATTACHMENT_QUOTA';

/** How the writer is named in the thread. */
async function authorName(db: Parameters<typeof userName>[0], principal: Principal): Promise<string> {
  const name = await userName(db, principal.userId);
  if (name) return name;
  if (principal.role === 'operator') return 'Fullstop QA team';
  return principal.via === 'api-key' ? 'API key' : 'Client';
}

/**
 * Client requests: the client's line to the QA team (a new test, a change to a test, a manual test, a free retest
 * or a question), with one thread for both sides and files on it. Clients (bearer or x-api-key) reach only their
 * own, by any id; operators see every client's under /operator/requests, each of their actions audited.
 */
export const requestsFeature: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, {
    limits: { fileSize: REQUEST_ATTACHMENT_MAX_BYTES, files: 1, fields: 10, parts: 20, fieldSize: 64 * 1024 },
    throwFileSizeLimit: true,
  });

  const detailFor = async (row: NonNullable<Awaited<ReturnType<typeof findRequest>>>, side: RequestSide): Promise<ClientRequestDetail> => ({
    ...(await describe(app.db, row, side)),
    ...(await threadOf(app.db, row.id)),
  });
  const operatorDetail = async (id: string): Promise<OperatorClientRequestDetail> => {
    const row = await findRequest(app.db, id);
    if (!row) throw new NotFoundError(NOT_FOUND);
    return { ...(await detailFor(row, 'operator')), clientId: row.clientId, clientName: row.clientName, allowedStatuses: [...CLIENT_REQUEST_TRANSITIONS[row.status]] };
  };
  /** The request as its caller may see it: a client only its own (anything else is not found), an operator any. */
  const requestFor = async (request: FastifyRequest, id: string, side: RequestSide) => {
    const row = await findRequest(app.db, id, side === 'client' ? ownClientId(request.principal) : undefined);
    if (!row) throw new NotFoundError(NOT_FOUND);
    return row;
  };
  const who = (request: FastifyRequest, clientId: string) => ({ clientId, userId: request.principal?.userId ?? null, address: request.ip });

  // ---- the client's side ----

  app.get(
    '/requests',
    {
      config: { access: access.clientReaders },
      schema: {
        tags: ['requests'],
        summary: "The caller's client's requests, newest activity first, with who replied last and what is unread",
        response: { 200: clientRequestList, ...errorResponses(401, 403) },
      },
    },
    async (request) => listForClient(app.db, ownClientId(request.principal)),
  );

  app.post(
    '/requests',
    {
      config: { access: access.clientWriters, action: 'send requests' },
      schema: {
        tags: ['requests'],
        summary: 'Send a request to the QA team (attach files with POST /requests/:id/attachments)',
        body: createClientRequest,
        response: { 201: clientRequest, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const clientId = ownClientId(request.principal);
      if ((await countSince(app.db, clientId, new Date(Date.now() - DAY_MS))) >= REQUESTS_PER_DAY) {
        throw new TooManyRequestsError(`At most ${REQUESTS_PER_DAY} requests a day; please try again tomorrow`, 3600);
      }
      const row = await createForClient(app.db, clientId, request.principal?.userId ?? null, request.body);
      request.log.info({ requestId: row.id, clientId, kind: row.kind }, 'client request created');
      const found = await findRequest(app.db, row.id, clientId);
      if (found) await notifyOtherSide(app, 'operator', found, { type: 'created', details: row.details });
      return reply.code(201).send(await describe(app.db, row, 'client'));
    },
  );

  app.get(
    '/requests/:id',
    {
      config: { access: access.clientReaders },
      schema: {
        tags: ['requests'],
        summary: 'One of your requests with its files and thread (marks it read)',
        params: clientRequestParams,
        response: { 200: clientRequestDetail, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const row = await requestFor(request, request.params.id, 'client');
      await markRead(app.db, row.id, 'client');
      return detailFor({ ...row, clientReadAt: new Date() }, 'client');
    },
  );

  app.post(
    '/requests/:id/messages',
    {
      config: { access: access.clientWriters, action: 'reply to requests' },
      schema: {
        tags: ['requests'],
        summary: 'Reply in the thread of one of your requests (the QA team is mailed)',
        params: clientRequestParams,
        body: requestReplyBody,
        response: { 201: clientRequestDetail, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const row = await requestFor(request, request.params.id, 'client');
      if ((await countRepliesSince(app.db, row.clientId, new Date(Date.now() - DAY_MS))) >= REPLIES_PER_DAY) {
        throw new TooManyRequestsError(`At most ${REPLIES_PER_DAY} replies a day; please try again tomorrow`, 3600);
      }
      const name = await authorName(app.db, request.principal!);
      await addMessage(app.db, { requestId: row.id, side: 'client', authorId: request.principal?.userId ?? null, authorName: name, body: request.body.body });
      await notifyOtherSide(app, 'operator', row, { type: 'reply', authorName: name, body: request.body.body });
      const fresh = await requestFor(request, row.id, 'client');
      return reply.code(201).send(await detailFor(fresh, 'client'));
    },
  );

  const maxFiles = app.env.REQUEST_ATTACHMENTS_MAX_COUNT;
  const maxMb = app.env.REQUEST_ATTACHMENTS_MAX_TOTAL_MB;
  /**
   * A client's files on its requests are bounded in number and in bytes (the QA team's side is not). `withNew`:
   * the new file is already counted, so reaching the limit is fine; before it is, reaching it is already too much.
   */
  const overQuota = async (clientId: string, withNew: boolean): Promise<AppError | null> => {
    const used = await clientAttachmentUsage(app.db, clientId);
    const past = (value: number, limit: number) => (withNew ? value > limit : value >= limit);
    if (past(used.count, maxFiles)) {
      return new AppError(413, ATTACHMENT_QUOTA, `Your requests may hold at most ${maxFiles} files (REQUEST_ATTACHMENTS_MAX_COUNT): ask the QA team for room`, { field: 'file' });
    }
    if (past(used.bytes, maxMb * 1024 * 1024)) {
      return new AppError(413, ATTACHMENT_QUOTA, `Your requests' files may take at most ${maxMb} MB in all (REQUEST_ATTACHMENTS_MAX_TOTAL_MB): ask the QA team for room`, { field: 'file' });
    }
    return null;
  };

  const upload = async (request: FastifyRequest, id: string, messageId: string | undefined, side: RequestSide) => {
    const row = await requestFor(request, id, side);
    if (messageId && !(await findOwnMessage(app.db, row.id, messageId, side))) {
      throw new NotFoundError('Reply not found: attach files to a reply of your own');
    }
    // Refused before a byte of the file is read, and checked again with it counted (two at once cannot both slip in).
    const early = side === 'client' ? await overQuota(row.clientId, false) : null;
    if (early) throw early;
    const part = await multipartFile(request);
    const stored = await storeAttachment({ paths: app.paths, store: app.artifacts, requestId: row.id, fileName: part.filename, declaredType: part.mimetype, file: part.file });
    try {
      const attachment = await addAttachment(app.db, {
        id: stored.id,
        requestId: row.id,
        messageId: messageId ?? null,
        side,
        uploadedBy: request.principal?.userId ?? null,
        name: stored.name,
        contentType: stored.contentType,
        size: stored.size,
      });
      const over = side === 'client' ? await overQuota(row.clientId, true) : null;
      if (over) {
        await removeAttachment(app.db, attachment.id);
        throw over;
      }
      return { row, attachment };
    } catch (err) {
      await app.artifacts.delete(stored.key);
      throw err;
    }
  };

  const download = async (request: FastifyRequest, reply: FastifyReply, id: string, attachmentId: string, side: RequestSide) => {
    const row = await requestFor(request, id, side);
    const attachment = await findAttachment(app.db, row.id, attachmentId);
    if (!attachment) throw new NotFoundError('Attachment not found');
    const stored = await app.artifacts.get(attachmentKey(row.id, attachment.id));
    if (!stored) throw new NotFoundError('Attachment not found');
    stored.body.on('error', (err) => request.log.warn({ err }, 'reading a request attachment failed'));
    const ascii = attachment.name.replace(/[^\x20-\x7e]|["\\]/g, '_');
    const utf8 = encodeURIComponent(attachment.name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    return reply
      .header('content-type', attachment.contentType)
      .header('content-length', String(attachment.size))
      .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(stored.body);
  };

  app.post(
    '/requests/:id/attachments',
    {
      config: { access: access.clientWriters, action: 'attach files to requests' },
      schema: {
        tags: ['requests'],
        summary: `Attach a file (multipart, field "file"; up to 50 MB of images, video, PDF, text, CSV or zip) to your request, or with ?messageId= to a reply of yours`,
        consumes: ['multipart/form-data'],
        params: clientRequestParams,
        querystring: requestAttachmentQuery,
        response: { 201: requestAttachment, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const { attachment } = await upload(request, request.params.id, request.query.messageId, 'client');
      return reply.code(201).send(attachment);
    },
  );

  app.get(
    '/requests/:id/attachments/:attachmentId',
    {
      config: { access: access.clientReaders },
      schema: { tags: ['requests'], summary: 'Download a file of one of your requests', params: requestAttachmentParams },
    },
    async (request, reply) => download(request, reply, request.params.id, request.params.attachmentId, 'client'),
  );

  // ---- the QA team's side ----

  app.get(
    '/operator/requests',
    {
      config: { access: access.operators },
      schema: {
        tags: ['operator'],
        summary: "Every client's requests, newest activity first, by status, kind or client",
        querystring: operatorRequestsQuery,
        response: { 200: operatorClientRequestList, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => listAll(app.db, request.query),
  );

  app.get(
    '/operator/requests/:id',
    {
      config: { access: access.operators },
      schema: {
        tags: ['operator'],
        summary: 'One request with its files and thread, and the statuses it may move to (marks it read)',
        params: clientRequestParams,
        response: { 200: operatorClientRequestDetail, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const row = await requestFor(request, request.params.id, 'operator');
      await markRead(app.db, row.id, 'operator');
      await audit(app.db, request.log, { type: 'request.viewed', ...who(request, row.clientId), details: { requestId: row.id } });
      return operatorDetail(row.id);
    },
  );

  app.post(
    '/operator/requests/:id/messages',
    {
      config: { access: access.operators },
      schema: {
        tags: ['operator'],
        summary: "Reply in a request's thread (the client's users are mailed)",
        params: clientRequestParams,
        body: requestReplyBody,
        response: { 201: operatorClientRequestDetail, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const row = await requestFor(request, request.params.id, 'operator');
      const name = await authorName(app.db, request.principal!);
      const messageId = await addMessage(app.db, { requestId: row.id, side: 'operator', authorId: request.principal?.userId ?? null, authorName: name, body: request.body.body });
      await audit(app.db, request.log, { type: 'request.replied', ...who(request, row.clientId), details: { requestId: row.id, messageId } });
      await notifyOtherSide(app, 'client', row, { type: 'reply', authorName: name, body: request.body.body });
      return reply.code(201).send(await operatorDetail(row.id));
    },
  );

  app.patch(
    '/operator/requests/:id',
    {
      config: { access: access.operators },
      schema: {
        tags: ['operator'],
        summary: "Change a request's status: new → in progress, done or declined; in progress → done or declined; done or declined → in progress",
        params: clientRequestParams,
        body: updateClientRequest,
        response: { 200: operatorClientRequestDetail, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const row = await requestFor(request, request.params.id, 'operator');
      const to = request.body.status;
      const allowed = CLIENT_REQUEST_TRANSITIONS[row.status];
      const refuse = () => {
        const names = allowed.map((s) => `${s} (${CLIENT_REQUEST_STATUS_LABELS[s]})`).join(', ');
        return new ConflictError(`A request that is ${row.status} cannot become ${to}; it can become: ${names}`, 'status');
      };
      if (!allowed.includes(to)) throw refuse();
      const updated = await updateStatus(app.db, row.id, row.status, to);
      if (!updated) throw new ConflictError('The request was changed meanwhile: reload it and try again', 'status');
      await audit(app.db, request.log, { type: 'request.status-changed', ...who(request, row.clientId), details: { requestId: row.id, from: row.status, to } });
      await notifyOtherSide(app, 'client', row, { type: 'status', status: to });
      return operatorDetail(row.id);
    },
  );

  app.post(
    '/operator/requests/:id/attachments',
    {
      config: { access: access.operators },
      schema: {
        tags: ['operator'],
        summary: 'Attach a file (multipart, field "file") to a request, or with ?messageId= to a reply of the QA team',
        consumes: ['multipart/form-data'],
        params: clientRequestParams,
        querystring: requestAttachmentQuery,
        response: { 201: requestAttachment, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const { row, attachment } = await upload(request, request.params.id, request.query.messageId, 'operator');
      await audit(app.db, request.log, {
        type: 'request.attachment-added',
        ...who(request, row.clientId),
        details: { requestId: row.id, attachmentId: attachment.id, size: attachment.size, contentType: attachment.contentType },
      });
      return reply.code(201).send(attachment);
    },
  );

  app.get(
    '/operator/requests/:id/attachments/:attachmentId',
    {
      config: { access: access.operators },
      schema: { tags: ['operator'], summary: "Download a file of a request's thread", params: requestAttachmentParams },
    },
    async (request, reply) => {
      const row = await requestFor(request, request.params.id, 'operator');
      await audit(app.db, request.log, { type: 'request.attachment-downloaded', ...who(request, row.clientId), details: { requestId: row.id, attachmentId: request.params.attachmentId } });
      return download(request, reply, row.id, request.params.attachmentId, 'operator');
    },
  );
};
