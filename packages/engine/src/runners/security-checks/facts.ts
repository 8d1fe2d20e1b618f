import { casesKind } from '../../lib/kind-facts.ts';
import type { CasesSummary } from '../../types.ts';

// Light: a few requests and header checks.
export const facts = casesKind('security-checks', { title: 'security check', label: 'Security checks', timeLimitSeconds: 120, typicalSeconds: 1, weight: 0.25 });

// What a run of this kind returns as its summary: its member of RunnerSummary.
declare module '../../types.ts' {
  interface KindSummaries {
    'security-checks': CasesSummary<'security-checks'>;
  }
}
