import { defineKind } from '../../lib/kind-facts.ts';
import type { LoadInsight } from '@fullstop/contracts';
import type { LoadPart } from './merge.ts';

/**
 * Requests a second that keep one core of the generator busy, with a margin: autocannon sent 44,000 a CPU-second at
 * a pace of 2,000 a second on this machine and 58,000 unpaced (bench/engine/README.md, "A paced load test's weight").
 */
const REQUESTS_PER_CORE = 10_000;

/**
 * A paced load test (`rate`, no stages) weighs its pace, rounded up to a quarter of a core: its runner's start, as
 * an API test (0.25), up to 2,500 requests a second, a whole core from 7,500. Unpaced or with stages it sends as
 * fast as its connections are answered: a core (decision 0088).
 */
export function loadWeightFor(options: Readonly<Record<string, unknown>>): number {
  const { rate, stages } = options;
  if (typeof rate !== 'number' || stages !== undefined) return 1;
  return Math.min(1, Math.max(0.25, Math.ceil((rate / REQUESTS_PER_CORE) * 4) / 4));
}

// The longest run: 300 s of requests, then the requests in flight awaited up to the longest request timeout (120 s)
// and the forced stop's slack, plus time to start and write the summary. Medium: the generator keeps up to a core busy
// sending requests (a test with several generators weighs this much on each worker running one), less when paced.
export const facts = defineKind('load', { title: 'load test', label: 'Load test', timeLimitSeconds: 450, typicalSeconds: 5, weight: 1, weightFor: loadWeightFor }, () => ({
  kind: 'load',
  load: {
    averageResponseTime: 0,
    maxResponseTime: 0,
    minResponseTime: 0,
    ninetyFifthPercentileResponseTime: 0,
    failedRequestsCount: 0,
    totalRequests: 0,
    successfulRequests: 0,
    dataSentBytes: 0,
    dataReceivedBytes: 0,
    failedRequestsRate: 0,
    customMetricThresholdMet: false,
  },
  failuresByUrl: [],
}));

// What a run of this kind returns as its summary: its member of RunnerSummary.
declare module '../../types.ts' {
  interface KindSummaries {
    load: {
      kind: 'load';
      load: LoadInsight;
      failuresByUrl: { url: string; status: number | 'error'; count: number }[];
      requestsPerSecond?: number;
      /** Each configured threshold with the measured value; `load.customMetricThresholdMet` is all of them met. */
      thresholdChecks?: { name: string; limit: number; actual: number; met: boolean }[];
      /**
       * Second by second from the start: requests completed, errors, latency percentiles in ms and the most
       * connections open at once (absent in runs recorded before it was kept).
       */
      perSecond?: { second: number; requests: number; errors: number; p50: number; p95: number; p99: number; connections?: number }[];
      /** The stages the run followed, when its options declared them. */
      stages?: { durationSeconds: number; target: number }[];
      /** One generator's counters and histogram, for the merge (a generator's run only; never in a test's result). */
      part?: LoadPart;
      /** A test run by several generators: each one, where it ran and the requests it made. */
      generators?: { index: number; workerId: string | null; host: string | null; requests: number }[];
    };
  }
}
