import { z } from 'zod';
import { testInput } from '../../lib/options.ts';
import { crawlStartOptions } from '../../lib/crawl-options.ts';

export const securityChecksInput = testInput(
  {
    /** Pages whose headers and cookies are checked; with `crawl`, also those found from them: true by their links, "browser" with Chromium (lib/site-crawl.ts). */
    ...crawlStartOptions(false),
    /** Plain http fails the TLS check unless this is false (a local demo has no certificate). */
    requireHttps: z.boolean().default(true),
    login: z
      .object({
        path: z.string().min(1),
        method: z.enum(['POST', 'PUT']).default('POST'),
        /** The body of a login with wrong credentials: JSON, or a string sent as a form. */
        badCredentials: z.union([z.record(z.string(), z.unknown()), z.string()]),
        /** Status codes that mean "refused". */
        rejectStatus: z.array(z.number().int()).min(1).default([400, 401, 403, 422]),
      })
      .strict()
      .optional(),
    /** Paths that must refuse a visitor without credentials (401/403, or a redirect to a login page). */
    protectedPaths: z.array(z.string().min(1)).default([]),
  },
  z.object({}).strict(),
);
export type SecurityChecksOptions = z.output<typeof securityChecksInput>['options'];
