import { defineKind } from '../../lib/kind-facts.ts';

// Heavier: one Chromium, its pages one after another, axe's analysis in each (the demo's alone: 0.6-1.1 cores).
export const facts = defineKind(
  'accessibility',
  { title: 'accessibility test', label: 'Accessibility', timeLimitSeconds: 300, typicalSeconds: 8, weight: 1, engines: ['chromium', 'playwright', 'axe'] },
  () => ({ kind: 'accessibility', pages: [] }),
);

// What a run of this kind returns as its summary: its member of RunnerSummary.
declare module '../../types.ts' {
  interface KindSummaries {
    accessibility: {
      kind: 'accessibility';
      pages: {
        url: string;
        passed: boolean;
        violationsByImpact: Record<string, number>;
        violations?: {
          id: string;
          impact: string;
          help: string;
          nodes: number;
          /** CSS selectors of the affected elements, the rule's tags (e.g. wcag2aa) and its help page. */
          targets?: string[];
          tags?: string[];
          helpUrl?: string;
        }[];
        error?: string;
      }[];
    };
  }
}
