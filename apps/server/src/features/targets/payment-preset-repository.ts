import type { PaymentPresetProvider } from '@fullstop/contracts';
import { eq } from 'drizzle-orm';
import { deleteClientRows } from '../../db/client-rows.ts';
import type { Db } from '../../db/database.ts';
import { paymentPresets, users } from '../../db/schema/index.ts';

// The payment providers' presets switched on per client (payment_presets): a row while on, none while off.

export interface PaymentPresetRow {
  provider: PaymentPresetProvider;
  enabledAt: Date;
  /** The operator's e-mail; null for the operator token, or a user since deleted. */
  enabledBy: string | null;
}

export async function listPaymentPresets(db: Db, clientId: string): Promise<PaymentPresetRow[]> {
  return db
    .select({ provider: paymentPresets.provider, enabledAt: paymentPresets.enabledAt, enabledBy: users.email })
    .from(paymentPresets)
    .leftJoin(users, eq(users.id, paymentPresets.enabledBy))
    .where(eq(paymentPresets.clientId, clientId));
}

/** False when it was on already: who switched it on and when stay as they were. */
export async function enablePaymentPreset(db: Db, clientId: string, provider: PaymentPresetProvider, enabledBy: string | null): Promise<boolean> {
  const inserted = await db.insert(paymentPresets).values({ clientId, provider, enabledBy }).onConflictDoNothing().returning({ id: paymentPresets.id });
  return inserted.length > 0;
}

/** False when it was not on. */
export async function disablePaymentPreset(db: Db, clientId: string, provider: PaymentPresetProvider): Promise<boolean> {
  return deleteClientRows(db, paymentPresets, clientId, eq(paymentPresets.provider, provider));
}
