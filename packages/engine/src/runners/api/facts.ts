import { casesKind } from '../../lib/kind-facts.ts';
import type { CasesSummary } from '../../types.ts';

export const facts = casesKind('api', { timeLimitSeconds: 120, typicalSeconds: 1 });

// What a run of this kind returns as its summary: its member of RunnerSummary.
declare module '../../types.ts' {
  interface KindSummaries {
    api: CasesSummary<'api'>;
  }
}
