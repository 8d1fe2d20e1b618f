import { pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients, createdAtColumn } from './accounts.ts';

/**
 * A client's status badge (GET /badge/<token>.svg). The token is looked up by its keyed hash; the sealed copy
 * (AES-GCM under the server key, like API keys) lets the portal show the address again. One badge per client:
 * regenerating replaces the row, so the old address is gone at once.
 */
export const clientBadges = pgTable(
  'client_badges',
  {
    clientId: text('client_id')
      .primaryKey()
      .references(() => clients.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    tokenSealed: text('token_sealed').notNull(),
    createdAt: createdAtColumn(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('client_badges_token_hash_key').on(t.tokenHash)],
);
