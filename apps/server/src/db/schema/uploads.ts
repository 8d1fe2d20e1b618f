import type { AppInfo } from '@fullstop/contracts';
import { bigint, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, ownerClientColumn, users } from './accounts.ts';

/** Every accepted mobile build; the client row points at the current one per platform. */
export const uploads = pgTable(
  'uploads',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    platform: text('platform', { enum: ['android', 'ios'] }).notNull(),
    fileName: text('file_name').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    /** The app's name, version and id read at upload; null for builds uploaded before they were read. */
    appInfo: jsonb('app_info').$type<AppInfo>(),
    uploadedBy: text('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAtColumn(),
  },
  (t) => [index('uploads_client_idx').on(t.clientId, t.platform)],
);
