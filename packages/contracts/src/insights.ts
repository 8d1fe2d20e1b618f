import { z } from 'zod';

/** Every figure of an insight is 0 until its kind has run. */
const figure = z.number().default(0);
const count = z.number().int().default(0);

/** Spec section 3, load data: every field defaults to 0 or false. */
export const loadInsight = z.object({
  averageResponseTime: figure,
  maxResponseTime: figure,
  minResponseTime: figure,
  ninetyFifthPercentileResponseTime: figure,
  failedRequestsCount: figure,
  totalRequests: figure,
  successfulRequests: figure,
  dataSentBytes: figure,
  dataReceivedBytes: figure,
  failedRequestsRate: figure,
  customMetricThresholdMet: z.boolean().default(false),
});
export type LoadInsight = z.infer<typeof loadInsight>;

/**
 * Zap data: counts by risk, the key "False Positives" has a space as the spec writes it. `incomplete`, only when
 * the scan did not attack everything, says what it missed ("sql did not finish on GET /go (url)"): its counts are
 * those of what it did attack, shown, never hidden (decision 0058). `nothingToAttack`: the scan attacked nothing, so
 * its counts are the passive checks' alone (issue 38).
 */
export const zapInsight = z.object({
  High: count,
  Medium: count,
  Low: count,
  Informational: count,
  'False Positives': count,
  incomplete: z.string().optional(),
  /** Only when the scan found nothing to attack: why, in words ("no URL with parameters, form or JSON call on the 2 pages crawled"). */
  nothingToAttack: z.string().optional(),
});
export type ZapInsight = z.infer<typeof zapInsight>;

/** Test report data for the frontend and security cards; duration in seconds. */
export const testReportInsight = z.object({ totalTests: count, passedTests: count, failedTests: count, skippedTests: count, duration: figure });
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
