import { defineKind } from '../../lib/kind-facts.ts';
import type { CaseResult } from '../../types.ts';
import { enginesIn } from '../browser/matrix.ts';

// Heavier: one Chromium, its pages one after another, axe's analysis in each (the demo's alone: 0.6-1.1 cores).
// A matrix adds no weight (lib/cell-weight.ts, decision 0086): cells run one after another, a browser each.
export const facts = defineKind(
  'accessibility',
  {
    title: 'accessibility test',
    label: 'Accessibility',
    timeLimitSeconds: 300,
    typicalSeconds: 8,
    weight: 1,
    engines: ['chromium', 'firefox', 'playwright', 'axe'],
    // Firefox only for a test whose `engines` name it; Chromium only for one whose do.
    enginesFor: (options) => [...enginesIn(options), 'playwright', 'axe'],
  },
  () => ({ kind: 'accessibility', pages: [] }),
);

// What a run of this kind returns as its summary: its member of RunnerSummary.
declare module '../../types.ts' {
  interface KindSummaries {
    accessibility: {
      kind: 'accessibility';
      pages: {
        url: string;
        /** The cell (`<engine>/<device>[/<network>]`) the page was tested in, when its test runs on several (decision 0078). */
        cell?: string;
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
        /** axe ran when the wait for ready (lib/page-ready.ts, decision 0089) reached its maximum: why the page was not ready. */
        notReady?: string;
        error?: string;
      }[];
      /**
       * With several cells: each page in each cell as a case named `<url> [<cell>]`, as a browser test's cases, so
       * history and the portal's matrix show it. Absent for a test on one cell.
       */
      cases?: CaseResult[];
    };
  }
}
