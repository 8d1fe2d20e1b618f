import { z } from 'zod';
import { text } from './text.ts';

export const reportFormat = z.enum(['json', 'html', 'zip', 'xml', 'pdf']);
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
  reportName: text('reportName').min(1, { error: 'reportName is required' }).max(200, { error: 'reportName must be at most 200 characters' }),
  format: text('format').min(1, { error: 'format is required' }).max(10, { error: 'format must be at most 10 characters' }),
});

export const alertRisk = z.enum(['High', 'Medium', 'Low', 'Informational']);

/** A security-scan alert of the latest scan, as the operator API lists it. */
export const securityAlert = z.object({
  /** One instance of an alert: `ruleId@url`, or `ruleId@url#param` when it concerns a parameter or cookie. */
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

/**
 * Marks an alert a false positive: without url, the alert (the rule, every instance); with a URL, its instances on
 * that URL; with `url#param` (as an instance's alertId shows it), that one instance.
 */
export const falsePositiveRequest = z.object({
  ruleId: text('ruleId').min(1, { error: 'ruleId is required' }).max(100, { error: 'ruleId must be at most 100 characters' }),
  url: text('url').max(2000, { error: 'url must be at most 2000 characters' }).optional(),
  note: text('note').max(1000, { error: 'note must be at most 1000 characters' }).optional(),
});
export type FalsePositiveRequest = z.infer<typeof falsePositiveRequest>;

export const falsePositivesResponse = z.object({
  falsePositives: z.array(
    z.object({ ruleId: z.string(), url: z.string().nullable(), note: z.string().nullable(), createdAt: z.string() }),
  ),
});

/**
 * POST /report/link/{reportName}/{format}: a short-lived address that opens one report in a tab of its own.
 * The report is served there with a sandbox policy (an opaque origin, no script), so nothing in it can reach the
 * portal's storage; a blob: URL made by the portal would share the portal's origin instead.
 */
export const reportLinkResponse = z.object({ url: z.string(), expiresIn: z.number().int() });
export type ReportLinkResponse = z.infer<typeof reportLinkResponse>;

export const reportViewQuery = z.object({
  token: text('token').min(1, { error: 'token is required' }).max(2000, { error: 'token is too long' }),
});

/**
 * POST /report/link/{reportName}/{format}?locale=&timeZone=: the reader's `Intl.DateTimeFormat().resolvedOptions()`,
 * so the report's times read in their own locale and zone. Either one unknown falls back to en-GB and UTC.
 */
export const reportLinkQuery = z.object({
  locale: text('locale').max(100, { error: 'locale must be at most 100 characters' }).optional(),
  timeZone: text('timeZone').max(100, { error: 'timeZone must be at most 100 characters' }).optional(),
});
export type ReportLinkQuery = z.infer<typeof reportLinkQuery>;
