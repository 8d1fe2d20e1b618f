import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, ownerClientColumn, teamRoles, users } from './accounts.ts';

/**
 * An owner's invitation of a person to their client's team. The link's token is kept as its hash only; it works
 * once (`acceptedAt`) and until `expiresAt`. Cancelling an invitation deletes its row.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    /** Lower-cased, like users.email. */
    email: text('email').notNull(),
    teamRole: text('team_role', { enum: teamRoles }).notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex('invitations_token_hash_key').on(t.tokenHash), index('invitations_client_idx').on(t.clientId, t.createdAt)],
);
