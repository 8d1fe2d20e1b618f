import { z } from 'zod';

/**
 * A client's first days (issue 39): before its first suite is current, the portal says where it stands instead of
 * "No tests available". The site promises a start within 48 hours; the promise runs from the client's signing
 * (its creation in the console).
 */

/** The site's promise: "Start within 48 hours" (home, pricing, services, contact). */
export const FIRST_REPORT_HOURS = 48;

/** GET /test/suite-status: the client's own suite status. */
export const suiteStatusResponse = z.object({
  /** A current suite lists tests: nothing else here matters to the portal then. */
  current: z.boolean(),
  /** When the client signed (was created). */
  signedAt: z.string(),
  /** signedAt + FIRST_REPORT_HOURS: when the first report is promised. */
  firstReportDue: z.string(),
  /** The newest version waiting for review (a starter suite or an import kept for a trial); null when none yet. */
  proposal: z
    .object({
      version: z.number().int(),
      /** The operator's name; null when a token or the CLI imported it. */
      proposedBy: z.string().nullable(),
      proposedAt: z.string(),
      tests: z.number().int(),
    })
    .nullable(),
});
export type SuiteStatusResponse = z.infer<typeof suiteStatusResponse>;

/** When the first report is due for a client that signed at `signedAt`. */
export function firstReportDue(signedAt: Date): Date {
  return new Date(signedAt.getTime() + FIRST_REPORT_HOURS * 3600 * 1000);
}
