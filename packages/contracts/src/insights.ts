import { z } from 'zod';

/** Spec section 3, load data: every field defaults to 0 or false. */
export const loadInsight = z.object({
  averageResponseTime: z.number().default(0),
  maxResponseTime: z.number().default(0),
  minResponseTime: z.number().default(0),
  ninetyFifthPercentileResponseTime: z.number().default(0),
  failedRequestsCount: z.number().default(0),
  totalRequests: z.number().default(0),
  successfulRequests: z.number().default(0),
  dataSentBytes: z.number().default(0),
  dataReceivedBytes: z.number().default(0),
  failedRequestsRate: z.number().default(0),
  customMetricThresholdMet: z.boolean().default(false),
});
export type LoadInsight = z.infer<typeof loadInsight>;

/** Zap data: counts by risk, the key "False Positives" has a space as the spec writes it. */
export const zapInsight = z.object({
  High: z.number().int().default(0),
  Medium: z.number().int().default(0),
  Low: z.number().int().default(0),
  Informational: z.number().int().default(0),
  'False Positives': z.number().int().default(0),
});
export type ZapInsight = z.infer<typeof zapInsight>;

/** Test report data for the frontend and security cards; duration in seconds. */
export const testReportInsight = z.object({
  totalTests: z.number().int().default(0),
  passedTests: z.number().int().default(0),
  failedTests: z.number().int().default(0),
  skippedTests: z.number().int().default(0),
  duration: z.number().default(0),
});
export type TestReportInsight = z.infer<typeof testReportInsight>;

/** GET /insight/fetch/all: each key present only when its kind has run. */
export const insights = z.object({
  load: loadInsight.optional(),
  zap: zapInsight.optional(),
  'frontend-report': testReportInsight.optional(),
  'security-report': testReportInsight.optional(),
});
export type Insights = z.infer<typeof insights>;

export const INSIGHT_KEYS = ['load', 'zap', 'frontend-report', 'security-report'] as const;
export type InsightKey = (typeof INSIGHT_KEYS)[number];
