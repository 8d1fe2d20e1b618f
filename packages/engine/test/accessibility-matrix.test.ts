import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../src/errors.ts';
import { accessibilityRunner } from '../src/runners/accessibility/index.ts';
import { report } from '../src/runners/accessibility/report.ts';
import { startA11yMatrixSite } from './fixtures/a11y-matrix-site.ts';
import { serverForSuite } from './fixtures/suite-server.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

const reasonOf = (options: Record<string, unknown>): { field: string; reason: string } | null => {
  try {
    accessibilityRunner.validate(testOf('accessibility', { pages: ['/'], ...options }));
    return null;
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return { field: err.field, reason: err.reason };
  }
};

/** axe on each engine × device × network (decision 0078): Debian's Chromium and Firefox, desktop and phone. */
describe('accessibility matrix', () => {
  const site = serverForSuite(startA11yMatrixSite);

  it('fails exactly the cells where a page breaks: the phone-only image, the button Firefox gets', async () => {
    const ctx = await makeContext();
    const options = { pages: ['/', '/menu', '/picker'], engines: ['chromium', 'firefox'], devices: ['desktop', 'phone'] };
    const result = await accessibilityRunner.run(testOf('accessibility', options), localTarget(site.url), ctx);
    expect(result.error).toBeUndefined();
    if (result.summary.kind !== 'accessibility') throw new Error('wrong summary');
    const cells = ['chromium/desktop', 'chromium/phone', 'firefox/desktop', 'firefox/phone'];
    const expected: Record<string, string> = {};
    for (const cell of cells) {
      expected[`${site.url}/ [${cell}]`] = 'passed';
      expected[`${site.url}/menu [${cell}]`] = cell.endsWith('phone') ? 'failed' : 'passed';
      expected[`${site.url}/picker [${cell}]`] = cell.startsWith('firefox') ? 'failed' : 'passed';
    }
    // Each page in each cell is a case named as a browser test's (history and the portal's matrix read them).
    expect(Object.fromEntries((result.summary.cases ?? []).map((c) => [c.name, c.status]))).toEqual(expected);
    expect(result.summary.cases?.every((c) => c.cell && c.name.endsWith(` [${c.cell}]`))).toBe(true);
    expect(result.totals).toEqual({ totalTests: 12, passedTests: 8, failedTests: 4, skippedTests: 0 });
    const menuOnPhone = result.summary.pages.find((p) => p.url === `${site.url}/menu` && p.cell === 'firefox/phone');
    expect(menuOnPhone?.violations?.map((v) => v.id)).toEqual(['image-alt']);
    expect(result.summary.cases?.find((c) => c.name === `${site.url}/menu [chromium/phone]`)?.error).toBe('1 rule broken: image-alt (critical)');
    expect(result.summary.pages.find((p) => p.url === `${site.url}/picker` && p.cell === 'firefox/desktop')?.violations?.map((v) => v.id)).toEqual(['button-name']);

    // The Firefox cells ran in Firefox: axe says which browser it analysed the page in.
    const raw = JSON.parse(await readFile(path.join(ctx.runDir, 'accessibility/axe-results.json'), 'utf8')) as { pages: { cell: string; userAgent: string; windowWidth: number }[] };
    expect(raw.pages.map((p) => p.cell)).toEqual(cells.flatMap((c) => [c, c, c]));
    const home = (cell: string) => raw.pages.find((p) => p.cell === cell)!;
    expect(home('firefox/desktop').userAgent).toContain('Firefox/');
    expect(home('chromium/desktop').userAgent).not.toContain('Firefox/');
    // A phone is a phone on both engines: its width, and its user agent (Chrome on Android, the Pixel 7's).
    expect([home('chromium/phone').windowWidth, home('firefox/phone').windowWidth]).toEqual([412, 412]);
    expect(home('firefox/phone').userAgent).toContain('Pixel 7');

    const html = report.body({ ...result, testName: 'Shop', group: 'G', kind: 'accessibility' } as never, result.summary, {});
    expect(html).toContain('Engines and devices (4 cells)');
    expect(html).toContain('fails on phone only');
    expect(html).toContain('fails on Firefox only');
    expect(report.verdict({} as never, result.summary)).toBe('4 of 12 pages in 4 cells fail accessibility checks');
  }, 240_000);

  it('reads as before on Chromium on the desktop: no cells, no cases, the same verdict', async () => {
    const result = await accessibilityRunner.run(testOf('accessibility', { pages: ['/', '/menu'] }), localTarget(site.url), await makeContext());
    if (result.summary.kind !== 'accessibility') throw new Error('wrong summary');
    expect(result.status).toBe('passed');
    expect(result.summary).not.toHaveProperty('cases');
    expect(result.summary.pages.map((p) => Object.keys(p).sort())).toEqual([
      ['passed', 'url', 'violations', 'violationsByImpact'],
      ['passed', 'url', 'violations', 'violationsByImpact'],
    ]);
    const html = report.body({ ...result, testName: 'Shop', group: 'G', kind: 'accessibility' } as never, result.summary, {});
    expect(html).not.toContain('cells');
    expect(report.verdict({} as never, result.summary)).toBe('All 2 pages pass accessibility checks');
  }, 60_000);

  it('refuses the matrix the browser kind refuses, in the same words, and WebKit until axe runs there', () => {
    expect(reasonOf({ engines: ['chromium', 'firefox'], devices: ['desktop', 'phone', 'tablet'], networks: ['none', 'slow-3g', 'fast-3g'] })).toEqual({
      field: 'options.networks',
      reason: '2 engines × 3 devices × 3 networks make 18 cells; a test may have at most 12: split it in two tests',
    });
    expect(reasonOf({ devices: ['watch'] })).toEqual({ field: 'options.devices.0', reason: 'unknown device "watch": the devices are desktop, phone, tablet' });
    expect(reasonOf({ engines: ['firefox', 'firefox'] })).toEqual({ field: 'options.engines', reason: 'lists the same engine twice' });
    expect(reasonOf({ engines: [] })).toEqual({ field: 'options.engines', reason: 'list at least one engine' });
    expect(reasonOf({ engines: ['opera'] })?.reason).toBe('unknown engine "opera": the engines are chromium, firefox');
    expect(reasonOf({ engines: ['chromium', 'webkit'] })).toEqual({ field: 'options.engines.1', reason: 'accessibility tests do not run on webkit yet: their engines are chromium, firefox' });
    expect(reasonOf({ engines: ['chromium', 'firefox'], devices: ['desktop', 'phone', 'tablet'], networks: ['none', 'slow-3g'] })).toBeNull();
  });
});
