import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';
import { clients, createdAtColumn, idColumn, users } from './accounts.ts';

/** Every accepted mobile build; the client row points at the current one per platform. */
export const uploads = pgTable(
  'uploads',
  {
    id: idColumn(),
    clientId: text('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    platform: text('platform', { enum: ['android', 'ios'] }).notNull(),
    fileName: text('file_name').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    uploadedBy: text('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAtColumn(),
  },
  (t) => [index('uploads_client_idx').on(t.clientId, t.platform)],
);
