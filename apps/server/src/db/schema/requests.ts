import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, ownerClientColumn, users } from './accounts.ts';

export const clientRequestKinds = ['new-feature', 'manual-test', 'retest'] as const;
export const clientRequestStatuses = ['open', 'in-progress', 'done', 'declined'] as const;

/** What a client asks the QA team for from the portal: a new feature to test, a manual test, a free retest. */
export const clientRequests = pgTable(
  'client_requests',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    kind: text('kind', { enum: clientRequestKinds }).notNull(),
    title: text('title').notNull(),
    details: text('details').notNull(),
    status: text('status', { enum: clientRequestStatuses }).notNull().default('open'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAtColumn(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('client_requests_client_idx').on(t.clientId, t.createdAt)],
);
