import { z } from 'zod';
import { testInput } from '../../lib/options.ts';
import { crawlStartOptions } from '../../lib/crawl-options.ts';
import { checkCellBound, matrixOptions } from '../../lib/cell-matrix.ts';
import type { BrowserEngine } from '../browser/matrix.ts';

/** WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
export const IMPACTS = ['minor', 'moderate', 'serious', 'critical'] as const;
export const PAGE_LOAD_TIMEOUT_MS = 30_000;

/**
 * The engines axe runs on here: those Playwright drives (cell-session.ts). WebKit runs axe over WebDriver
 * (lib/webkit.ts); it joins this list with a session of its own in cell-session.ts.
 */
export const ACCESSIBILITY_ENGINES = ['chromium', 'firefox'] as const satisfies readonly BrowserEngine[];

export const accessibilityInput = testInput(
  {
    /** The pages tested; with `crawl`, also those found from them: true by their links, "browser" with Chromium (lib/site-crawl.ts). */
    ...crawlStartOptions(false),
    tags: z.array(z.string().min(1)).min(1).default(WCAG_TAGS),
    /** axe rule ids to leave out (a known, accepted issue). */
    disableRules: z.array(z.string().min(1)).default([]),
    /** A page fails on a violation of this impact or worse. */
    failOnImpact: z.enum(IMPACTS).default('minor'),
    pageTimeoutMs: z.number().int().min(1000).max(120_000).default(PAGE_LOAD_TIMEOUT_MS),
    /** Every page on each engine × device × network (decision 0078), as a browser test's specs. */
    ...matrixOptions(ACCESSIBILITY_ENGINES, (engine) => `accessibility tests do not run on ${engine} yet: their engines are ${ACCESSIBILITY_ENGINES.join(', ')}`),
  },
  z.object({}).strict(),
).superRefine(({ options }, ctx) => checkCellBound(options, ctx));
export type AccessibilityOptions = z.output<typeof accessibilityInput>['options'];
