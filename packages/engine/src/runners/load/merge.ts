/**
 * Distributed load: what one generator hands back (its counters and its response times as an HDR histogram) and
 * how the parts of a test run by several generators become one result. Counters add up exactly, and so do HDR
 * histograms: the merged p95 is the p95 of every response of every generator (within the histogram's precision,
 * 3 significant digits), never an average of the generators' p95s.
 */
import * as hdr from 'hdr-histogram-js';
import type { LoadInsight } from '@fullstop/contracts';
import type { LoadThresholds } from './options.ts';
import { checkThresholds, type LoadSamples, type RunSecond, type ThresholdCheck } from './stats.ts';

/** Histograms count microseconds with 3 significant digits (under 0.1 % of error), in pure JS (no WebAssembly). */
const SIGNIFICANT_DIGITS = 3;
const BUCKET_BITS = 64;

export type LoadHistogram = hdr.Histogram;

export function newHistogram(): LoadHistogram {
  return hdr.build({ bitBucketSize: BUCKET_BITS, autoResize: true, numberOfSignificantValueDigits: SIGNIFICANT_DIGITS, useWebAssembly: false });
}

/** Records a response time given in ms (sub-millisecond precision) as whole microseconds, at least 1. */
export function recordMs(histogram: LoadHistogram, ms: number): void {
  histogram.recordValue(Math.max(1, Math.round(ms * 1000)));
}

export function encodeHistogram(histogram: LoadHistogram): string {
  return hdr.encodeIntoCompressedBase64(histogram);
}

export function decodeHistogram(base64: string): LoadHistogram {
  const decoded = hdr.decodeFromCompressedBase64(base64, BUCKET_BITS, false);
  // A decoded histogram is sized for what it holds; one that grows takes others' values too.
  const histogram = newHistogram();
  histogram.add(decoded);
  return histogram;
}

/** The nearest-rank percentile in ms as the histogram has it (0 when it holds nothing). */
export function histogramPercentileMs(histogram: LoadHistogram, p: number): number {
  return histogram.totalCount === 0 ? 0 : histogram.getValueAtPercentile(p) / 1000;
}

/** One generator's result: everything needed to merge it with the others exactly. */
export interface LoadPart {
  successful: number;
  failedResponses: number;
  errors: number;
  bytesSent: number;
  bytesReceived: number;
  elapsedSeconds: number;
  /** Exact sum, least and most of the response times in ms (the histogram rounds them). */
  sumMs: number;
  minMs: number;
  maxMs: number;
  /** Per second from the generators' common start. */
  requestsBySecond: number[];
  errorsBySecond: number[];
  connectionsBySecond: number[];
  /** Every response time (µs), HDR histogram in compressed base64; and one per second for the per-second percentiles. */
  histogram: string;
  secondHistograms: string[];
  failuresByUrl: { url: string; status: number | 'error'; count: number }[];
}

export interface MergedLoad {
  load: LoadInsight;
  checks: ThresholdCheck[];
  requestsPerSecond: number;
  perSecond: RunSecond[];
  failuresByUrl: LoadPart['failuresByUrl'];
}

function sumBySecond(arrays: number[][]): number[] {
  const out: number[] = [];
  for (const values of arrays) values.forEach((v, s) => (out[s] = (out[s] ?? 0) + v));
  return Array.from(out, (v) => v ?? 0);
}

/**
 * The parts of one load test run by several generators that started together, as one result: counters and
 * per-second counts summed (second s of every generator is the same second), histograms added, every percentile
 * read from the merged histogram, and the thresholds judged on the merged figures. Connections per second are
 * the sum of each generator's peak in that second (the peaks may fall at different instants: an upper bound).
 */
