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
    username: text('username'),
    /** Sealed (AES-256-GCM under the server key, like API keys and tracker tokens); never shown again. */
    accessKey: text('access_key'),
    /** The key's last 4 characters, for the masked hint. */
    accessKeyHint: text('access_key_hint'),
    /** The endpoint's origin the key was given for (decision 0076): the key is sent nowhere else. */
    accessKeyBoundTo: text('access_key_bound_to'),
    /** Capabilities the provider adds to every session. */
    capabilities: jsonb('capabilities').$type<Record<string, unknown>>(),
    createdAt: createdAtColumn(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('mobile_device_providers_client_key').on(t.clientId)],
);
