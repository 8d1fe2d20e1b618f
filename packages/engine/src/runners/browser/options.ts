import { z } from 'zod';
import { testInput } from '../../lib/options.ts';

export const DEFAULT_TEST_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_DURATION_SECONDS = 600;

const relativeGlob = z
  .string()
  .min(1)
  .refine((g) => !g.startsWith('/') && !g.split('/').includes('..'), 'must be a glob inside the suite folder');

export const browserInput = testInput(
  {
    /** Spec files, as globs relative to the suite folder. */
    specs: z.union([relativeGlob, z.array(relativeGlob).min(1)]).default('**/*.spec.ts'),
    /** Only tests whose title matches this regular expression. */
    grep: z.string().optional(),
    retries: z.number().int().min(0).max(3).default(0),
    testTimeoutMs: z.number().int().min(1000).max(600_000).default(DEFAULT_TEST_TIMEOUT_MS),
    maxDurationSeconds: z.number().int().min(10).max(3600).default(DEFAULT_MAX_DURATION_SECONDS),
    viewport: z.object({ width: z.number().int().min(200), height: z.number().int().min(200) }).strict().optional(),
  },
  z.object({}).strict(),
);
export type BrowserOptions = z.output<typeof browserInput>['options'];