export function mergeLoadResults(parts: readonly LoadPart[], thresholds: LoadThresholds): MergedLoad {
  const all = newHistogram();
  let min = Infinity;
  for (const part of parts) {
    const own = decodeHistogram(part.histogram);
    if (own.totalCount > 0) min = Math.min(min, part.minMs);
    all.add(own);
  }
  const sum = (pick: (p: LoadPart) => number) => parts.reduce((acc, p) => acc + pick(p), 0);
  const successful = sum((p) => p.successful);
  const failed = sum((p) => p.failedResponses + p.errors);
  const total = successful + failed;
  const responses = all.totalCount;
  const elapsedSeconds = parts.reduce((max, p) => Math.max(max, p.elapsedSeconds), 0);
  const requestsPerSecond = elapsedSeconds > 0 ? total / elapsedSeconds : 0;
  const average = responses > 0 ? sum((p) => p.sumMs) / responses : 0;
  const max = parts.reduce((m, p) => Math.max(m, p.maxMs), 0);
  const p95 = histogramPercentileMs(all, 95);
  const failedRate = total > 0 ? (failed / total) * 100 : 0;
  const checks = checkThresholds(thresholds, { maxP95Ms: p95, maxAverageMs: average, maxResponseMs: max, maxFailedRate: failedRate, minRequestsPerSecond: requestsPerSecond });

  const requestsBySecond = sumBySecond(parts.map((p) => p.requestsBySecond));
  const errorsBySecond = sumBySecond(parts.map((p) => p.errorsBySecond));
  const connectionsBySecond = sumBySecond(parts.map((p) => p.connectionsBySecond));
  const seconds = Math.max(requestsBySecond.length, Math.floor(elapsedSeconds), ...parts.map((p) => p.secondHistograms.length));
  const perSecond: RunSecond[] = [];
  for (let second = 0; second < seconds; second++) {
    const h = newHistogram();
    for (const p of parts) {
      const encoded = p.secondHistograms[second];
      if (encoded) h.add(decodeHistogram(encoded));
    }
    perSecond.push({
      second,
      requests: requestsBySecond[second] ?? 0,
      errors: errorsBySecond[second] ?? 0,
      p50: histogramPercentileMs(h, 50),
      p95: histogramPercentileMs(h, 95),
      p99: histogramPercentileMs(h, 99),
      connections: connectionsBySecond[second] ?? 0,
    });
  }

  const failures = new Map<string, LoadPart['failuresByUrl'][number]>();
  for (const f of parts.flatMap((p) => p.failuresByUrl)) {
    const key = `${f.url}\u0000${f.status}`;
    const seen = failures.get(key);
    failures.set(key, { ...f, count: (seen?.count ?? 0) + f.count });
  }
  const failuresByUrl = [...failures.values()].sort((a, b) => b.count - a.count);

  return {
    requestsPerSecond,
    checks,
    perSecond,
    failuresByUrl,
    load: {
      averageResponseTime: average,
      maxResponseTime: max,
      minResponseTime: Number.isFinite(min) ? min : 0,
      ninetyFifthPercentileResponseTime: p95,
      failedRequestsCount: failed,
      totalRequests: total,
      successfulRequests: successful,
      dataSentBytes: sum((p) => p.bytesSent),
      dataReceivedBytes: sum((p) => p.bytesReceived),
      failedRequestsRate: failedRate,
      customMetricThresholdMet: checks.every((c) => c.met),
    },
  };
}

/** One generator's part of its samples and the failures it counted. */
export function loadPartOf(samples: LoadSamples, failuresByUrl: LoadPart['failuresByUrl']): LoadPart {
  const histogram = newHistogram();
  const bySecond: LoadHistogram[] = [];
  let sumMs = 0;
  let minMs = Infinity;
  let maxMs = 0;
  samples.times.forEach((ms, i) => {
    recordMs(histogram, ms);
    const second = samples.timeSeconds[i] ?? 0;
    for (let s = bySecond.length; s <= second; s++) bySecond.push(newHistogram());
    recordMs(bySecond[second]!, ms);
    sumMs += ms;
    minMs = Math.min(minMs, ms);
    maxMs = Math.max(maxMs, ms);
  });
  return {
    successful: samples.successful,
    failedResponses: samples.failedResponses,
    errors: samples.errors,
    bytesSent: samples.bytesSent,
    bytesReceived: samples.bytesReceived,
    elapsedSeconds: samples.elapsedSeconds,
    sumMs,
    minMs: Number.isFinite(minMs) ? minMs : 0,
    maxMs,
    requestsBySecond: [...samples.requestsBySecond],
    errorsBySecond: [...samples.errorsBySecond],
    connectionsBySecond: [...samples.connectionsBySecond],
    histogram: encodeHistogram(histogram),
    secondHistograms: bySecond.map(encodeHistogram),
    failuresByUrl,
  };
}

/**
 * A generator's raw response times, in its run folder. Here rather than beside the runner: the server reads it
 * with the merge, and must not load the runner (autocannon) to know a file name.
 */
export const SAMPLES_ARTIFACT = 'load/response-times.f64';

/** Raw response times (ms) as an artifact file: little-endian float64s, in the order they came. */
export function encodeSamples(times: readonly number[]): Buffer {
  const buffer = Buffer.alloc(times.length * 8);
  times.forEach((t, i) => buffer.writeDoubleLE(t, i * 8));
  return buffer;
}

export function decodeSamples(buffer: Buffer): number[] {
  const times: number[] = [];
  for (let offset = 0; offset + 8 <= buffer.length; offset += 8) times.push(buffer.readDoubleLE(offset));
  return times;
}
