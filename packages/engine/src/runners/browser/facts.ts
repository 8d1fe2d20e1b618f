import { casesKind } from '../../lib/kind-facts.ts';
import type { CasesSummary } from '../../types.ts';

export const facts = casesKind('browser', { timeLimitSeconds: 600, typicalSeconds: 15, engines: ['chromium', 'playwright'] });

// What a run of this kind returns as its summary: its member of RunnerSummary.
declare module '../../types.ts' {
  interface KindSummaries {
    browser: CasesSummary<'browser'>;
  }
}
