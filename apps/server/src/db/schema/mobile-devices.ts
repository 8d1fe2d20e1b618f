import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, ownerClientColumn } from './accounts.ts';
import { engineAttempts, engineRuns } from './engine.ts';

// Where a client's mobile UI tests find their devices (issue 28, decision 0084): one provider per client, set by an
// operator. `kind` is text so the cloud providers (browserstack, saucelabs, aws-device-farm) need no migration.

export const mobileDeviceProviders = pgTable(
  'mobile_device_providers',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    kind: text('kind').notNull(),
    /** The Appium endpoint, e.g. `http://10.0.0.5:4723/` or a cloud's hub. */
    url: text('url').notNull(),
    /** A cloud provider's REST API base (its app storage), e.g. `https://api-cloud.browserstack.com`; null for `appium`. */
    apiUrl: text('api_url'),
    username: text('username'),
    /** Sealed (AES-256-GCM under the server key, like API keys and tracker tokens); never shown again. */
    accessKey: text('access_key'),
    /** The key's last 4 characters, for the masked hint. */
    accessKeyHint: text('access_key_hint'),
    /** The origins the key was given for (decision 0076): the hub's, and a cloud's REST API's after a space. */
    accessKeyBoundTo: text('access_key_bound_to'),
    /** AWS Device Farm's project (`arn:aws:devicefarm:us-west-2:<account>:project:<id>`): its uploads and sessions; null for the others. */
    projectArn: text('project_arn'),
    /** AWS Device Farm's desktop browser testing project, where browser tests' cloud cells run (decision 0100); null: none. */
    testGridProjectArn: text('testgrid_project_arn'),
    /** The most device minutes a run's cloud cells use together (decision 0100); null: no cap of ours. */
    cloudMinutesPerRun: integer('cloud_minutes_per_run'),
    /** Capabilities the provider adds to every session. */
    capabilities: jsonb('capabilities').$type<Record<string, unknown>>(),
    createdAt: createdAtColumn(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('mobile_device_providers_client_key').on(t.clientId)],
);

/**
 * A client's build in a cloud provider's app storage (BrowserStack `bs://…`, Sauce Labs `storage:<id>`), per
 * provider account and build sha256: a run uploads the build again only when it changed (or the copy grew old).
 */
export const mobileAppUploads = pgTable(
  'mobile_app_uploads',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    /** `<kind> <REST API origin> <username>`: the storage the id belongs to. */
    storage: text('storage').notNull(),
    sha256: text('sha256').notNull(),
    appId: text('app_id').notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex('mobile_app_uploads_key').on(t.clientId, t.storage, t.sha256)],
);

/**
 * A browser test's cloud cell (decision 0100) while the server lets it have a session on the client's device cloud:
 * from the server's answer to the runner's ask to the cell's release (or the attempt's end). The sum per run is what
 * the client's cap of cloud minutes per run is held to, across the run's tests and the processes that run them.
 */
export const cloudCellSessions = pgTable(
  'cloud_cell_sessions',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    runId: text('run_id')
      .notNull()
      .references(() => engineRuns.id, { onDelete: 'cascade' }),
    attemptId: text('attempt_id')
      .notNull()
      .references(() => engineAttempts.id, { onDelete: 'cascade' }),
    /** The cell's place among its test's cloud devices. */
    cellIndex: integer('cell_index').notNull(),
    /** "Safari on iPhone 15 (iOS 18)". */
    cell: text('cell').notNull(),
    provider: text('provider').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('cloud_cell_sessions_run_idx').on(t.runId), index('cloud_cell_sessions_attempt_idx').on(t.attemptId)],
);
