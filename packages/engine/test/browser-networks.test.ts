import { describe, expect, it } from 'vitest';
import { browserRunner } from '../src/runners/browser/index.ts';
import { report } from '../src/runners/browser/report.ts';
import { startNetworkSite } from './fixtures/network-site.ts';
import { serverForSuite, suiteCopyForSuite } from './fixtures/suite-server.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

/** Browser tests on shaped networks (decision 0078, Networks): Debian's Chromium and Firefox, each cell through its network's proxy. */
describe('browser networks', () => {
  const site = serverForSuite(startNetworkSite);
  const suite = suiteCopyForSuite('network-suite');

  it('fails the page that needs more than 10 s on slow 3G there only; WebSockets take the round trip', async () => {
    const ctx = await makeContext({ workers: 2 });
    const options = { engines: ['chromium', 'firefox'], networks: ['none', 'slow-3g', 'fast-3g'], testTimeoutMs: 20_000 };
    const result = await browserRunner.run(testOf('browser', options, { suiteDir: suite.dir }), localTarget(site.url), ctx);
    expect(result.error).toBeUndefined();
    if (result.summary.kind !== 'browser') throw new Error('wrong summary');
    const status = Object.fromEntries(result.summary.cases.map((c) => [c.name, c.status]));
    const expected: Record<string, string> = {};
    for (const cell of ['chromium', 'firefox'].flatMap((engine) => ['none', 'slow-3g', 'fast-3g'].map((network) => `${engine}/desktop/${network}`))) {
      const network = cell.split('/')[2];
      expected[`shop.spec.ts › the shop shows its content within 10 s [${cell}]`] = network === 'slow-3g' ? 'failed' : 'passed';
      expected[`shop.spec.ts › the WebSocket echo takes the round trip of the network [${cell}]`] = 'passed';
    }
    expect(status).toEqual(expected);
    const slow = result.summary.cases.find((c) => c.cell === 'chromium/desktop/slow-3g' && c.name.includes('within 10 s'))!;
    expect(slow.error).toMatch(/Timeout 10000ms exceeded/);
    const html = report.body({ ...result, testName: 'Shop', group: 'G', kind: 'browser' } as never, result.summary, {});
    expect(html).toContain('Engines, devices and networks (6 cells)');
    expect(html).toContain('fails on slow 3G only');
  }, 180_000);

  it('offline: the page fails with a network error and the site sees no request', async () => {
    site.resetCounters();
    const result = await browserRunner.run(testOf('browser', { networks: ['offline'], grep: 'within 10 s' }, { suiteDir: suite.dir }), localTarget(site.url), await makeContext());
    if (result.summary.kind !== 'browser') throw new Error('wrong summary');
    expect(result.summary.cases.map((c) => [c.name, c.status])).toEqual([['shop.spec.ts › the shop shows its content within 10 s [chromium/desktop/offline]', 'failed']]);
    expect(result.summary.cases[0]!.error).toMatch(/net::ERR_/);
    expect(site.requests).toBe(0);
  }, 120_000);
});
