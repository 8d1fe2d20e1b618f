import { jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, ownerClientColumn } from './accounts.ts';

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
