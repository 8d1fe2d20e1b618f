import type { LoadInsight } from '@fullstop/contracts';
import type { LoadThresholds } from './options.ts';

/** Everything recorded during a load run, one entry per response or error. */
export interface LoadSamples {
  /** Every response's own time in ms, with sub-millisecond precision, in the order they came. */
  times: number[];
  /** The second of the run (0 = the first) each of `times` came in: never decreasing, like `times`' order. */
  timeSeconds: number[];
  /** Per second of the run: requests completed (answered or failed with an error), and how many of them failed. */
  requestsBySecond: number[];
  errorsBySecond: number[];
  /** Per second of the run: the most connections open at once in it (from what the driver reported). */
  connectionsBySecond: number[];
  successful: number;
  failedResponses: number;
  errors: number;
  bytesSent: number;
  bytesReceived: number;
  failures: Map<string, number>;
  elapsedSeconds: number;
}

/** Samples with nothing recorded yet, over `elapsedSeconds`. */
export function emptySamples(elapsedSeconds = 0): LoadSamples {
  return {
    times: [],
    timeSeconds: [],
    requestsBySecond: [],
    errorsBySecond: [],
    connectionsBySecond: [],
    successful: 0,
    failedResponses: 0,
    errors: 0,
    bytesSent: 0,
    bytesReceived: 0,
    failures: new Map(),
    elapsedSeconds,
  };
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

export interface SecondStats {
  second: number;
  requests: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
}

/** A second of the run as the runner records it: with the most connections open at once during it. */
export type RunSecond = SecondStats & { connections: number };

/** The run's index of a second: whole seconds since `startedMs` (a performance.now() reading). */
export function secondOf(startedMs: number, nowMs: number): number {
  return Math.max(0, Math.floor((nowMs - startedMs) / 1000));
}

/** Counts one completed request (and whether it failed) in its second. */
export function countInSecond(samples: LoadSamples, second: number, failed: boolean): void {
  for (let s = samples.requestsBySecond.length; s <= second; s++) {
    samples.requestsBySecond.push(0);
    samples.errorsBySecond.push(0);
  }
  samples.requestsBySecond[second] = (samples.requestsBySecond[second] ?? 0) + 1;
  if (failed) samples.errorsBySecond[second] = (samples.errorsBySecond[second] ?? 0) + 1;
}

/** Notes the connections open now, in its second: each second keeps the most it saw. */
export function noteConnections(samples: LoadSamples, second: number, open: number): void {
  const peaks = samples.connectionsBySecond;
  // A second the driver said nothing in (an event loop blocked that long) is given the peak of the one before.
  for (let s = peaks.length; s < second; s++) peaks.push(peaks[s - 1] ?? 0);
  peaks[second] = Math.max(peaks[second] ?? 0, open);
}

/**
 * Second by second from the start: every whole second the run lasted, and the last part-second when anything
 * completed in it. Requests, errors, and the latency percentiles of the responses of that second (nearest rank,
 * as the run's own p95; 0 in a second with no response).
 */
export function perSecondSeries(samples: LoadSamples): RunSecond[] {
  const series: RunSecond[] = [];
  const seconds = Math.max(samples.requestsBySecond.length, Math.floor(samples.elapsedSeconds));
  let from = 0;
  for (let second = 0; second < seconds; second++) {
    let to = from;
    while (to < samples.timeSeconds.length && samples.timeSeconds[to] === second) to++;
    const sorted = samples.times.slice(from, to).sort((a, b) => a - b);
    from = to;
    series.push({
      second,
      requests: samples.requestsBySecond[second] ?? 0,
      errors: samples.errorsBySecond[second] ?? 0,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      connections: samples.connectionsBySecond[second] ?? samples.connectionsBySecond.at(-1) ?? 0,
    });
  }
  return series;
}

export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 400;
}

/** Each configured threshold against its measured value. */
export function checkThresholds(thresholds: LoadThresholds, actuals: Record<keyof LoadThresholds, number>): ThresholdCheck[] {
  const checks: ThresholdCheck[] = [];
  for (const name of Object.keys(actuals) as (keyof LoadThresholds)[]) {
    const limit = thresholds[name];
    if (limit === undefined) continue;
    const actual = actuals[name];
    checks.push({ name, limit, actual, met: name === 'minRequestsPerSecond' ? actual >= limit : actual <= limit });
  }
  return checks;
}

export function computeLoad(
  samples: LoadSamples,
  thresholds: LoadThresholds,
): { load: LoadInsight; checks: ThresholdCheck[]; requestsPerSecond: number; perSecond: RunSecond[] } {
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
  const checks = checkThresholds(thresholds, actuals);

  return {
    requestsPerSecond,
    checks,
    perSecond: perSecondSeries(samples),
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
