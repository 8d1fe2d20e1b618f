import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, ownerClientColumn, ownerUserColumn } from './accounts.ts';

/**
 * A client's API key. Never stored in plain text: `lookupHash` is a keyed HMAC for finding the key,
 * `encrypted` (AES-256-GCM under the server key) lets the portal show it again. A replaced key is deleted.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    lookupHash: text('lookup_hash').notNull(),
    encrypted: text('encrypted').notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex('api_keys_lookup_key').on(t.lookupHash), uniqueIndex('api_keys_client_key').on(t.clientId)],
);

/**
 * A secret of a client's suite login (decision 0060), e.g. the password its tests log in with. Sealed like an
 * API key (AES-256-GCM under the server key); only the runner of an attempt ever sees the value.
 */
export const suiteSecrets = pgTable(
  'suite_secrets',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    name: text('name').notNull(),
    encrypted: text('encrypted').notNull(),
    createdAt: createdAtColumn(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('suite_secrets_client_name_key').on(t.clientId, t.name)],
);

/**
 * A login session: one per login, the refresh-token family's id and the access token's `sid` claim. Revoking it
 * (logout, password reset, a reused refresh token) ends every access and refresh token of that login at once.
 */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: idColumn(),
    userId: ownerUserColumn(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAtColumn(),
  },
  (t) => [index('auth_sessions_user_idx').on(t.userId)],
);

/** A single-use token kept as its hash only: found by the hash, good until it expires or is used. */
const singleUseTokenColumns = () => ({
  tokenHash: text('token_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/** Refresh tokens, one row per issued token; a login starts a family, every refresh adds one to it. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: idColumn(),
    familyId: text('family_id').notNull(),
    userId: ownerUserColumn(),
    ...singleUseTokenColumns(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash), index('refresh_tokens_family_idx').on(t.familyId)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: idColumn(),
    userId: ownerUserColumn(),
    ...singleUseTokenColumns(),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex('password_reset_tokens_hash_key').on(t.tokenHash)],
);

/**
 * Counters in a fixed window, shared by every API process: failed logins ('account:<email>', 'address:<ip>')
 * and password-reset mails ('reset-account:<email>', 'reset-address:<ip>'). Each key has its own window length.
 */
export const loginFailures = pgTable('login_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
});
