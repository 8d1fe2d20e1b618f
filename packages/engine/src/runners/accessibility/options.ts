import { z } from 'zod';
import { crawlOption, crawlSecondsOption, DEFAULT_CRAWL_PAGES, maxPagesOption } from '../../lib/crawl-options.ts';

/** WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
export const IMPACTS = ['minor', 'moderate', 'serious', 'critical'] as const;
export const PAGE_LOAD_TIMEOUT_MS = 30_000;

export const accessibilityInput = z.object({
  options: z
    .object({
      /** Paths relative to the website's URL. */
      pages: z.array(z.string().min(1)).min(1).default(['/']),
      /** Also test the pages found from the listed ones: true by their links, "browser" with Chromium (lib/site-crawl.ts). */
      crawl: crawlOption.default(false),
      /** Pages in all when crawling. */
      maxPages: maxPagesOption.default(DEFAULT_CRAWL_PAGES),
      crawlSeconds: crawlSecondsOption,
      tags: z.array(z.string().min(1)).min(1).default(WCAG_TAGS),
      /** axe rule ids to leave out (a known, accepted issue). */
      disableRules: z.array(z.string().min(1)).default([]),
      /** A page fails on a violation of this impact or worse. */
      failOnImpact: z.enum(IMPACTS).default('minor'),
      pageTimeoutMs: z.number().int().min(1000).max(120_000).default(PAGE_LOAD_TIMEOUT_MS),
    })
    .strict(),
  thresholds: z.object({}).strict(),
});
