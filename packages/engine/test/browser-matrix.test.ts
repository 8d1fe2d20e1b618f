import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserRunner } from '../src/runners/browser/index.ts';
import type { PlaywrightJsonReport } from '../src/runners/browser/json-report.ts';
import { report } from '../src/runners/browser/report.ts';
import { startHardenedServer } from './fixtures/hardened-server.ts';
import { startMatrixSite } from './fixtures/matrix-site.ts';
import { serverForSuite, suiteCopyForSuite } from './fixtures/suite-server.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

/** Browser tests on several engines and devices (decision 0078): Debian's Chromium and Firefox, desktop and phone. */
describe('browser matrix', () => {
  const site = serverForSuite(startMatrixSite);
  const suite = suiteCopyForSuite('matrix-suite');
  const policySuite = suiteCopyForSuite('browser-suite');

  it('fails exactly the cells where the site breaks: the picker on Firefox, the price table on a phone', async () => {
    const ctx = await makeContext({ workers: 2 });
    const options = { engines: ['chromium', 'firefox'], devices: ['desktop', 'phone'] };
    const result = await browserRunner.run(testOf('browser', options, { suiteDir: suite.dir }), localTarget(site.url), ctx);
    expect(result.error).toBeUndefined();
    if (result.summary.kind !== 'browser') throw new Error('wrong summary');
    const status = Object.fromEntries(result.summary.cases.map((c) => [c.name, c.status]));
    const cells = ['chromium/desktop', 'chromium/phone', 'firefox/desktop', 'firefox/phone'];
    const expected: Record<string, string> = {};
    for (const cell of cells) {
      expected[`home.spec.ts › home shows the shop [${cell}]`] = 'passed';
      expected[`picker.spec.ts › the colour picker is offered [${cell}]`] = cell.startsWith('firefox') ? 'failed' : 'passed';
      expected[`prices.spec.ts › the price table fits the screen [${cell}]`] = cell.endsWith('phone') ? 'failed' : 'passed';
      expected[`prices.spec.ts › the cell is the engine and device it says [${cell}]`] = 'passed';
    }
    expect(status).toEqual(expected);
    expect(result.totals).toEqual({ totalTests: 16, passedTests: 12, failedTests: 4, skippedTests: 0 });
    expect(result.summary.cases.every((c) => c.cell && c.name.endsWith(` [${c.cell}]`))).toBe(true);
    // Each failing cell says why, with its steps and its screenshot.
    const picker = result.summary.cases.find((c) => c.name === 'picker.spec.ts › the colour picker is offered [firefox/phone]')!;
    expect(picker.error).toContain('Your browser cannot pick colours');
    expect(picker.steps?.map((s) => s.title)).toEqual([expect.stringContaining('Navigate to "/picker"'), expect.stringContaining('toHaveText')]);
    expect(picker.screenshot).toMatch(/\.png$/);

    // Playwright's JUnit names the cell; the report shows the matrix and says where each case fails.
    const junit = await readFile(path.join(ctx.runDir, 'browser/junit.xml'), 'utf8');
    expect(junit).toContain('<testcase name="[firefox/phone] the colour picker is offered" classname="picker.spec.ts"');
    const html = report.body({ ...result, testName: 'Shop', group: 'G', kind: 'browser' } as never, result.summary, {});
    expect(html).toContain('Engines and devices (4 cells)');
    expect(html).toContain('fails on Firefox only');
    expect(html).toContain('fails on phone only');

    // One browser an engine (issue 40): the two workers' four cells connected to one Chromium and one Firefox.
    expect(ctx.logs).toContain('spec browsers started {"chromium":1,"_bidiFirefox":1}');
    const json = JSON.parse(await readFile(path.join(ctx.runDir, 'browser/results.json'), 'utf8')) as PlaywrightJsonReport;
    const chromiumProcesses = new Set(
      (json.suites ?? []).flatMap(function specsOf(s): string[] {
        return [...(s.specs ?? []).flatMap((spec) => spec.tests.flatMap((t) => (t.annotations ?? []).filter((a) => a.type === 'browser-process').map((a) => a.description ?? ''))), ...(s.suites ?? []).flatMap(specsOf)];
      }),
    );
    expect(chromiumProcesses.size).toBe(1);
  }, 240_000);

  it('drives Firefox through the policy proxy: another origin on the same loopback is refused', async () => {
    const server = await startHardenedServer();
    const other = await startHardenedServer();
    process.env.FULLSTOP_OTHER_ORIGIN = other.url;
    try {
      const result = await browserRunner.run(testOf('browser', { specs: 'policy.check.ts', engines: ['firefox'] }, { suiteDir: policySuite.dir }), localTarget(server.url), await makeContext());
      expect(result.error).toBeUndefined();
      expect(result.totals).toEqual({ totalTests: 1, passedTests: 1, failedTests: 0, skippedTests: 0 });
      expect(other.requests).toBe(0);
    } finally {
      delete process.env.FULLSTOP_OTHER_ORIGIN;
      await other.close();
      await server.close();
    }
  }, 120_000);

  it('ends a Firefox test on a machine without Firefox as engine_missing, saying how to install it', async () => {
    const firefoxPath = '/nonexistent/firefox-esr';
    const result = await browserRunner.run(testOf('browser', { engines: ['chromium', 'firefox'] }, { suiteDir: suite.dir }), localTarget(site.url), await makeContext({ firefoxPath }));
    expect(result).toMatchObject({
      status: 'error',
      errorCode: 'engine_missing',
      error: `The browser test needs Firefox, which is not installed at ${firefoxPath}. Install it with: apt-get install -y firefox-esr`,
    });
    // A Chromium-only test does not need it.
    const chromiumOnly = await browserRunner.run(testOf('browser', { specs: 'home.spec.ts' }, { suiteDir: suite.dir }), localTarget(site.url), await makeContext({ firefoxPath }));
    expect(chromiumOnly.status).toBe('passed');
  }, 120_000);
});
