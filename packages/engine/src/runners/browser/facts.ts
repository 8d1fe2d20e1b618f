import { casesKind } from '../../lib/kind-facts.ts';
import type { CasesSummary } from '../../types.ts';
import { enginesIn } from './matrix.ts';

// Heavier: Playwright's runner and the policy proxy, and per Playwright worker (ENGINE_BROWSER_WORKERS) a worker
// process and its Chromium: one core a test with one worker (the demo's browser tests alone kept 0.9-1.4 busy).
export const facts = casesKind('browser', {
  title: 'browser test',
  label: 'Browser tests',
  timeLimitSeconds: 600,
  typicalSeconds: 15,
  weight: 0.25,
  weightPerWorker: 0.75,
  engines: ['chromium', 'firefox', 'webkit', 'playwright', 'axe'],
  // Firefox and WebKit only for a test whose `engines` name them; Chromium only for one whose do; axe for page checks.
  enginesFor: (options) => [...enginesIn(options), 'playwright', ...(Array.isArray(options.pages) ? (['axe'] as const) : [])],
});

// What a run of this kind returns as its summary: its member of RunnerSummary.
declare module '../../types.ts' {
  interface KindSummaries {
    browser: CasesSummary<'browser'>;
  }
}
