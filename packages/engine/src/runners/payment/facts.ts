import type { PaymentProvider } from '@fullstop/contracts';
import { casesKind } from '../../lib/kind-facts.ts';
import type { CasesSummary } from '../../types.ts';
import { enginesIn } from '../browser/matrix.ts';

// Like the visual test: one browser per cell, cells one after another, a fresh context per outcome (eight by
// default), each a few pages of a checkout and its provider's frames.
export const facts = casesKind('payment', {
  title: 'payment test',
  label: 'Payments',
  timeLimitSeconds: 600,
  typicalSeconds: 20,
  weight: 1,
  engines: ['chromium', 'firefox', 'playwright'],
  // Firefox only for a test whose `engines` name it; Chromium only for one whose do.
  enginesFor: (options) => [...enginesIn(options), 'playwright'],
});

/**
 * What a run of this kind returns as its summary: a case per outcome (per cell, with several), named by the outcome
 * (`3ds-passed`, `3ds-passed [firefox/desktop]`), and the provider whose cards were typed.
 */
export type PaymentSummary = CasesSummary<'payment'> & { provider?: PaymentProvider };

declare module '../../types.ts' {
  interface KindSummaries {
    payment: PaymentSummary;
  }
}
