import { casesKind } from '../../lib/kind-facts.ts';
import type { CasesSummary } from '../../types.ts';

// Light: a run waits on the network; what it costs is its runner process's start.
export const facts = casesKind('api', { title: 'API test', label: 'API tests', timeLimitSeconds: 120, typicalSeconds: 1, weight: 0.25 });

// What a run of this kind returns as its summary: its member of RunnerSummary.
declare module '../../types.ts' {
  interface KindSummaries {
    api: CasesSummary<'api'>;
  }
}
