import { sampleReport } from '../../reporters/sample-report.ts';
import type { RunReport } from '../../reporters/types.ts';
import type { RunnerSummary } from '../../types.ts';

/** A load test at peak traffic: its figures, thresholds met and missed, failures by URL, 30 seconds of samples. */
export function sample(): RunReport {
  const perSecond = Array.from({ length: 30 }, (_, i) => {
    const requests = 180 + Math.round(60 * Math.sin(i / 4)) + (i > 20 ? 40 : 0);
    const errors = i > 22 ? 6 + (i % 3) : 0;
    const p50 = 40 + 10 * Math.sin(i / 3);
    return { second: i + 1, requests, errors, p50, p95: p50 * 3 + (i > 20 ? 140 : 0), p99: p50 * 5 + (i > 20 ? 300 : 0) };
  });
  const summary: RunnerSummary = {
    kind: 'load',
    load: {
      averageResponseTime: 61.23456,
      maxResponseTime: 672.0012,
      minResponseTime: 8.4,
      ninetyFifthPercentileResponseTime: 340.2,
      failedRequestsCount: 52,
      totalRequests: 6_240,
      successfulRequests: 6_188,
      dataSentBytes: 1_204_000,
      dataReceivedBytes: 48_900_000,
      failedRequestsRate: 0.8333,
      customMetricThresholdMet: false,
    },
    failuresByUrl: [
      { url: 'https://shop.acme.test/api/cart', status: 503, count: 40 },
      { url: 'https://shop.acme.test/', status: 'error', count: 12 },
    ],
    requestsPerSecond: 208,
    thresholdChecks: [
      { name: 'maxP95Ms', limit: 300, actual: 340.2, met: false },
      { name: 'maxFailedRate', limit: 1, actual: 0.8333, met: true },
      { name: 'minRequestsPerSecond', limit: 150, actual: 208, met: true },
    ],
    perSecond,
  };
  return sampleReport({ kind: 'load', group: 'Performance', testName: 'Peak traffic', status: 'failed', summary, durationMs: 30_512 });
}
