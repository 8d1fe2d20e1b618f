import { PAYMENT_CATALOGUE, PAYMENT_PRESET_PROVIDERS, type PaymentPreset } from '@fullstop/contracts';
import type { Db } from '../../db/database.ts';
import { listPaymentPresets } from './payment-preset-repository.ts';

/** Every provider that has a preset, in the catalogue's order, each saying whether it is on for the client. */
export async function paymentPresetsOf(db: Db, clientId: string): Promise<PaymentPreset[]> {
  const on = new Map((await listPaymentPresets(db, clientId)).map((row) => [row.provider, row]));
  return PAYMENT_PRESET_PROVIDERS.map((provider) => {
    const { label, docsUrl, origins } = PAYMENT_CATALOGUE[provider];
    const row = on.get(provider);
    return { provider, label, docsUrl, origins: [...origins], enabled: row !== undefined, enabledAt: row?.enabledAt.toISOString() ?? null, enabledBy: row?.enabledBy ?? null };
  });
}

/** The origins the client's switched-on presets open, from the catalogue (a provider's list changes with it). */
export async function paymentPresetOrigins(db: Db, clientId: string): Promise<string[]> {
  return (await listPaymentPresets(db, clientId)).flatMap((row) => PAYMENT_CATALOGUE[row.provider]?.origins ?? []);
}
