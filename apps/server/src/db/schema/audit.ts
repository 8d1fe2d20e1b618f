import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn } from './accounts.ts';

/** Security events: logins, failures, throttling, key changes, uploads, password resets. Never holds secrets. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: idColumn(),
    type: text('type').notNull(),
    clientId: text('client_id'),
    userId: text('user_id'),
    address: text('address'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    index('audit_events_client_idx').on(t.clientId, t.createdAt),
    // The console's audit log, newest first with no filter.
    index('audit_events_created_idx').on(t.createdAt),
  ],
);
