import { defineKind } from '../../lib/kind-facts.ts';
import type { Finding } from '../../types.ts';

export const facts = defineKind('security-scan', { timeLimitSeconds: 900, typicalSeconds: 10 }, () => ({ kind: 'security-scan', findings: [] }));

// What a run of this kind returns as its summary: its member of RunnerSummary.
declare module '../../types.ts' {
  interface KindSummaries {
    'security-scan': { kind: 'security-scan'; findings: Finding[] };
  }
}
