import { describe, expect, it } from 'vitest';
import { decodeSamples, encodeSamples, loadPartOf, mergeLoadResults, newHistogram, recordMs } from '../src/runners/load/merge.ts';
import { countInSecond, emptySamples, percentile } from '../src/runners/load/stats.ts';
import { shareOf, stagesShare } from '../src/runners/load/generators.ts';
import { loadInput } from '../src/runners/load/options.ts';

/** A generator's samples: `times` ms spread over seconds in order, `failed` of them answered 500. */
function generator(times: number[], options: { failed?: number; bytes?: number; seconds?: number } = {}) {
  const samples = emptySamples(options.seconds ?? 3);
  const perSecond = Math.ceil(times.length / (options.seconds ?? 3));
  times.forEach((t, i) => {
    const second = Math.floor(i / perSecond);
    samples.times.push(t);
    samples.timeSeconds.push(second);
    const failed = i < (options.failed ?? 0);
    countInSecond(samples, second, failed);
    if (failed) samples.failedResponses++;
    else samples.successful++;
    samples.bytesSent += 50;
    samples.bytesReceived += options.bytes ?? 200;
  });
  samples.connectionsBySecond = [2, 2, 2];
  return samples;
}

/** Deterministic pseudo-random times around `centre` ms. */
function times(count: number, centre: number, seed: number): number[] {
  let x = seed;
  return Array.from({ length: count }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return centre * (0.5 + x / 2 ** 31);
  });
}

describe('merging load generators', () => {
  // A fast generator (p95 ≈ 10 ms) with many responses and a slow one (p95 ≈ 600 ms) with few: the mean of the
  // p95s (~300 ms) is far from the p95 of all responses.
  const fast = times(1900, 7, 1);
  const slow = times(300, 400, 2);
  const a = generator(fast, { failed: 10 });
  const b = generator(slow, { failed: 3, bytes: 1000 });
  const failures = (n: number) => [{ url: 'http://site.test/', status: 500 as const, count: n }];
  const merged = mergeLoadResults([loadPartOf(a, failures(10)), loadPartOf(b, failures(3))], { maxP95Ms: 1000 });

  it('sums the counters, the bytes, the failures and the per-second counts', () => {
    expect(merged.load.totalRequests).toBe(2200);
    expect(merged.load.successfulRequests).toBe(2200 - 13);
    expect(merged.load.failedRequestsCount).toBe(13);
    expect(merged.load.failedRequestsRate).toBeCloseTo((13 / 2200) * 100, 10);
    expect(merged.load.dataSentBytes).toBe(2200 * 50);
    expect(merged.load.dataReceivedBytes).toBe(1900 * 200 + 300 * 1000);
    expect(merged.failuresByUrl).toEqual(failures(13));
    expect(merged.perSecond.map((s) => s.requests)).toEqual([a, b].reduce((acc, s) => acc.map((v, i) => v + (s.requestsBySecond[i] ?? 0)), [0, 0, 0]));
    expect(merged.perSecond.map((s) => s.connections)).toEqual([4, 4, 4]);
    expect(merged.requestsPerSecond).toBeCloseTo(2200 / 3, 10);
    const all = [...fast, ...slow];
    expect(merged.load.averageResponseTime).toBeCloseTo(all.reduce((x, y) => x + y, 0) / all.length, 6);
    expect(merged.load.minResponseTime).toBe(Math.min(...all));
    expect(merged.load.maxResponseTime).toBe(Math.max(...all));
  });

  it('reads the p95 from the merged histogram: the p95 of all responses, not the mean of the p95s', () => {
    const union = newHistogram();
    for (const t of [...fast, ...slow]) recordMs(union, t);
    expect(merged.load.ninetyFifthPercentileResponseTime).toBe(union.getValueAtPercentile(95) / 1000);

    const exact = percentile([...fast, ...slow].sort((x, y) => x - y), 95);
    // 3 significant digits: within 0.1 % of the exact nearest-rank p95 (plus the µs rounding).
    expect(Math.abs(merged.load.ninetyFifthPercentileResponseTime - exact)).toBeLessThanOrEqual(exact * 0.001 + 0.001);
    const meanOfP95s = (percentile([...fast].sort((x, y) => x - y), 95) + percentile([...slow].sort((x, y) => x - y), 95)) / 2;
    expect(Math.abs(meanOfP95s - exact)).toBeGreaterThan(100);
  });

  it('judges the thresholds on the merged figures', () => {
    expect(merged.checks).toEqual([{ name: 'maxP95Ms', limit: 1000, actual: merged.load.ninetyFifthPercentileResponseTime, met: true }]);
    const strict = mergeLoadResults([loadPartOf(a, []), loadPartOf(b, [])], { maxP95Ms: 50 });
    // Each generator alone: the fast one passes 50 ms, the slow one does not; together the p95 is the slow one's.
    expect(strict.load.customMetricThresholdMet).toBe(false);
  });

  it('keeps per-second percentiles of every generator’s responses of that second', () => {
    const second0 = [...fast.slice(0, 634), ...slow.slice(0, 100)].sort((x, y) => x - y);
    expect(Math.abs(merged.perSecond[0]!.p95 - percentile(second0, 95))).toBeLessThanOrEqual(percentile(second0, 95) * 0.001 + 0.001);
  });

  it('merges a generator that got no response', () => {
    const none = loadPartOf(emptySamples(3), []);
    const alone = mergeLoadResults([none, loadPartOf(b, [])], {});
    expect(alone.load.minResponseTime).toBe(Math.min(...slow));
    expect(mergeLoadResults([none], {}).load).toMatchObject({ totalRequests: 0, minResponseTime: 0, ninetyFifthPercentileResponseTime: 0 });
  });

  it('keeps raw samples as float64s exactly', () => {
    expect(decodeSamples(encodeSamples(fast))).toEqual(fast);
  });
});

describe('sharing a load test among generators', () => {
  it('shares connections, requests and stage targets so that they add up to what the manifest asks', () => {
    expect([0, 1, 2].map((i) => shareOf(10, i, 3))).toEqual([4, 3, 3]);
    const stages = [{ durationSeconds: 5, target: 7 }, { durationSeconds: 5, target: 0 }];
    expect([0, 1].map((i) => stagesShare(stages, i, 2).map((s) => s.target))).toEqual([[4, 0], [3, 0]]);
  });

  it('accepts 1 to 16 generators, default 1, and says why it refuses more than the connections', () => {
    const parse = (options: Record<string, unknown>) => loadInput.safeParse({ options, thresholds: {} });
    expect(parse({}).data?.options.generators).toBe(1);
    expect(parse({ generators: 16, connections: 16 }).success).toBe(true);
    const tooMany = parse({ generators: 17, connections: 100 });
    expect(tooMany.error?.issues[0]?.message).toBe('must be at most 16 generators');
    expect(parse({ generators: 0 }).error?.issues[0]?.message).toBe('must be at least 1 generator');
    expect(parse({ generators: 1.5 }).error?.issues[0]?.message).toBe('must be a whole number of generators');
    const few = parse({ generators: 4, connections: 3 });
    expect(few.error?.issues[0]).toMatchObject({ path: ['options', 'generators'] });
    expect(few.error?.issues[0]?.message).toMatch(/at most the connections \(3\)/);
  });
});
