import type { PaymentPresetProvider } from '@fullstop/contracts';
import { pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, ownerClientColumn } from './accounts.ts';

// A payment provider's preset switched on for one client (issue 43): while its row exists, the provider's test-mode
// origins are open to that client's tests. Switching it off deletes the row; the audit log keeps the history.

export const paymentPresets = pgTable(
  'payment_presets',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    provider: text('provider').$type<PaymentPresetProvider>().notNull(),
    /** The operator's user id; null for the operator token. */
    enabledBy: text('enabled_by'),
    enabledAt: timestamp('enabled_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('payment_presets_client_provider_key').on(t.clientId, t.provider)],
);
