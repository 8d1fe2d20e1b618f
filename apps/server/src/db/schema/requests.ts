import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, ownerClientColumn, users } from './accounts.ts';

export const clientRequestKinds = ['new-test', 'test-change', 'manual-test', 'retest', 'question'] as const;
export const clientRequestStatuses = ['new', 'in-progress', 'done', 'declined'] as const;
export const requestSides = ['client', 'operator'] as const;

/** What a client asks the QA team for from the portal: a new test, a change to a test, a manual test, a retest, a question. */
export const clientRequests = pgTable(
  'client_requests',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    kind: text('kind', { enum: clientRequestKinds }).notNull(),
    title: text('title').notNull(),
    details: text('details').notNull(),
    status: text('status', { enum: clientRequestStatuses }).notNull().default('new'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAtColumn(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last reply, file or status change: the console's inbox is ordered by it. */
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    /** When each side last opened the request: what came from the other side after it is unread. */
    clientReadAt: timestamp('client_read_at', { withTimezone: true }),
    operatorReadAt: timestamp('operator_read_at', { withTimezone: true }),
  },
  (t) => [index('client_requests_client_idx').on(t.clientId, t.createdAt), index('client_requests_activity_idx').on(t.lastActivityAt)],
);

/** A request's thread: replies from both sides, oldest first. */
export const requestMessages = pgTable(
  'request_messages',
  {
    id: idColumn(),
    requestId: text('request_id')
      .notNull()
      .references(() => clientRequests.id, { onDelete: 'cascade' }),
    side: text('side', { enum: requestSides }).notNull(),
    authorId: text('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** The author's name as it was when they wrote. */
    authorName: text('author_name').notNull(),
    body: text('body').notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [index('request_messages_request_idx').on(t.requestId, t.createdAt)],
);

/** Files sent with a request or a reply; the bytes are in DATA_DIR/requests/<request id>/<attachment id>. */
export const requestAttachments = pgTable(
  'request_attachments',
  {
    id: idColumn(),
    requestId: text('request_id')
      .notNull()
      .references(() => clientRequests.id, { onDelete: 'cascade' }),
    messageId: text('message_id').references(() => requestMessages.id, { onDelete: 'cascade' }),
    side: text('side', { enum: requestSides }).notNull(),
    uploadedBy: text('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [index('request_attachments_request_idx').on(t.requestId)],
);
