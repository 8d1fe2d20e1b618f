import type { IntegrationKind } from '@fullstop/contracts';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, ownerClientColumn } from './accounts.ts';
import { bugs } from './bugs.ts';

// Bug export to the client's tracker (issue 9): its connections, the deliveries to them, and the issues made there.

/** One connection per kind and client. `secret` is sealed (AES-256-GCM under the server key, like API keys). */
export const integrations = pgTable(
  'integrations',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    kind: text('kind').$type<IntegrationKind>().notNull(),
    config: jsonb('config').$type<Record<string, string>>().notNull(),
    secret: text('secret').notNull(),
    /** The secret's last 4 characters, for the masked hint. */
    secretHint: text('secret_hint').notNull(),
    /**
     * Where the secret may be sent: the origin and account it was given for ("jira https://acme.atlassian.net
     * me@acme.com"). Null on rows older than decision 0076 (bound to their config as it stands).
     */
    secretBoundTo: text('secret_bound_to'),
    createdAt: createdAtColumn(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('integrations_client_kind_key').on(t.clientId, t.kind)],
);

/** One thing to send to a tracker, retried with backoff until delivered or given up; `payload` is what to send. */
export const integrationDeliveries = pgTable(
  'integration_deliveries',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    kind: text('kind').$type<IntegrationKind>().notNull(),
    bugId: text('bug_id').references(() => bugs.id, { onDelete: 'set null' }),
    event: text('event').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** A process working it holds it until then. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    statusCode: integer('status_code'),
    error: text('error'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    createdAt: createdAtColumn(),
  },
  (t) => [
    index('integration_deliveries_client_idx').on(t.clientId, t.createdAt),
    index('integration_deliveries_due_idx').on(t.status, t.nextAttemptAt),
  ],
);

/** Every attempt of a delivery: what the tracker answered, or why it could not be reached. */
export const integrationAttempts = pgTable(
  'integration_attempts',
  {
    id: idColumn(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => integrationDeliveries.id, { onDelete: 'cascade' }),
    statusCode: integer('status_code'),
    error: text('error'),
    createdAt: createdAtColumn(),
  },
  (t) => [index('integration_attempts_delivery_idx').on(t.deliveryId)],
);

/** The issue a bug became in a tracker: "#12" on GitHub, "ACME-7" on Jira. */
export const bugExports = pgTable(
  'bug_exports',
  {
    id: idColumn(),
    bugId: text('bug_id')
      .notNull()
      .references(() => bugs.id, { onDelete: 'cascade' }),
    clientId: ownerClientColumn(),
    kind: text('kind').$type<IntegrationKind>().notNull(),
    reference: text('reference').notNull(),
    url: text('url'),
    /** The tracker's own id: the GitHub issue number, the Jira issue key. */
    externalId: text('external_id').notNull(),
    /** What the tracker said last time it was read (open/closed, a Jira status category). */
    remoteState: text('remote_state'),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex('bug_exports_bug_kind_key').on(t.bugId, t.kind), index('bug_exports_client_idx').on(t.clientId)],
);
