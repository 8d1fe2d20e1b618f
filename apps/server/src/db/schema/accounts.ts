import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Text ids (random UUIDs): an id of any shape in a URL is simply not found, never a database type error. */
export const idColumn = () =>
  text('id')
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID());
export const createdAtColumn = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A company that bought the service (the spec's client profile). */
export const clients = pgTable('clients', {
  id: idColumn(),
  name: text('name').notNull(),
  website: text('website').notNull(),
  androidAppPath: text('android_app_path'),
  androidAppUploaded: timestamp('android_app_uploaded', { withTimezone: true }),
  iosAppPath: text('ios_app_path'),
  iosAppUploaded: timestamp('ios_app_uploaded', { withTimezone: true }),
  /** Days its runs and builds are kept (features/retention); null: RETENTION_DEFAULT_DAYS. */
  retentionDays: integer('retention_days'),
  createdAt: createdAtColumn(),
});

export const userRoles = ['client', 'operator'] as const;
export type UserRole = (typeof userRoles)[number];

/** A client user's place in their team: owners manage it, members work, viewers only read. Null for operators. */
export const teamRoles = ['owner', 'member', 'viewer'] as const;
export type TeamRole = (typeof teamRoles)[number];

/** A person who logs in: a client's user (clientId set) or an operator (clientId null). */
export const users = pgTable(
  'users',
  {
    id: idColumn(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: userRoles }).notNull().default('client'),
    clientId: text('client_id').references(() => clients.id, { onDelete: 'cascade' }),
    teamRole: text('team_role', { enum: teamRoles }),
    createdAt: createdAtColumn(),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
  },
  (t) => [
    // Emails are stored lower-cased, so a plain unique index is case-insensitive in practice.
    uniqueIndex('users_email_key').on(t.email),
    index('users_client_idx').on(t.clientId),
    check('users_client_role_check', sql`${t.role} = 'operator' OR ${t.clientId} IS NOT NULL`),
    // Every client user has a team role; an operator has none.
    check('users_team_role_check', sql`(${t.role} = 'client') = (${t.teamRole} IS NOT NULL)`),
  ],
);

/** A row that belongs to a client and goes with it. */
export const ownerClientColumn = () =>
  text('client_id')
    .notNull()
    .references(() => clients.id, { onDelete: 'cascade' });

/** A row that belongs to a user and goes with it. */
export const ownerUserColumn = () =>
  text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
