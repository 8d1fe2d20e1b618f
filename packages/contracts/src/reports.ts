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

export const alertRisk = z.enum(['High', 'Medium', 'Low', 'Informational']);

/** A security-scan alert of the latest scan, as the operator API lists it. */
export const securityAlert = z.object({
  /** `ruleId@url`: what the false-positive calls name. */
  alertId: z.string(),
  ruleId: z.string(),
  name: z.string(),
  risk: alertRisk,
  url: z.string().nullable(),
  evidence: z.string().nullable(),
  falsePositive: z.boolean(),
});
export type SecurityAlert = z.infer<typeof securityAlert>;

export const securityAlertsResponse = z.object({
  testName: z.string().nullable(),
  scannedAt: z.string().nullable(),
  alerts: z.array(securityAlert),
});

/** Marks an alert a false positive; without url, the rule on every URL. */
export const falsePositiveRequest = z.object({
  ruleId: z.string().min(1).max(100),
  url: z.string().max(2000).optional(),
  note: z.string().max(1000).optional(),
});
export type FalsePositiveRequest = z.infer<typeof falsePositiveRequest>;

export const falsePositivesResponse = z.object({
  falsePositives: z.array(
    z.object({ ruleId: z.string(), url: z.string().nullable(), note: z.string().nullable(), createdAt: z.string() }),
  ),
});
