import { z } from 'zod';
import { testInput } from '../../lib/options.ts';
import { BROWSER_ENGINES, cellsOf, DEVICES, MAX_CELLS_PER_TEST, NETWORKS } from './matrix.ts';

export const DEFAULT_TEST_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_DURATION_SECONDS = 600;

/** A non-empty list of distinct names from `names`: an unknown one is named with the ones there are. */
function uniqueList<T extends readonly [string, ...string[]]>(names: T, noun: string) {
  return z
    .array(z.enum(names, { error: (issue) => `unknown ${noun} ${JSON.stringify(issue.input)}: the ${noun}s are ${names.join(', ')}` }))
    .min(1, { error: `list at least one ${noun}` })
    .refine((list) => new Set(list).size === list.length, { error: `lists the same ${noun} twice` });
}

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
    /** The browser engines every spec runs on (decision 0078). */
    engines: uniqueList(BROWSER_ENGINES, 'engine').default(['chromium']),
    /** The device profiles every spec runs on, on each engine. */
    devices: uniqueList(DEVICES, 'device').default(['desktop']),
    /** The networks every spec runs on, shaped in the policy proxy; `none` is the unshaped local network. */
    networks: uniqueList(NETWORKS, 'network').default(['none']),
  },
  z.object({}).strict(),
).superRefine(({ options }, ctx) => {
  const cells = cellsOf(options.engines, options.devices, options.networks).length;
  if (cells > MAX_CELLS_PER_TEST) {
    const product = `${options.engines.length} engines × ${options.devices.length} devices × ${options.networks.length} networks`;
    ctx.addIssue({ code: 'custom', path: ['options', 'networks'], message: `${product} make ${cells} cells; a test may have at most ${MAX_CELLS_PER_TEST}: split it in two tests` });
  }
  // One viewport for every cell would undo the devices' own sizes: a phone at desktop width tests nothing.
  const sized = options.devices.filter((d) => d !== 'desktop');
  if (options.viewport && sized.length > 0) {
    ctx.addIssue({ code: 'custom', path: ['options', 'viewport'], message: `cannot run with devices ${sized.join(', ')}: each device has its own viewport; drop viewport, or keep devices to desktop` });
  }
});
export type BrowserOptions = z.output<typeof browserInput>['options'];
