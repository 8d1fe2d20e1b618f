import { defineKind } from '../../lib/kind-facts.ts';
import type { Finding } from '../../types.ts';

export const facts = defineKind(
  'security-scan',
  // wapiti runs the active attacks only: a scan with `active: false` (passive checks only) needs none.
  { timeLimitSeconds: 900, typicalSeconds: 10, engines: ['wapiti'], enginesFor: (options) => (options.active === false ? [] : ['wapiti']) },
  () => ({ kind: 'security-scan', findings: [] }),
);

// What a run of this kind returns as its summary: its member of RunnerSummary.
declare module '../../types.ts' {
  interface KindSummaries {
    'security-scan': { kind: 'security-scan'; findings: Finding[] };
  }
}
