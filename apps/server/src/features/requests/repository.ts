import type {
  ClientRequest,
  ClientRequestStatus,
  CreateClientRequest,
  OperatorClientRequest,
  OperatorRequestsQuery,
  RequestAttachment,
  RequestMessage,
  RequestSide,
} from '@fullstop/contracts';
import { and, asc, count, desc, eq, gt, inArray, max, sum } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { clientRequests, clients, requestAttachments, requestMessages } from '../../db/schema/index.ts';

type Row = typeof clientRequests.$inferSelect;
type Viewer = RequestSide;

interface Replies {
  count: number;
  lastAt: Date | null;
  lastSide: RequestSide | null;
}

/** Per request: how many replies, and who wrote the last one when. */
async function repliesOf(db: Db, ids: string[]): Promise<Map<string, Replies>> {
  const found = new Map<string, Replies>();
  if (ids.length === 0) return found;
  const rows = await db
    .select({ requestId: requestMessages.requestId, side: requestMessages.side, n: count(), last: max(requestMessages.createdAt) })
    .from(requestMessages)
    .where(inArray(requestMessages.requestId, ids))
    .groupBy(requestMessages.requestId, requestMessages.side);
  for (const row of rows) {
    const entry = found.get(row.requestId) ?? { count: 0, lastAt: null, lastSide: null };
    entry.count += row.n;
    const last = row.last ? new Date(row.last) : null;
    if (last && (!entry.lastAt || last >= entry.lastAt)) {
      entry.lastAt = last;
      entry.lastSide = row.side;
    }
    found.set(row.requestId, entry);
  }
  return found;
}

function toMessage(row: Row, replies: Replies | undefined, viewer: Viewer): ClientRequest {
  const r = replies ?? { count: 0, lastAt: null, lastSide: null };
  const readAt = viewer === 'client' ? row.clientReadAt : row.operatorReadAt;
  const fromOther = r.lastSide !== null && r.lastSide !== viewer && r.lastAt !== null && (!readAt || r.lastAt > readAt);
  // A request nobody on the QA team has opened yet is unread for them.
  const unread = fromOther || (viewer === 'operator' && !row.operatorReadAt);
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    details: row.details,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastActivityAt: row.lastActivityAt.toISOString(),
    lastReplySide: r.lastSide,
    lastReplyAt: r.lastAt ? r.lastAt.toISOString() : null,
    replyCount: r.count,
    unread,
  };
}

export async function describe(db: Db, row: Row, viewer: Viewer): Promise<ClientRequest> {
  return toMessage(row, (await repliesOf(db, [row.id])).get(row.id), viewer);
}

/** A client's own requests, newest activity first. Every query names the client: no path reads across tenants. */
export async function listForClient(db: Db, clientId: string): Promise<ClientRequest[]> {
  const rows = await db
    .select()
    .from(clientRequests)
    .where(eq(clientRequests.clientId, clientId))
    .orderBy(desc(clientRequests.lastActivityAt), desc(clientRequests.createdAt));
  const replies = await repliesOf(db, rows.map((r) => r.id));
  return rows.map((row) => toMessage(row, replies.get(row.id), 'client'));
}

export async function countSince(db: Db, clientId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(clientRequests)
    .where(and(eq(clientRequests.clientId, clientId), gt(clientRequests.createdAt, since)));
  return row?.n ?? 0;
}

/** How many replies a client's people wrote since `since`, across all its requests. */
export async function countRepliesSince(db: Db, clientId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(requestMessages)
    .innerJoin(clientRequests, eq(clientRequests.id, requestMessages.requestId))
    .where(and(eq(clientRequests.clientId, clientId), eq(requestMessages.side, 'client'), gt(requestMessages.createdAt, since)));
  return row?.n ?? 0;
}

