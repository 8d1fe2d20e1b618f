import { z } from 'zod';
import { checkCellBound, matrixOptions } from '../../lib/cell-matrix.ts';
import { testInput } from '../../lib/options.ts';
import type { BrowserEngine } from '../browser/matrix.ts';

/**
 * The engines a visual test shoots on: those Playwright drives (shooter.ts). WebKit joins this list with a shooter
 * of its own in shooter.ts (`SHOOTERS`): open a page, still it, capture it masked.
 */
export const VISUAL_ENGINES = ['chromium', 'firefox'] as const satisfies readonly BrowserEngine[];

/**
 * 0.01 % of a shot's pixels (166 of a 1280 × 1300 page), measured (decision 0080): what anti-aliasing leaves counted
 * after both filters is 2 to 50 pixels for a line of rotated text moved by a fraction of a pixel, where a button
 * moved by 2 or 4 px changes 260 to 400. A changed digit (8 pixels) is under it: a test that must see one sets 0.
 */
export const DEFAULT_TOLERANCE = 0.0001;
/** pixelmatch's own default: how far two colours may be apart (their OKLab distance, 1 is black against white) and still be the same pixel. */
export const DEFAULT_COLOR_THRESHOLD = 0.1;
/** Captures of a page, SETTLE_PAUSE_MS (300 ms) apart once it is ready, until two in a row are alike: 1.2 s of pauses at most. */
export const DEFAULT_MAX_CAPTURES = 5;
export const PAGE_LOAD_TIMEOUT_MS = 30_000;
/** Each page costs a browser page, two captures or more and a comparison: a test with more should be split. */
export const MAX_PAGES = 50;

const selector = z.string().trim().min(1, { error: 'is an empty selector' }).max(500);
const selectors = z.array(selector).max(50);

/**
 * A page: its path (or a URL of the target; a hash route, `/#/about`, is a page of its own, loaded in a tab of its
 * own), or that with a name of its own (what its baselines are kept by) and masks of its own.
 */
const pageEntry = z.union([
  z.string().trim().min(1),
  z
    .object({
      path: z.string().trim().min(1),
      /** What the page's baselines are kept by: renaming it starts them anew (the path by default). */
      name: z.string().trim().min(1).max(100).optional(),
      /** Selectors blanked on this page only, besides the test's `mask`. */
      mask: selectors.default([]),
    })
    .strict(),
]);

const ratio = (what: string, fallback: number) =>
  z
    .number({ error: `${what} is a ratio from 0 to 1` })
    .min(0, { error: `${what} is a ratio from 0 to 1 (0.001 is 0.1%)` })
    .max(1, { error: `${what} is a ratio from 0 to 1 (0.001 is 0.1%)` })
    .default(fallback);

export const visualInput = testInput(
  {
    /** The pages shot, each on every cell. */
    pages: z.array(pageEntry).min(1).max(MAX_PAGES).default(['/']),
    /** CSS selectors blanked on every page (dates, ads, live counters): their boxes are filled before each capture. */
    mask: selectors.default([]),
    /** The ratio of a shot's pixels that may differ from its baseline (anti-aliasing aside) and still pass: 0.001 is 0.1 %. */
    tolerance: ratio('tolerance', DEFAULT_TOLERANCE),
    /** How different two colours may be and still count as the same pixel (pixelmatch's `threshold`). */
    colorThreshold: ratio('colorThreshold', DEFAULT_COLOR_THRESHOLD),
    /** The whole scrollable page (cut at MAX_FULL_PAGE_HEIGHT), or only what the device's screen shows. */
    fullPage: z.boolean().default(true),
    /** Captures of a page until two in a row are alike (within the tolerance); past them, the page never settled. */
    maxCaptures: z.number().int().min(2).max(20).default(DEFAULT_MAX_CAPTURES),
    pageTimeoutMs: z.number().int().min(1000).max(120_000).default(PAGE_LOAD_TIMEOUT_MS),
    /** Every page on each engine × device × network (decision 0078); a network compares with the same baseline. */
    ...matrixOptions(VISUAL_ENGINES, (engine) => `visual tests do not run on ${engine} yet: their engines are ${VISUAL_ENGINES.join(', ')}`),
  },
  z.object({}).strict(),
).superRefine(({ options }, ctx) => {
  checkCellBound(options, ctx);
  // Two entries with one name would share their baselines: each would fail against the other's.
  const seen = new Set<string>();
  options.pages.forEach((entry, i) => {
    const name = pageName(entry);
    if (seen.has(name)) ctx.addIssue({ code: 'custom', path: ['options', 'pages', i], message: `names the page "${name}" twice: give one a different name` });
    seen.add(name);
  });
});
export type VisualOptions = z.output<typeof visualInput>['options'];
export type VisualPageEntry = VisualOptions['pages'][number];

/** What a page's baselines are kept by: its name, else its path as written. */
export function pageName(entry: VisualPageEntry): string {
  return typeof entry === 'string' ? entry : (entry.name ?? entry.path);
}

/** A page's path and every selector masked on it. */
export function pageOf(entry: VisualPageEntry, mask: readonly string[]): { name: string; path: string; mask: string[] } {
  const own = typeof entry === 'string' ? [] : entry.mask;
  return { name: pageName(entry), path: typeof entry === 'string' ? entry : entry.path, mask: [...new Set([...mask, ...own])] };
}
