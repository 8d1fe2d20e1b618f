import { z } from 'zod';
import { BUG_ATTACHMENT_MAX_BYTES } from './bugs.ts';
import { clientRef, idString } from './common.ts';
import { text } from './text.ts';

// Client requests: the client's line to the QA team. A client asks for a new test, a change to a test (their app
// changed), a manual test, a free retest, or asks a question; both sides answer in one thread with attachments.
// Clients use /requests/...; operators see every client's under /operator/requests/....

export const clientRequestKind = z.enum(['new-test', 'test-change', 'manual-test', 'retest', 'question'], {
  error: 'kind must be one of new-test, test-change, manual-test, retest, question',
});
export type ClientRequestKind = z.infer<typeof clientRequestKind>;

export const CLIENT_REQUEST_KIND_LABELS: Record<ClientRequestKind, string> = {
  'new-test': 'New test',
  'test-change': 'Change to a test',
  'manual-test': 'Manual test',
  retest: 'Free retest',
  question: 'Question',
};

export const clientRequestStatus = z.enum(['new', 'in-progress', 'done', 'declined'], {
  error: 'status must be one of new, in-progress, done, declined',
});
export type ClientRequestStatus = z.infer<typeof clientRequestStatus>;

export const CLIENT_REQUEST_STATUS_LABELS: Record<ClientRequestStatus, string> = {
  new: 'New',
  'in-progress': 'In progress',
  done: 'Done',
  declined: 'Declined',
};

/** Where an operator may move a request from each status; anything else answers 409 naming these. */
export const CLIENT_REQUEST_TRANSITIONS: Record<ClientRequestStatus, readonly ClientRequestStatus[]> = {
  new: ['in-progress', 'declined', 'done'],
  'in-progress': ['done', 'declined'],
  done: ['in-progress'],
  declined: ['in-progress'],
};

/** Which side wrote a message or uploaded a file. */
export const requestSide = z.enum(['client', 'operator']);
export type RequestSide = z.infer<typeof requestSide>;

/** The largest file a request thread takes: 50 MB, as for bugs. */
export const REQUEST_ATTACHMENT_MAX_BYTES = BUG_ATTACHMENT_MAX_BYTES;
/** The media types a request's attachment may have: images, video, PDF, plain text, CSV and zip. */
export const REQUEST_ATTACHMENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'video/mp4',
  'video/webm',
  'video/quicktime',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/zip',
] as const;
/** Browsers name some of these types differently (Windows: zip, Excel: CSV); they count as the type on the right. */
export const REQUEST_ATTACHMENT_TYPE_ALIASES: Record<string, (typeof REQUEST_ATTACHMENT_TYPES)[number]> = {
  'application/x-zip-compressed': 'application/zip',
  'application/x-zip': 'application/zip',
  'application/csv': 'text/csv',
  'application/vnd.ms-excel': 'text/csv',
  'image/jpg': 'image/jpeg',
};
/** For people: "PNG, JPEG, GIF, WebP, MP4, WebM, MOV, PDF, TXT, CSV, ZIP". */
export const REQUEST_ATTACHMENT_TYPES_TEXT = 'PNG, JPEG, GIF, WebP, MP4, WebM, MOV, PDF, TXT, CSV, ZIP';

/** The type a declared media type counts as, or null when it is not one a request takes. */
export function requestAttachmentType(declared: string): (typeof REQUEST_ATTACHMENT_TYPES)[number] | null {
  const type = declared.split(';')[0]!.trim().toLowerCase();
  if ((REQUEST_ATTACHMENT_TYPES as readonly string[]).includes(type)) return type as (typeof REQUEST_ATTACHMENT_TYPES)[number];
  return REQUEST_ATTACHMENT_TYPE_ALIASES[type] ?? null;
}

/**
 * What the portal and the console check before sending a file (the server checks again, and its contents):
 * null when it may go, else the sentence to show.
 */
export function requestAttachmentProblem(file: { size: number; type: string; name: string }): string | null {
  if (file.size > REQUEST_ATTACHMENT_MAX_BYTES) {
    return `${file.name} is too large: the limit is ${Math.round(REQUEST_ATTACHMENT_MAX_BYTES / (1024 * 1024))} MB.`;
  }
  if (file.size === 0) return `${file.name} is empty.`;
  if (!requestAttachmentType(file.type || guessType(file.name))) {
    return `${file.name} cannot be attached: send one of ${REQUEST_ATTACHMENT_TYPES_TEXT}.`;
  }
  return null;
}

