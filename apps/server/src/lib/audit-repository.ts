import type { Db } from '../db/database.ts';
import { auditEvents } from '../db/schema/index.ts';

// The audit log's one write (audit.ts); the console reads it in features/operator/audit-log-repository.ts.

export async function insertAuditEvent(db: Db, row: typeof auditEvents.$inferInsert): Promise<void> {
  await db.insert(auditEvents).values(row);
}
