import { defineKind } from '../../lib/kind-facts.ts';

// Typically ~20 s: one Chromium per page on 2 cores.
export const facts = defineKind('lighthouse', { timeLimitSeconds: 300, typicalSeconds: 20, engines: ['chromium', 'lighthouse'] }, () => ({ kind: 'lighthouse', pages: [] }));

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
      }[];
    };
  }
}
