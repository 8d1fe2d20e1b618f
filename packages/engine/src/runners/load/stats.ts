import type { LoadInsight } from '@fullstop/contracts';
import type { LoadThresholds } from './options.ts';

/** Everything recorded during a load run, one entry per response or error. */
export interface LoadSamples {
  /** Every response's own time in ms, with sub-millisecond precision. */
  times: number[];
  successful: number;
  failedResponses: number;
  errors: number;
  bytesSent: number;
  bytesReceived: number;
  failures: Map<string, number>;
  elapsedSeconds: number;
}

export interface ThresholdCheck {
  name: keyof LoadThresholds;
  limit: number;
  actual: number;
  met: boolean;
}

/** Nearest-rank percentile over the sorted times: the value at or below which p% of the responses fall. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(rank, 1)) - 1] ?? 0;
}

export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 400;
}

export function computeLoad(samples: LoadSamples, thresholds: LoadThresholds): { load: LoadInsight; checks: ThresholdCheck[]; requestsPerSecond: number } {
  const sorted = [...samples.times].sort((a, b) => a - b);
  const sum = sorted.reduce((acc, t) => acc + t, 0);
  const failed = samples.failedResponses + samples.errors;
  const total = samples.successful + failed;
  const requestsPerSecond = samples.elapsedSeconds > 0 ? total / samples.elapsedSeconds : 0;
  const average = sorted.length > 0 ? sum / sorted.length : 0;
  const p95 = percentile(sorted, 95);
  const max = sorted.at(-1) ?? 0;
  const failedRate = total > 0 ? (failed / total) * 100 : 0;

  const actuals: Record<keyof LoadThresholds, number> = {
    maxP95Ms: p95,
    maxAverageMs: average,
    maxResponseMs: max,
    maxFailedRate: failedRate,
    minRequestsPerSecond: requestsPerSecond,
  };
  const checks: ThresholdCheck[] = [];
  for (const name of Object.keys(actuals) as (keyof LoadThresholds)[]) {
    const limit = thresholds[name];
    if (limit === undefined) continue;
    const actual = actuals[name];
    checks.push({ name, limit, actual, met: name === 'minRequestsPerSecond' ? actual >= limit : actual <= limit });
  }

  return {
    requestsPerSecond,
    checks,
    load: {
      averageResponseTime: average,
      maxResponseTime: max,
      minResponseTime: sorted[0] ?? 0,
      ninetyFifthPercentileResponseTime: p95,
      failedRequestsCount: failed,
      totalRequests: total,
      successfulRequests: samples.successful,
      dataSentBytes: samples.bytesSent,
      dataReceivedBytes: samples.bytesReceived,
      failedRequestsRate: failedRate,
      // No threshold configured means none was missed.
      customMetricThresholdMet: checks.every((c) => c.met),
    },
  };
}