/** Browsers leave the type empty for some files (CSV on some systems): the extension decides then. */
export function guessType(name: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  const byExt: Record<string, string> = {
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    gif: 'image/gif',
    webp: 'image/webp',
    mp4: 'video/mp4',
    webm: 'video/webm',
    mov: 'video/quicktime',
    pdf: 'application/pdf',
    txt: 'text/plain',
    log: 'text/plain',
    csv: 'text/csv',
    zip: 'application/zip',
  };
  return byExt[ext] ?? '';
}

const title = text('title').trim().min(3, { error: 'title must be at least 3 characters' }).max(200, { error: 'title must be at most 200 characters' });

export const createClientRequest = z.object({
  kind: clientRequestKind,
  title,
  details: text('details').trim().min(1, { error: 'details are required' }).max(5000, { error: 'details must be at most 5000 characters' }),
});
export type CreateClientRequest = z.infer<typeof createClientRequest>;

/** POST /requests/:id/messages and /operator/requests/:id/messages: a reply in the thread. */
export const requestReplyBody = z.object({
  body: text('body').trim().min(1, { error: 'the reply is empty' }).max(10_000, { error: 'the reply must be at most 10000 characters' }),
});
export type RequestReplyBody = z.infer<typeof requestReplyBody>;

/** POST .../attachments?messageId=…: the reply the file belongs to (without it: the request itself). */
export const requestAttachmentQuery = z.object({ messageId: idString.optional() });

export const requestAttachment = z.object({
  id: z.string(),
  name: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  side: requestSide,
  messageId: z.string().nullable(),
  createdAt: z.string(),
});
export type RequestAttachment = z.infer<typeof requestAttachment>;

export const requestMessage = z.object({
  id: z.string(),
  side: requestSide,
  authorName: z.string(),
  body: z.string(),
  attachments: z.array(requestAttachment),
  createdAt: z.string(),
});
export type RequestMessage = z.infer<typeof requestMessage>;

export const clientRequest = z.object({
  id: z.string(),
  kind: clientRequestKind,
  title: z.string(),
  details: z.string(),
  status: clientRequestStatus,
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The last time anyone wrote, attached or changed the status. */
  lastActivityAt: z.string(),
  /** Who wrote the last reply (null: no reply yet). */
  lastReplySide: requestSide.nullable(),
  lastReplyAt: z.string().nullable(),
  replyCount: z.number().int(),
  /** Something from the other side the caller has not opened yet. */
  unread: z.boolean(),
});
export type ClientRequest = z.infer<typeof clientRequest>;
export const clientRequestList = z.array(clientRequest);

/** GET /requests/:id: the request, the files sent with it, and its thread (oldest first). */
export const clientRequestDetail = clientRequest.extend({
  attachments: z.array(requestAttachment),
  messages: z.array(requestMessage),
});
export type ClientRequestDetail = z.infer<typeof clientRequestDetail>;

/** PATCH /operator/requests/:id: an operator moves a request along (see CLIENT_REQUEST_TRANSITIONS). */
export const updateClientRequest = z.object({ status: clientRequestStatus });
export type UpdateClientRequest = z.infer<typeof updateClientRequest>;

/** What operators see: every client's requests, with whose they are. */
export const operatorClientRequest = clientRequest.extend(clientRef.shape);
export type OperatorClientRequest = z.infer<typeof operatorClientRequest>;
export const operatorClientRequestList = z.array(operatorClientRequest);

export const operatorClientRequestDetail = clientRequestDetail.extend({
  ...clientRef.shape,
  allowedStatuses: z.array(clientRequestStatus),
});
export type OperatorClientRequestDetail = z.infer<typeof operatorClientRequestDetail>;

/** GET /operator/requests?status&clientId&kind */
export const operatorRequestsQuery = z.object({
  status: clientRequestStatus.optional(),
  kind: clientRequestKind.optional(),
  clientId: idString.optional(),
});
export type OperatorRequestsQuery = z.infer<typeof operatorRequestsQuery>;

export const clientRequestParams = z.object({ id: idString });
export const requestAttachmentParams = z.object({ id: idString, attachmentId: idString });

/** The API paths of one request, for the client (`operator` false) or the console. */
export function requestApiPath(id: string, operator = false): string {
  return `${operator ? '/operator' : ''}/requests/${encodeURIComponent(id)}`;
}
export const operatorRequestsApiPath = '/operator/requests';
