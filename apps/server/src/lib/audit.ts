import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import { insertAuditEvent } from './audit-repository.ts';

/**
 * What happened, as `area.action`. The known ones are listed; features add theirs in the same shape (`bug.created`,
 * `ops.viewed`, `invitation.sent` ...).
 */
export type AuditType =
  | `${string}.${string}`
  | 'login.success'
  | 'login.failure'
  | 'login.throttled'
  | 'token.reuse'
  | 'logout'
  | 'password.reset-requested'
  | 'password.reset'
  | 'password.changed'
  | 'api-key.generated'
  | 'api-key.revealed'
  | 'upload.accepted'
  | 'upload.rejected'
  | 'client.created'
  | 'user.created'
  | 'secret.set'
  | 'secret.deleted';

export interface AuditEvent {
  type: AuditType;
  clientId?: string | null;
  userId?: string | null;
  address?: string | null;
  details?: Record<string, unknown>;
}

/**
 * Records a security event. A failure to record is logged and never fails the request it describes, unless
 * `required` (an action that must not happen unrecorded, such as revealing a key): then it is thrown.
 */
export async function audit(db: Db, log: FastifyBaseLogger, event: AuditEvent, options: { required?: boolean } = {}): Promise<void> {
  try {
    await insertAuditEvent(db, {
      type: event.type,
      clientId: event.clientId ?? null,
      userId: event.userId ?? null,
      address: event.address ?? null,
      details: event.details ?? null,
    });
  } catch (err) {
    log.error({ err, event: event.type }, 'could not record an audit event');
    if (options.required) throw err;
  }
}
