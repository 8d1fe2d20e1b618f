import type { VisualSummary } from '@fullstop/contracts';
import { defineKind } from '../../lib/kind-facts.ts';
import { enginesIn } from '../browser/matrix.ts';

// Heavier, like the accessibility test: one browser per engine and network, its pages one after another, each shot
// at least twice (until two in a row are alike) and compared in this process (pixelmatch: ~0.1 CPU-s a desktop page).
export const facts = defineKind(
  'visual',
  {
    title: 'visual test',
    label: 'Visual regression',
    timeLimitSeconds: 600,
    typicalSeconds: 12,
    weight: 1,
    engines: ['chromium', 'firefox', 'playwright'],
    // Firefox only for a test whose `engines` name it; Chromium only for one whose do.
    enginesFor: (options) => [...enginesIn(options), 'playwright'],
  },
  () => ({ kind: 'visual', tolerance: 0, shots: [] }),
);

// What a run of this kind returns as its summary: its member of RunnerSummary, the shape of @fullstop/contracts.
declare module '../../types.ts' {
  interface KindSummaries {
    visual: VisualSummary;
  }
}
