import { defineKind } from '../../lib/kind-facts.ts';

// Typically ~20 s: one Chromium per page on 2 cores. Alone it keeps half a core busy (0.46-0.49 on the demo's home
// page, 14-15 s): it weighs that, rounded to a quarter (decision 0112; 0.75 when it kept 0.80-0.86 busy, 0088). One at
// a time on a machine, and first for the CPU (`measuresCpuTime`: its attempt's CPU cgroup weighs more than other
// attempts', decision 0087), because its figures measure the page on this machine's CPU: that share, not a larger
// weight, keeps its figures when a browser test and a light test run beside it on 2 cores (it weighed 1.5 before the
// shares, when a browser test beside it lost it its trace in 3 of 21 demo run-alls; then 1).
export const facts = defineKind(
  'lighthouse',
  { title: 'Lighthouse test', label: 'Lighthouse audit', timeLimitSeconds: 300, typicalSeconds: 20, weight: 0.5, onePerMachine: true, measuresCpuTime: true, engines: ['chromium', 'lighthouse'] },
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
