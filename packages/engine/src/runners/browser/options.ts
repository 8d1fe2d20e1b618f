import { healingMode, PAGE_CHECK_WORDS } from '@fullstop/contracts';
import { z } from 'zod';
import { testInput } from '../../lib/options.ts';
import { WCAG_TAGS } from '../accessibility/options.ts';
import { checkCellBound, matrixOptions } from '../../lib/cell-matrix.ts';
import { browserDevices, cloudDevicesOf, localDevicesOf } from './cloud-cells.ts';
import { BROWSER_ENGINES, MAX_CELLS_PER_TEST, runsSpecs } from './matrix.ts';

export const DEFAULT_TEST_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_DURATION_SECONDS = 600;
/** The spec files of a test that names none and has no page checks. */
export const DEFAULT_SPECS = '**/*.spec.ts';
export const MAX_PAGE_CHECKS = 20;
export const MAX_SELECTORS_PER_PAGE = 20;

const relativeGlob = z
  .string()
  .min(1)
  .refine((g) => !g.startsWith('/') && !g.split('/').includes('..'), 'must be a glob inside the suite folder');

export const browserInput = testInput(
  {
    /** Spec files, as globs relative to the suite folder; unset: DEFAULT_SPECS, or none when the test has page checks. */
    specs: z.union([relativeGlob, z.array(relativeGlob).min(1)]).optional(),
    /**
     * Page checks (decision 0079): each page is loaded in every cell, WebKit's included, and checked the same way on
     * every engine: it loads (status < 400), no console error after load, no broken link or image, its key
     * elements (CSS selectors) are there, a screenshot, and axe.
     */
    pages: z
      .array(
        z
          .object({
            path: z.string().min(1),
            /** CSS selectors of the elements the page must have. */
            expect: z.array(z.string().min(1)).min(1).max(MAX_SELECTORS_PER_PAGE).optional(),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_PAGE_CHECKS)
      .optional(),
    pageChecks: z
      .object({
        /** Console errors and uncaught errors after the page's load fail it. */
        consoleErrors: z.boolean().default(true),
        /** Links, images, scripts and style sheets of the page are fetched (through the target policy); a 4xx/5xx or no answer fails it. */
        links: z.boolean().default(true),
        /** axe fails the page on a violation of this impact or worse; `off`: axe does not run. */
        axe: z.enum(['off', 'minor', 'moderate', 'serious', 'critical']).default('serious'),
        axeTags: z.array(z.string().min(1)).min(1).default(WCAG_TAGS),
        /** How long after its load a page is watched for errors and late elements before it is checked. */
        settleMs: z.number().int().min(0).max(10_000).default(1_000),
      })
      .strict()
      .default({ consoleErrors: true, links: true, axe: 'serious', axeTags: WCAG_TAGS, settleMs: 1_000 }),
    /**
     * What a healed locator does to its case (decision 0101): `fail` (fails it with "healed: <old> → <new>", so
     * nothing turns green without a person), `pass` (passes it, marked healed), `off` (nothing heals; fingerprints are
     * still recorded).
     */
    healing: healingMode.default('fail'),
    /** Only tests whose title matches this regular expression. */
    grep: z.string().optional(),
    retries: z.number().int().min(0).max(3).default(0),
    testTimeoutMs: z.number().int().min(1000).max(600_000).default(DEFAULT_TEST_TIMEOUT_MS),
    maxDurationSeconds: z.number().int().min(10).max(3600).default(DEFAULT_MAX_DURATION_SECONDS),
    viewport: z.object({ width: z.number().int().min(200), height: z.number().int().min(200) }).strict().optional(),
    /** The matrix every spec and page check runs on: engines × devices × networks (decisions 0078, 0079). */
    ...matrixOptions(BROWSER_ENGINES),
    /** The device profiles on each engine, and the devices of the client's cloud, a cell each (decision 0100). */
    devices: browserDevices,
  },
  z.object({}).strict(),
).superRefine(({ options }, ctx) => {
  const local = localDevicesOf(options.devices);
  const clouds = cloudDevicesOf(options.devices);
  if (clouds.length === 0) checkCellBound({ ...options, devices: local }, ctx);
  else {
    // Cloud cells are not crossed with the engines and networks: each is one more cell.
    const localCells = options.engines.length * local.length * options.networks.length;
    if (localCells + clouds.length > MAX_CELLS_PER_TEST) {
      const product = `${options.engines.length} engines × ${local.length} devices × ${options.networks.length} networks`;
      ctx.addIssue({
        code: 'custom',
        path: ['options', 'devices'],
        message: `${product} make ${localCells} cells and ${clouds.length} cloud devices ${clouds.length} more: ${localCells + clouds.length} cells; a test may have at most ${MAX_CELLS_PER_TEST}: split it in two tests`,
      });
    }
    // A cloud browser is on the provider's network: our proxy, and so our shaping, never sees its traffic.
    if (options.networks.some((n) => n !== 'none')) {
      ctx.addIssue({
        code: 'custom',
        path: ['options', 'networks'],
        message: `cloud devices run on the provider’s network, which our network shaping cannot reach: a test with cloud devices keeps networks to none (the default); move the networks ${options.networks.filter((n) => n !== 'none').join(', ')} to a test of its own`,
      });
    }
    // Spec files run on a cloud device (BrowserStack's desktops, decision 0106) in a test that runs them on a local
    // device too; a test of cloud devices alone runs page checks.
    if (!options.pages && local.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['options', 'pages'],
        message: `cloud devices without a local device run page checks only (${PAGE_CHECK_WORDS}). List the pages they check, e.g. pages: [{ path: '/' }], or add desktop to devices to run the spec files there and on the cloud devices whose provider runs Playwright (BrowserStack’s desktops)`,
      });
    }
  }
  // WebKit has no Playwright: its cells run the page checks only (decision 0079).
  if (options.engines.includes('webkit') && local.length > 0 && !options.pages) {
    ctx.addIssue({
      code: 'custom',
      path: ['options', 'pages'],
      message: `WebKit runs page checks only (${PAGE_CHECK_WORDS}), not spec files: Playwright cannot drive WebKitGTK. List the pages its cells check, e.g. pages: [{ path: '/' }]`,
    });
  }
  if (options.specs !== undefined && !options.engines.some(runsSpecs)) {
    ctx.addIssue({ code: 'custom', path: ['options', 'specs'], message: 'no engine of this test runs spec files: WebKit runs page checks only; add chromium or firefox to engines, or drop specs' });
  } else if (options.specs !== undefined && local.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['options', 'specs'], message: 'no cell of this test runs spec files: spec files run on a local device, and on cloud devices beside one; add desktop, phone or tablet to devices, or drop specs' });
  }
  // One viewport for every cell would undo the devices' own sizes: a phone at desktop width tests nothing.
  const sized = options.devices.filter((d) => d !== 'desktop').map((d) => (typeof d === 'string' ? d : d.cloud));
  if (options.viewport && sized.length > 0) {
    ctx.addIssue({ code: 'custom', path: ['options', 'viewport'], message: `cannot run with devices ${sized.join(', ')}: each device has its own viewport; drop viewport, or keep devices to desktop` });
  }
});
export type BrowserOptions = z.output<typeof browserInput>['options'];

/** The spec files the test runs on its Chromium and Firefox cells; null: none (a test of page checks only). */
export function specsOf(options: BrowserOptions): string | string[] | null {
  if (!options.engines.some(runsSpecs) || localDevicesOf(options.devices).length === 0) return null;
  return options.specs ?? (options.pages ? null : DEFAULT_SPECS);
}
