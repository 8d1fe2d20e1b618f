// A provider's preset for one client (issue 43): an operator switches it on and that client's tests may reach the
// provider's test-mode origins (PAYMENT_CATALOGUE[p].origins), nothing more. The generic `test-mode` opens no
// origin, so it has no preset.
import { z } from 'zod';
import { idString } from './common.ts';
import type { PaymentProvider } from './payments.ts';

export const PAYMENT_PRESET_PROVIDERS = ['stripe', 'braintree', 'adyen'] as const satisfies readonly PaymentProvider[];
export type PaymentPresetProvider = (typeof PAYMENT_PRESET_PROVIDERS)[number];

const presetProviderError = `provider must be one of ${PAYMENT_PRESET_PROVIDERS.join(', ')}`;

export const paymentPresetProvider = z.enum(PAYMENT_PRESET_PROVIDERS, {
  error: (issue) => (issue.input === 'test-mode' ? `test-mode opens no origins and has no preset; ${presetProviderError}` : presetProviderError),
});

export const paymentPresetParams = z.object({ id: idString, provider: paymentPresetProvider });

/** One provider's preset for a client, switched on or off. */
export const paymentPreset = z.object({
  provider: paymentPresetProvider,
  label: z.string(),
  /** The provider's page of test cards. */
  docsUrl: z.string(),
  /** What switching it on lets the client's tests reach. */
  origins: z.array(z.string()),
  enabled: z.boolean(),
  /** When it was switched on; null while off. */
  enabledAt: z.string().nullable(),
  /** The e-mail of the operator who switched it on; null while off, or when the operator token (the CLI) did. */
  enabledBy: z.string().nullable(),
});
export type PaymentPreset = z.infer<typeof paymentPreset>;

export const paymentPresetsResponse = z.object({ presets: z.array(paymentPreset) });
export type PaymentPresetsResponse = z.infer<typeof paymentPresetsResponse>;

export const paymentPresetsApiPaths = {
  list: (clientId: string) => `/operator/clients/${encodeURIComponent(clientId)}/payment-providers`,
  one: (clientId: string, provider: PaymentPresetProvider) => `/operator/clients/${encodeURIComponent(clientId)}/payment-providers/${encodeURIComponent(provider)}`,
} as const;
