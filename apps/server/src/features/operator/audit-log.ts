import type { OpsAuditPage } from '@fullstop/contracts';
import type { Db } from '../../db/database.ts';
import { type AuditFilters, auditPage } from './audit-log-repository.ts';

/** The audit log, newest first, with each row's user email and client name. */
export async function auditLog(db: Db, f: AuditFilters): Promise<OpsAuditPage> {
  const { rows, total } = await auditPage(db, f);
  return {
    events: rows.map((r) => ({ ...r, details: r.details ?? null, createdAt: r.createdAt.toISOString() })),
    total,
    page: f.page,
    pageSize: f.pageSize,
  };
}
