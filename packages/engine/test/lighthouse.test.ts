import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lighthouseRunner } from '../src/runners/lighthouse/index.ts';
import { netJailSupport } from '../src/sandbox/net-jail.ts';
import { startPlantedServer } from './fixtures/planted-server.ts';
import { rebindingNetwork, startTwinServers } from './fixtures/rebinding.ts';
import { serverForSuite } from './fixtures/suite-server.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

// One page only: lighthouse takes ~9 s and ~290 MB a page.
const jail = netJailSupport(null);
describe('lighthouse runner', () => {
  const server = serverForSuite(startPlantedServer);

  it(`scores the four categories, applies thresholds and writes the HTML report, its Chromium ${jail.ok ? 'in a network namespace of its own' : `unjailed (${jail.reason})`}`, async () => {
    const ctx = await makeContext();
    // The network namespaces of the Chromium processes with this run's profile, sampled while Lighthouse runs.
    const seen = new Set<string>();
    const sampler = setInterval(() => {
      for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
        try {
          if (readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(`--user-data-dir=${ctx.runDir}`)) seen.add(readlinkSync(`/proc/${pid}/ns/net`));
        } catch {
          // Gone meanwhile, or not ours to read.
        }
      }
    }, 100);
    const result = await lighthouseRunner.run(
      testOf('lighthouse', { pages: ['/a11y'] }, { thresholds: { minPerformance: 50, minAccessibility: 95 } }),
      localTarget(server.url),
      ctx,
    ).finally(() => clearInterval(sampler));
    expect(result.error).toBeUndefined();
    expect(seen.size).toBeGreaterThan(0);
    const own = readlinkSync('/proc/self/ns/net');
    if (jail.ok) expect([...seen].filter((ns) => ns === own)).toEqual([]);
    else expect([...seen]).toEqual([own]);
    if (result.summary.kind !== 'lighthouse') throw new Error('wrong summary');
    const [page] = result.summary.pages;
    expect(page?.error).toBeUndefined();
    expect(Object.keys(page?.scores ?? {})).toEqual(['performance', 'accessibility', 'best-practices', 'seo']);
    // The planted page misses alt text, a label and a title: accessibility falls under 95, nothing else is slow.
    expect(page?.scores.performance).toBeGreaterThanOrEqual(50);
    expect(page?.scores.accessibility).toBeLessThan(95);
    expect(page?.failedThresholds).toEqual([`accessibility ${page?.scores.accessibility} < 95`]);
    // A tiny local page leaves little to save: whatever Lighthouse suggests comes with the savings it estimated.
    expect(page?.opportunities).toBeInstanceOf(Array);
    for (const o of page?.opportunities ?? []) expect(Math.max(o.savingsMs ?? 0, o.savingsBytes ?? 0)).toBeGreaterThan(0);
    expect(result.status).toBe('failed');
    expect(result.totals).toEqual({ totalTests: 1, passedTests: 0, failedTests: 1, skippedTests: 0 });
    const html = result.artifacts.find((a) => a.kind === 'html-report');
    expect(await readFile(path.join(ctx.runDir, html!.path), 'utf8')).toContain('Lighthouse Report');
  });

  it('reaches a rebinding host only at the address the guard approved (its Chromium goes through the proxy)', async () => {
    const twin = await startTwinServers();
    try {
      const network = rebindingNetwork('rebind.test');
      const result = await lighthouseRunner.run(
        testOf('lighthouse', { pages: ['/'] }),
        { baseUrl: `http://rebind.test:${twin.port}/`, allowedOrigins: [], allowPrivateAddresses: false },
        await makeContext({ network }),
      );
      if (result.summary.kind !== 'lighthouse') throw new Error(result.error);
      expect(result.summary.pages[0]?.error).toBeUndefined();
      expect(result.summary.pages[0]?.scores.accessibility).toBeGreaterThan(0);
      expect(twin.publicHosts.length).toBeGreaterThanOrEqual(1);
      expect(twin.privateHits).toBe(0);
      expect(network.calls).toBe(1);
    } finally {
      await twin.close();
    }
  });
});
