import { PAGE_VIEW_AUDIT_TYPE } from '@fullstop/contracts';
import { and, count, desc, eq, gte, like, lte, ne, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { auditEvents, clients, users } from '../../db/schema/index.ts';

// The read behind the console's audit log (audit-log.ts).

export interface AuditFilters {
  type?: string | undefined;
  clientId?: string | undefined;
  userId?: string | undefined;
  address?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** Page views (`ops.access`) are left out unless shown, or unless the type filter names exactly them. */
  pageViews?: 'hide' | 'show' | undefined;
  page: number;
  pageSize: number;
}

/** `login` matches every `login.*` type; `login.failure` only itself. */
function typeFilter(type: string): SQL | undefined {
  if (type.includes('.')) return eq(auditEvents.type, type);
  const escaped = type.replace(/[\\%_]/g, (c) => `\\${c}`);
  return or(eq(auditEvents.type, type), like(auditEvents.type, `${escaped}.%`));
}

/** One page of the audit log, newest first, with each row's user email and client name; and how many in all. */
export async function auditPage(db: Db, f: AuditFilters) {
  const hideViews = f.pageViews !== 'show' && f.type !== PAGE_VIEW_AUDIT_TYPE;
  const where = and(
    hideViews ? ne(auditEvents.type, PAGE_VIEW_AUDIT_TYPE) : undefined,
    f.type ? typeFilter(f.type) : undefined,
    f.clientId ? eq(auditEvents.clientId, f.clientId) : undefined,
    f.userId ? eq(auditEvents.userId, f.userId) : undefined,
    f.address ? eq(auditEvents.address, f.address) : undefined,
    f.from ? gte(auditEvents.createdAt, new Date(f.from)) : undefined,
    f.to ? lte(auditEvents.createdAt, new Date(f.to)) : undefined,
  );
  const rows = await db
    .select({
      id: auditEvents.id,
      type: auditEvents.type,
      clientId: auditEvents.clientId,
      clientName: clients.name,
      userId: auditEvents.userId,
      userEmail: users.email,
      address: auditEvents.address,
      details: auditEvents.details,
      createdAt: auditEvents.createdAt,
    })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.userId))
    .leftJoin(clients, eq(clients.id, auditEvents.clientId))
    .where(where)
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(f.pageSize)
    .offset((f.page - 1) * f.pageSize);
  const [counted] = await db.select({ total: count() }).from(auditEvents).where(where);
  return { rows, total: Number(counted?.total ?? 0) };
}
