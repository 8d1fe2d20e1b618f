import { z } from 'zod';
import { testInput } from '../../lib/options.ts';

/** Lighthouse takes ~9 s and ~290 MB per page here; past this, a page is given up. */
export const LIGHTHOUSE_PAGE_TIMEOUT_MS = 120_000;
export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

const score = z.number().min(0).max(100).optional();

export const lighthouseInput = testInput(
  {
    pages: z.array(z.string().min(1)).min(1).max(20).default(['/']),
    formFactor: z.enum(['desktop', 'mobile']).default('desktop'),
  },
  /** Minimum score (0-100) per category, checked on every page. */
  z
    .object({
      minPerformance: score,
      minAccessibility: score,
      minBestPractices: score,
      minSeo: score,
    })
    .strict(),
);
export type LighthouseThresholds = z.output<typeof lighthouseInput>['thresholds'];

export const THRESHOLD_CATEGORY: Record<keyof LighthouseThresholds, (typeof CATEGORIES)[number]> = {
  minPerformance: 'performance',
  minAccessibility: 'accessibility',
  minBestPractices: 'best-practices',
  minSeo: 'seo',
};