export async function createForClient(db: Db, clientId: string, createdBy: string | null, input: CreateClientRequest): Promise<Row> {
  const now = new Date();
  const [row] = await db
    .insert(clientRequests)
    .values({ clientId, createdBy, kind: input.kind, title: input.title, details: input.details, createdAt: now, updatedAt: now, lastActivityAt: now, clientReadAt: now })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** One request; with `clientId`, only if it is that client's (any other id is simply not found). */
export async function findRequest(db: Db, id: string, clientId?: string): Promise<(Row & { clientName: string }) | null> {
  const [found] = await db
    .select({ request: clientRequests, clientName: clients.name })
    .from(clientRequests)
    .innerJoin(clients, eq(clients.id, clientRequests.clientId))
    .where(clientId ? and(eq(clientRequests.id, id), eq(clientRequests.clientId, clientId)) : eq(clientRequests.id, id))
    .limit(1);
  return found ? { ...found.request, clientName: found.clientName } : null;
}

export async function markRead(db: Db, id: string, viewer: Viewer): Promise<void> {
  const now = new Date();
  await db
    .update(clientRequests)
    .set(viewer === 'client' ? { clientReadAt: now } : { operatorReadAt: now })
    .where(eq(clientRequests.id, id));
}

function toAttachment(row: typeof requestAttachments.$inferSelect): RequestAttachment {
  return {
    id: row.id,
    name: row.name,
    contentType: row.contentType,
    size: row.size,
    side: row.side,
    messageId: row.messageId,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The request's own files (sent with it) and its thread, oldest first, each reply with its files. */
export async function threadOf(db: Db, requestId: string): Promise<{ attachments: RequestAttachment[]; messages: RequestMessage[] }> {
  const [messages, files] = await Promise.all([
    db.select().from(requestMessages).where(eq(requestMessages.requestId, requestId)).orderBy(asc(requestMessages.createdAt), asc(requestMessages.id)),
    db.select().from(requestAttachments).where(eq(requestAttachments.requestId, requestId)).orderBy(asc(requestAttachments.createdAt)),
  ]);
  const attachments = files.map(toAttachment);
  return {
    attachments: attachments.filter((a) => a.messageId === null),
    messages: messages.map((m) => ({
      id: m.id,
      side: m.side,
      authorName: m.authorName,
      body: m.body,
      attachments: attachments.filter((a) => a.messageId === m.id),
      createdAt: m.createdAt.toISOString(),
    })),
  };
}

/** Adds a reply; the writer has read everything up to it. */
export async function addMessage(
  db: Db,
  input: { requestId: string; side: RequestSide; authorId: string | null; authorName: string; body: string },
): Promise<string> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx.insert(requestMessages).values({ ...input, createdAt: now }).returning({ id: requestMessages.id });
    await tx
      .update(clientRequests)
      .set({ lastActivityAt: now, ...(input.side === 'client' ? { clientReadAt: now } : { operatorReadAt: now }) })
      .where(eq(clientRequests.id, input.requestId));
    if (!row) throw new Error('insert returned no row');
    return row.id;
  });
}

/** The reply `messageId` of this request, if there is one and `side` wrote it. */
export async function findOwnMessage(db: Db, requestId: string, messageId: string, side: RequestSide): Promise<boolean> {
  const [row] = await db
    .select({ id: requestMessages.id })
    .from(requestMessages)
    .where(and(eq(requestMessages.id, messageId), eq(requestMessages.requestId, requestId), eq(requestMessages.side, side)))
    .limit(1);
  return Boolean(row);
}

export async function addAttachment(
  db: Db,
  input: { id: string; requestId: string; messageId: string | null; side: RequestSide; uploadedBy: string | null; name: string; contentType: string; size: number },
): Promise<RequestAttachment> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(requestAttachments).values(input).returning();
    await tx.update(clientRequests).set({ lastActivityAt: new Date() }).where(eq(clientRequests.id, input.requestId));
    if (!row) throw new Error('insert returned no row');
    return toAttachment(row);
  });
}

/** The files a client's people attached across all its requests: how many, and their bytes in all. */
export async function clientAttachmentUsage(db: Db, clientId: string): Promise<{ count: number; bytes: number }> {
  const [row] = await db
    .select({ n: count(), bytes: sum(requestAttachments.size) })
    .from(requestAttachments)
    .innerJoin(clientRequests, eq(clientRequests.id, requestAttachments.requestId))
    .where(and(eq(clientRequests.clientId, clientId), eq(requestAttachments.side, 'client')));
  return { count: row?.n ?? 0, bytes: Number(row?.bytes ?? 0) };
}

/** Takes back a file's row (its stored bytes are the caller's to delete). */
export async function removeAttachment(db: Db, attachmentId: string): Promise<void> {
  await db.delete(requestAttachments).where(eq(requestAttachments.id, attachmentId));
}

export async function findAttachment(db: Db, requestId: string, attachmentId: string): Promise<RequestAttachment | null> {
  const [row] = await db
    .select()
    .from(requestAttachments)
    .where(and(eq(requestAttachments.id, attachmentId), eq(requestAttachments.requestId, requestId)))
    .limit(1);
  return row ? toAttachment(row) : null;
}

export async function listAll(db: Db, filter: OperatorRequestsQuery): Promise<OperatorClientRequest[]> {
  const conditions = [
    filter.status ? eq(clientRequests.status, filter.status) : undefined,
    filter.kind ? eq(clientRequests.kind, filter.kind) : undefined,
    filter.clientId ? eq(clientRequests.clientId, filter.clientId) : undefined,
  ].filter((c) => c !== undefined);
  const rows = await db
    .select({ request: clientRequests, clientName: clients.name })
    .from(clientRequests)
    .innerJoin(clients, eq(clients.id, clientRequests.clientId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(clientRequests.lastActivityAt), desc(clientRequests.createdAt))
    .limit(500);
  const replies = await repliesOf(db, rows.map((r) => r.request.id));
  return rows.map(({ request, clientName }) => ({
    ...toMessage(request, replies.get(request.id), 'operator'),
    clientId: request.clientId,
    clientName,
  }));
}

/** Moves a request to `status` only if it is still in `from` (a concurrent change makes this answer null). */
export async function updateStatus(db: Db, id: string, from: ClientRequestStatus, status: ClientRequestStatus): Promise<Row | null> {
  const now = new Date();
  const [row] = await db
    .update(clientRequests)
    .set({ status, updatedAt: now, lastActivityAt: now })
    .where(and(eq(clientRequests.id, id), eq(clientRequests.status, from)))
    .returning();
  return row ?? null;
}

