import type { ClientRequest, ClientRequestStatus, CreateClientRequest, OperatorClientRequest } from '@fullstop/contracts';
import { and, count, desc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { clientRequests, clients } from '../../db/schema/index.ts';

type Row = typeof clientRequests.$inferSelect;

function toMessage(row: Row): ClientRequest {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    details: row.details,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A client's own requests, newest first. Every query names the client: no path reads across tenants. */
export async function listForClient(db: Db, clientId: string): Promise<ClientRequest[]> {
  const rows = await db
    .select()
    .from(clientRequests)
    .where(eq(clientRequests.clientId, clientId))
    .orderBy(desc(clientRequests.createdAt));
  return rows.map(toMessage);
}

export async function countSince(db: Db, clientId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(clientRequests)
    .where(and(eq(clientRequests.clientId, clientId), gt(clientRequests.createdAt, since)));
  return row?.n ?? 0;
}

export async function createForClient(
  db: Db,
  clientId: string,
  createdBy: string | null,
  input: CreateClientRequest,
): Promise<ClientRequest> {
  const [row] = await db
    .insert(clientRequests)
    .values({ clientId, createdBy, kind: input.kind, title: input.title, details: input.details })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return toMessage(row);
}

export async function listAll(db: Db, status?: ClientRequestStatus): Promise<OperatorClientRequest[]> {
  const rows = await db
    .select({ request: clientRequests, clientName: clients.name })
    .from(clientRequests)
    .innerJoin(clients, eq(clients.id, clientRequests.clientId))
    .where(status ? eq(clientRequests.status, status) : undefined)
    .orderBy(desc(clientRequests.createdAt));
  return rows.map(({ request, clientName }) => ({ ...toMessage(request), clientId: request.clientId, clientName }));
}

export async function updateStatus(db: Db, id: string, status: ClientRequestStatus): Promise<ClientRequest | null> {
  const [row] = await db
    .update(clientRequests)
    .set({ status, updatedAt: new Date() })
    .where(eq(clientRequests.id, id))
    .returning();
  return row ? toMessage(row) : null;
}
