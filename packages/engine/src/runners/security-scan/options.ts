import { z } from 'zod';
import { testInput } from '../../lib/options.ts';
import { riskThresholds } from '../../lib/findings.ts';
import { crawlStartOptions } from '../../lib/crawl-options.ts';
import { JsonShape } from '../../lib/call-shape.ts';
import { DEFAULT_WAPITI_MODULES, FORBIDDEN_WAPITI_MODULES } from './wapiti.ts';

export const DEFAULT_MAX_SCAN_SECONDS = 120;
export const MAX_SCAN_SECONDS = 1800;
/** JSON calls a suite may declare (`calls`); with those the crawl saw, sqlmap attacks at most MAX_SQLMAP_CALLS. */
export const MAX_DECLARED_CALLS = 10;

export const securityScanInput = testInput(
  {
    /** The pages the passive checks start from. `crawl` true: also the pages they link to; "browser": Chromium's crawl, which also seeds wapiti (lib/site-crawl.ts). */
    ...crawlStartOptions(true),
    /** Run wapiti's active attacks; off, only the passive checks run. */
    active: z.boolean().default(true),
    modules: z
      .array(z.string().regex(/^[a-z_]+$/, 'must be a wapiti module name'))
      .min(1)
      .refine((m) => !m.some((x) => FORBIDDEN_WAPITI_MODULES.includes(x)), `may not include ${FORBIDDEN_WAPITI_MODULES.join(', ')}`)
      .default(DEFAULT_WAPITI_MODULES),
    depth: z.number().int().min(0).max(10).default(2),
    maxScanSeconds: z.number().int().min(5).max(MAX_SCAN_SECONDS).default(DEFAULT_MAX_SCAN_SECONDS),
    /** Paths wapiti and the browser crawl must not touch (e.g. /logout). */
    exclude: z.array(z.string()).default([]),
    /**
     * JSON calls sqlmap attacks besides those the browser crawl saw the pages make: one a crawler cannot reach (a form
     * behind a captcha) or that no page makes. The body is described by its keys and their types, never values.
     */
    calls: z
      .array(z.object({ method: z.enum(['POST', 'PUT', 'PATCH']), path: z.string().min(1).max(2000), json: JsonShape }).strict())
      .max(MAX_DECLARED_CALLS)
      .default([]),
  },
  riskThresholds,
);
