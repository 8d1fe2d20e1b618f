import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRunner, SAMPLES_ARTIFACT } from '../src/runners/load/index.ts';
import { decodeSamples, mergeLoadResults } from '../src/runners/load/merge.ts';
import { percentile } from '../src/runners/load/stats.ts';
import { startCountingServer } from './fixtures/counting-server.ts';
import { serverForSuite } from './fixtures/suite-server.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

describe('load generators', () => {
  const site = serverForSuite(startCountingServer);

  it('two generators share the connections, start together and merge into what the site served', async () => {
    site.reset();
    const startAtMs = Date.now() + 300;
    const test = testOf('load', { requests: [{ path: '/?ms=2' }], connections: 5, durationSeconds: 1, generators: 2 });
    const runs = await Promise.all(
      [0, 1].map(async (index) => {
        const ctx = await makeContext({ loadGenerator: { index, count: 2, startAtMs } });
        const result = await loadRunner.run(test, localTarget(site.url), ctx);
        return { ctx, result };
      }),
    );
    await site.idle();
    const parts = runs.map(({ result }) => {
      if (result.summary.kind !== 'load' || !result.summary.part) throw new Error(result.error ?? 'no part');
      return result.summary.part;
    });
    // 3 + 2 connections: the first generator takes the odd one.
    expect(runs.map(({ result }) => (result.summary.kind === 'load' ? Math.max(...(result.summary.perSecond ?? []).map((s) => s.connections ?? 0)) : 0))).toEqual([3, 2]);
    // Neither started before the common start time.
    for (const { ctx } of runs) expect(ctx.logs.some((l) => l.includes('waiting for the common start'))).toBe(true);

    const merged = mergeLoadResults(parts, {});
    expect(merged.load.totalRequests).toBe(site.requests);
    expect(merged.load.totalRequests).toBe(parts[0]!.successful + parts[1]!.successful);

    const union: number[] = [];
    for (const { ctx, result } of runs) {
      expect(result.artifacts.map((a) => a.path)).toContain(SAMPLES_ARTIFACT);
      union.push(...decodeSamples(await readFile(path.join(ctx.runDir, SAMPLES_ARTIFACT))));
    }
    expect(union).toHaveLength(merged.load.totalRequests);
    const exact = percentile(union.sort((a, b) => a - b), 95);
    expect(Math.abs(merged.load.ninetyFifthPercentileResponseTime - exact)).toBeLessThanOrEqual(exact * 0.001 + 0.001);
  });

  it('a run that is not a generator keeps its summary as before, without a part', async () => {
    site.reset();
    const result = await loadRunner.run(testOf('load', { connections: 2, amount: 20, generators: 2 }), localTarget(site.url), await makeContext());
    if (result.summary.kind !== 'load') throw new Error(result.error);
    expect(result.summary.part).toBeUndefined();
    expect(result.summary.load.totalRequests).toBe(20);
    expect(result.artifacts).toHaveLength(1);
  });
});
