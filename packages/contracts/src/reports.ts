import { z } from 'zod';

export const reportFormat = z.enum(['json', 'html', 'zip', 'xml']);
export type ReportFormat = z.infer<typeof reportFormat>;

/** Spec section 3: a report has lastUpdated, or a formats list whose items have lastUpdated. */
export const reportEntry = z.object({
  lastUpdated: z.string().optional(),
  formats: z
    .array(z.object({ format: z.string(), lastUpdated: z.string() }))
    .optional(),
});
export type ReportEntry = z.infer<typeof reportEntry>;

/** GET /report/fetch/all: keyed by group, then by report name. */
export const reportGroups = z.record(z.string(), z.record(z.string(), reportEntry));
export type ReportGroups = z.infer<typeof reportGroups>;

export const reportFileParams = z.object({
  reportName: z.string().min(1).max(200),
  format: z.string().min(1).max(10),
});
