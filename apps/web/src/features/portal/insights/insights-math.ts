import { INSIGHT_KEYS, type InsightKey, type Insights, type LoadInsight, type TestReportInsight, type ZapInsight } from '@fullstop/contracts';

/** Shown instead of a rate when there were no requests: a rate of nothing is not a number. */
export const NO_VALUE = '—';

/** The keys that have data, in the spec's card order: load, zap, frontend-report, security-report. */
export function presentInsightKeys(data: Insights | undefined): InsightKey[] {
  if (!data) return [];
  return INSIGHT_KEYS.filter((key) => data[key] != null);
}

export function formatPercent(value: number): string {
  return `${value.toFixed(2)}%`;
}

export interface LoadSummary {
  totalRequests: number;
  successRate: string;
  failedRate: string;
  thresholdMet: 'Yes' | 'No';
}

export function loadSummary(load: LoadInsight): LoadSummary {
  const total = load.totalRequests;
  return {
    totalRequests: total,
    successRate: total > 0 ? formatPercent((load.successfulRequests / total) * 100) : NO_VALUE,
    failedRate: total > 0 ? formatPercent(load.failedRequestsRate) : NO_VALUE,
    thresholdMet: load.customMetricThresholdMet ? 'Yes' : 'No',
  };
}

export const requestsOverview = (load: LoadInsight) => [
  { name: 'Total', value: load.totalRequests },
  { name: 'Success', value: load.successfulRequests },
  { name: 'Failed', value: load.failedRequestsCount },
];

export const responseTimes = (load: LoadInsight) => [
  { name: 'Avg', ms: load.averageResponseTime },
  { name: 'Max', ms: load.maxResponseTime },
  { name: 'Min', ms: load.minResponseTime },
  { name: '95th Percentile', ms: load.ninetyFifthPercentileResponseTime },
];

export const dataTransfer = (load: LoadInsight) => [
  { name: 'Sent', bytes: load.dataSentBytes },
  { name: 'Received', bytes: load.dataReceivedBytes },
];

export const SEVERITIES = ['High', 'Medium', 'Low', 'Informational', 'False Positives'] as const satisfies readonly (keyof ZapInsight)[];

/** Fixed palettes (spec section 9): risk from red to grey, and pass / fail / skip. */
export const SEVERITY_COLOURS: Record<(typeof SEVERITIES)[number], string> = {
  High: '#dc2626',
  Medium: '#ea580c',
  Low: '#ca8a04',
  Informational: '#2563eb',
  'False Positives': '#6b7280',
};

export const OUTCOME_COLOURS = { Passed: '#16a34a', Failed: '#dc2626', Skipped: '#9ca3af' } as const;

/** One stacked bar: every severity is a segment of the same column. */
export const zapBar = (zap: ZapInsight) => [{ name: 'Alerts', ...zap }];

export const outcomeSlices = (report: TestReportInsight) => [
  { name: 'Passed' as const, value: report.passedTests },
  { name: 'Failed' as const, value: report.failedTests },
  { name: 'Skipped' as const, value: report.skippedTests },
];

export function formatNumber(value: number): string {
  return value.toLocaleString('en-GB');
}

const compact = new Intl.NumberFormat('en-GB', { notation: 'compact', maximumFractionDigits: 1 });

/** Axis ticks: 5.4M rather than 5,400,000, so the labels fit a narrow panel. */
export function formatCompact(value: number): string {
  return compact.format(value);
}

/** Bytes for an axis or a label: 5.4 MB rather than 5,400,000. */
export { formatBytes } from '@/lib/format-bytes.ts';

/** A rate for a chart label: "98.5%" (at most one decimal: the labels are small). */
export function formatRate(value: number): string {
  return `${Number(value.toFixed(1))}%`;
}

/** Milliseconds for a chart label: "320 ms", "1.2 s" from 1000 ms on (a no-break space: ticks wrap at spaces). */
export function formatMs(value: number): string {
  return value >= 1000 ? `${Number((value / 1000).toFixed(1))}\u00a0s` : `${Number(value.toFixed(1))}\u00a0ms`;
}

/** A response time written at its point: whole milliseconds from 100 on, one decimal below ("28.4", "581"). */
export function formatPointMs(value: number): string {
  return formatNumber(value >= 100 ? Math.round(value) : Number(value.toFixed(1)));
}

/** Whether a scan found nothing at all: the card says so instead of drawing empty axes. */
export function noAlerts(zap: ZapInsight): boolean {
  return SEVERITIES.every((severity) => zap[severity] === 0);
}
