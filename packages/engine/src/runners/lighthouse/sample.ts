import { sampleReport } from '../../reporters/sample-report.ts';
import type { RunReport } from '../../reporters/types.ts';

/** Lighthouse scores of two pages, one below its thresholds, with its opportunities. */
export function sample(): RunReport {
  return sampleReport({
    kind: 'lighthouse',
    testName: 'Lighthouse: home',
    status: 'failed',
    summary: {
      kind: 'lighthouse',
      pages: [
        {
          url: 'https://shop.acme.test/',
          scores: { performance: 42, accessibility: 91, 'best-practices': 78, seo: 100 },
          passed: false,
          failedThresholds: ['performance 42 < 80'],
          opportunities: [
            { title: 'Properly size images', savingsMs: 1_850, savingsBytes: 1_420_000 },
            { title: 'Eliminate render-blocking resources', savingsMs: 640 },
            { title: 'Reduce unused JavaScript', savingsMs: 450, savingsBytes: 212_000 },
          ],
        },
        { url: 'https://shop.acme.test/about', scores: { performance: 96, accessibility: 100, 'best-practices': 96, seo: 92 }, passed: true },
      ],
    },
  });
}
