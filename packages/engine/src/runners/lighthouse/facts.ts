import { defineKind } from '../../lib/kind-facts.ts';

// Typically ~20 s: one Chromium per page on 2 cores. Alone it keeps under a core busy (0.4-0.8 on the demo), yet
// it is the heaviest, and one at a time on a machine: its figures measure the page on this machine's CPU, and a
// browser test beside it on 2 cores lost Lighthouse its trace (NO_NAVSTART) in 3 of 21 demo run-alls. On 2 cores
// only light tests run beside it.
export const facts = defineKind(
  'lighthouse',
  { title: 'Lighthouse test', label: 'Lighthouse audit', timeLimitSeconds: 300, typicalSeconds: 20, weight: 1.5, onePerMachine: true, engines: ['chromium', 'lighthouse'] },
  () => ({ kind: 'lighthouse', pages: [] }),
);

// What a run of this kind returns as its summary: its member of RunnerSummary.
declare module '../../types.ts' {
  interface KindSummaries {
    lighthouse: {
      kind: 'lighthouse';
      /** Scores 0-100 keyed performance, accessibility, best-practices, seo. */
      pages: {
        url: string;
        scores: Record<string, number>;
        passed?: boolean;
        failedThresholds?: string[];
        error?: string;
        /** The top savings Lighthouse suggests. */
        opportunities?: { title: string; savingsMs?: number; savingsBytes?: number }[];
        /** Lighthouse lost its trace on the first audit (its code): the scores are a second audit's. */
        auditedAgain?: string;
      }[];
    };
  }
}
