import { z } from 'zod';
import { testInput } from '../../lib/options.ts';
import { MAX_CELLS_PER_TEST } from '../browser/matrix.ts';

/** A manual case's bounds: what a tester can walk in one sitting, on at most as many platforms as a matrix has cells. */
export const MAX_MANUAL_STEPS = 50;
export const MAX_MANUAL_PLATFORMS = MAX_CELLS_PER_TEST;
export const DEFAULT_ESTIMATE_MINUTES = 15;

/** A WCAG 2.2 success criterion's number, e.g. `2.1.1` (Keyboard) or `1.4.10` (Reflow). */
export const WCAG_CRITERION = /^[1-4]\.\d{1,2}\.\d{1,2}$/;

const line = (max: number, what: string) => z.string().trim().min(1, `${what} must not be empty`).max(max, `${what} must be at most ${max} characters`);

/** Where a case must be run: a device (desktop, an iPhone 15, a Pixel 8), a browser, an OS; the tester says what was really used. */
const platform = z
  .object({
    device: line(80, 'device'),
    browser: line(80, 'browser').optional(),
    os: line(80, 'os').optional(),
  })
  .strict();

const relativeFile = z
  .string()
  .min(1)
  .refine((f) => !f.startsWith('/') && !f.split('/').includes('..') && !f.includes('\\'), 'must be a file inside the suite folder');

export const manualInput = testInput(
  {
    /** What the case proves, in a sentence the client reads in every report. */
    goal: line(500, 'goal'),
    /** What must hold before step 1 (an account, a product in stock). */
    preconditions: z.array(line(500, 'a precondition')).max(20, 'at most 20 preconditions').default([]),
    /** The data the tester types (an email, a coupon code): names and values, shown beside the steps. */
    testData: z.record(line(80, 'a test data name'), z.string().max(500, 'a test data value must be at most 500 characters')).default({}),
    /** The numbered steps, each an action and what must be seen after it. */
    steps: z
      .array(
        z
          .object({
            action: line(1000, 'action'),
            expected: line(1000, 'expected'),
            /** The WCAG 2.2 success criteria the step checks (an accessibility audit), e.g. ['2.1.1', '2.4.3']. */
            wcag: z.array(z.string().regex(WCAG_CRITERION, 'a WCAG success criterion is written like 2.1.1')).max(10).optional(),
          })
          .strict(),
      )
      .min(1, 'a manual case needs at least one step')
      .max(MAX_MANUAL_STEPS, `a manual case may have at most ${MAX_MANUAL_STEPS} steps: split it in two`),
    /** The device, browser and OS it must be run on: one, or a list (each is its own execution, like a matrix's cells). */
    platforms: z
      .union([platform, z.array(platform).min(1, 'list at least one platform').max(MAX_MANUAL_PLATFORMS, `a manual case may list at most ${MAX_MANUAL_PLATFORMS} platforms`)])
      .default({ device: 'desktop' })
      .transform((p) => (Array.isArray(p) ? p : [p])),
    /** How long one execution takes a tester, in minutes (the Manual work queue shows it). */
    estimateMinutes: z.number().int().min(1).max(480).default(DEFAULT_ESTIMATE_MINUTES),
    /** Files of the suite the tester needs (a design, a document to upload), relative to the suite folder. */
    references: z.array(relativeFile).max(10).default([]),
  },
  z.object({}).strict().default({}),
);
export type ManualOptions = z.output<typeof manualInput>['options'];
export type ManualPlatform = ManualOptions['platforms'][number];

/** A platform as the queue and the report name it: "iPhone 15 · Safari · iOS 18". */
export function platformLabel(p: { device: string; browser?: string | null; os?: string | null }): string {
  return [p.device, p.browser, p.os].filter(Boolean).join(' · ');
}
