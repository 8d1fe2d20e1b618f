import type { AlertChannelKind, AlertRule } from '@fullstop/contracts';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, ownerClientColumn } from './accounts.ts';
import { engineRuns } from './engine.ts';

// Alerts (issue 10): the client's channels, the runs already evaluated, the alerts raised, and their deliveries.

const ts = (name: string) => timestamp(name, { withTimezone: true });

/** Where a client is told: an e-mail address, a Slack or Teams incoming webhook, or a signed generic webhook. */
export const alertChannels = pgTable(
  'alert_channels',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    kind: text('kind').$type<AlertChannelKind>().notNull(),
    name: text('name').notNull(),
    /** The e-mail address, the generic webhook's URL, or for Slack and Teams only the URL's hint (`https://hooks.slack.com/…/abcd`). */
    target: text('target').notNull(),
    /** Slack and Teams: the webhook URL, a credential, sealed like `secret` (decision 0076). */
    targetSealed: text('target_sealed'),
    /** Generic webhooks: the signing secret, sealed (AES-256-GCM under the server key, like API keys). */
    secret: text('secret'),
    secretHint: text('secret_hint'),
    enabled: boolean('enabled').notNull().default(true),
    rules: jsonb('rules').$type<AlertRule[]>().notNull(),
    /** E-mail: when the address's owner opened the confirmation link; nothing is sent to it before. */
    confirmedAt: ts('confirmed_at'),
    /** E-mail: the pending confirmation link's token, as its hash only; it works once, until `confirmExpiresAt`. */
    confirmTokenHash: text('confirm_token_hash'),
    confirmExpiresAt: ts('confirm_expires_at'),
    confirmSentAt: ts('confirm_sent_at'),
    createdAt: createdAtColumn(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('alert_channels_client_idx').on(t.clientId), uniqueIndex('alert_channels_confirm_token_key').on(t.confirmTokenHash)],
);

/** A finished run whose alerts were evaluated: one row per run, written in the evaluation's own transaction. */
export const alertRunEvaluations = pgTable('alert_run_evaluations', {
  runId: text('run_id')
    .primaryKey()
    .references(() => engineRuns.id, { onDelete: 'cascade' }),
  clientId: ownerClientColumn(),
  alertsEvaluatedAt: ts('alerts_evaluated_at').notNull().defaultNow(),
});

/** One alert raised: a rule, what it is about (a test's name, a rule id, the run), and the run it happened in. */
export const alertEvents = pgTable(
  'alert_events',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    rule: text('rule').$type<AlertRule>().notNull(),
    /** The test's name, "<test> <rule id>" for a security alert, "run" for a failed run. */
    subject: text('subject').notNull(),
    /** failing, recovered, failed, open, missed. */
    state: text('state').notNull(),
    lastRunId: text('last_run_id').notNull(),
    title: text('title').notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex('alert_events_dedup_key').on(t.clientId, t.rule, t.subject, t.lastRunId)],
);

/** One message to one channel, retried with backoff until delivered or given up; `message` is what is sent. */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    channelId: text('channel_id').references(() => alertChannels.id, { onDelete: 'set null' }),
    channelName: text('channel_name').notNull(),
    kind: text('kind').$type<AlertChannelKind>().notNull(),
    eventId: text('event_id').references(() => alertEvents.id, { onDelete: 'cascade' }),
    rule: text('rule').notNull(),
    title: text('title').notNull(),
    runId: text('run_id'),
    message: jsonb('message').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    lockedUntil: ts('locked_until'),
    statusCode: integer('status_code'),
    error: text('error'),
    lastAttemptAt: ts('last_attempt_at'),
    createdAt: createdAtColumn(),
  },
  (t) => [index('alert_deliveries_client_idx').on(t.clientId, t.createdAt), index('alert_deliveries_due_idx').on(t.status, t.nextAttemptAt)],
);

/** Every attempt of an alert delivery: what the channel answered, or why it could not be reached. */
export const alertAttempts = pgTable(
  'alert_attempts',
  {
    id: idColumn(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => alertDeliveries.id, { onDelete: 'cascade' }),
    statusCode: integer('status_code'),
    error: text('error'),
    createdAt: createdAtColumn(),
  },
  (t) => [index('alert_attempts_delivery_idx').on(t.deliveryId)],
);
