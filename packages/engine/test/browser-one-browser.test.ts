import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { browserRunner } from '../src/runners/browser/index.ts';
import { browserPaths } from '../src/runners/browser/config.ts';
import { startCellSite } from './fixtures/cell-site.ts';
import { writeSuite } from './fixtures/reporting-spec.ts';
import { serverForSuite, suiteCopyForSuite } from './fixtures/suite-server.ts';
import { CHROMIUM_PATH, localTarget, makeContext, testOf } from './helpers.ts';

interface PageRecord {
  cell: string;
  seen?: { missing: string[] };
}

/** A matrix's cells on one engine are contexts of one browser (issue 40), each with its own device, network and state; those that wait run together. */
describe('one browser per engine', () => {
  const site = serverForSuite(startCellSite);
  const suite = suiteCopyForSuite('cell-suite');

  it('starts one Chromium and one Firefox for 8 cells, each cell with its own viewport, network and no other cell’s cookie', async () => {
    const ctx = await makeContext();
    const options = {
      engines: ['chromium', 'firefox'],
      devices: ['desktop', 'phone'],
      networks: ['none', 'slow-3g'],
      pages: [{ path: '/', expect: ['#w-1280', '#w-412', '#slow', '#quick', '#fresh'] }],
      pageChecks: { axe: 'off', links: false, settleMs: 0 },
    };
    const result = await browserRunner.run(testOf('browser', options), localTarget(site.url), ctx);
    expect(result.error).toBeUndefined();

    // One browser an engine, where every cell used to start its own.
    expect(ctx.logs).toContain('page check browsers started {"chromium":1,"firefox":1}');

    // Each cell finds its own width and its own network, and no trace of the cell before it.
    const { pages } = JSON.parse(await readFile(path.join(ctx.runDir, 'browser/page-checks.json'), 'utf8')) as { pages: PageRecord[] };
    const missing = Object.fromEntries(pages.map((p) => [p.cell, p.seen?.missing]));
    const expected: Record<string, string[]> = {};
    for (const engine of ['chromium', 'firefox'])
      for (const device of ['desktop', 'phone'])
        for (const network of ['none', 'slow-3g']) {
          expected[`${engine}/${device}/${network}`] = [device === 'desktop' ? '#w-412' : '#w-1280', network === 'none' ? '#slow' : '#quick'];
        }
    expect(missing).toEqual(expected);
    expect(site.pageRequestsWithCookies).toBe(0);
    // What the client reads: the case says what its cell missed, and nothing else.
    if (result.summary.kind !== 'browser') throw new Error('wrong summary');
    const phoneSlow = result.summary.cases.find((c) => c.cell === 'firefox/phone/slow-3g')!;
    expect(phoneSlow.error).toBe('key elements missing: #w-1280, #quick');
    // Cells that wait run together: an engine's two slow-3G cells fit the core together, so a second visit of the
    // home page began before the first one's ping (one after another, never). The results read in the matrix's order.
    expect(site.mostVisitsAtOnce).toBeGreaterThanOrEqual(2);
    expect(result.summary.cases.map((c) => c.cell)).toEqual(Object.keys(expected));
  }, 90_000);

  it('runs the spec files and the page checks side by side when the attempt holds two cores, with the same verdicts as one after the other', async () => {
    // Page checks that take a while (settled 2.5 s a page): the specs' visits come while they go on, or after them.
    const options = {
      engines: ['chromium'],
      devices: ['desktop', 'phone'],
      specs: '*.spec.ts',
      pages: [{ path: '/?from=check', expect: ['#w-1280'] }, { path: '/about?from=check' }],
      pageChecks: { axe: 'off', links: false, settleMs: 2500 },
    };
    const run = async (cores: number) => {
      const from = site.pagesAsked.length;
      const ctx = await makeContext({ workers: 1, cores });
      const result = await browserRunner.run(testOf('browser', options, { suiteDir: suite.dir }), localTarget(site.url), ctx);
      expect(result.error).toBeUndefined();
      if (result.summary.kind !== 'browser') throw new Error('wrong summary');
      // How often the site's visitor changed from the specs to the page checks or back: once when one part follows the other.
      // (A spec's click on the contact link asks for an address of neither: not counted.)
      const bySpec = site.pagesAsked
        .slice(from)
        .filter((url) => url.includes('from='))
        .map((url) => url.includes('from=spec'));
      return { cases: result.summary.cases.map((c) => `${c.name}: ${c.status}`), changes: bySpec.filter((spec, i) => i > 0 && spec !== bySpec[i - 1]).length, logs: ctx.logs };
    };
    const alone = await run(1);
    expect(alone.changes).toBe(1);
    const both = await run(2);
    expect(both.changes).toBeGreaterThan(1);
    expect(both.cases).toEqual(alone.cases);
    // One Chromium for the whole test, either way: the browser host's, which the specs' workers and the page checks share.
    for (const { logs } of [alone, both]) {
      expect(logs).toContain('shared browsers started {"chromium":1}');
      expect(logs).toContain('page check browsers started {}');
      expect(logs).toContain('page check browsers shared with the spec files {"chromium":1}');
      expect(logs).toContain('spec browsers started {}');
    }
    // The specs' cases first (by file, then cell), then the page checks' in the matrix's order; a phone fails both wide layouts.
    const pageCases = (cell: string, status: string) => ['/', '/about'].map((p) => `page check › ${p}?from=check [chromium/${cell}]: ${p === '/' ? status : 'passed'}`);
    expect(both.cases).toEqual([
      'about.spec.ts › about is read on a wide screen [chromium/desktop]: passed',
      'about.spec.ts › about is read on a wide screen [chromium/phone]: failed',
      'contact.spec.ts › contact is a click away [chromium/desktop]: passed',
      'contact.spec.ts › contact is a click away [chromium/phone]: passed',
      'home.spec.ts › home is fresh and quick [chromium/desktop]: passed',
      'home.spec.ts › home is fresh and quick [chromium/phone]: passed',
      ...pageCases('desktop', 'passed'),
      ...pageCases('phone', 'failed'),
    ]);
  }, 180_000);

  it('runs spec cells on a shaped network two at once within one core, each on its own worker, with the verdicts they had', async () => {
    // 4G keeps half a core busy (lib/cell-weight.ts): two such cells share the one core the attempt holds.
    const ctx = await makeContext({ workers: 1 });
    const options = { engines: ['chromium'], devices: ['desktop', 'phone'], networks: ['4g'], specs: '*.spec.ts' };
    const result = await browserRunner.run(testOf('browser', options, { suiteDir: suite.dir }), localTarget(site.url), ctx);
    if (result.summary.kind !== 'browser') throw new Error('wrong summary');
    expect(ctx.logs).toContain('spec workers {"workers":2,"cells":2,"cores":1}');
    expect(ctx.logs).toContain('spec browsers started {"chromium":1}');
    // What one cell at a time gives (the page-check test above): a phone fails the wide layout, nothing else fails.
    expect(result.summary.cases.map((c) => `${c.name}: ${c.status}`)).toEqual([
      'about.spec.ts › about is read on a wide screen [chromium/desktop/4g]: passed',
      'about.spec.ts › about is read on a wide screen [chromium/phone/4g]: failed',
      'contact.spec.ts › contact is a click away [chromium/desktop/4g]: passed',
      'contact.spec.ts › contact is a click away [chromium/phone/4g]: passed',
      'home.spec.ts › home is fresh and quick [chromium/desktop/4g]: passed',
      'home.spec.ts › home is fresh and quick [chromium/phone/4g]: passed',
    ]);
    // The generated config holds each cell to one worker: the two at once are two cells, never one cell twice.
    const config = await readFile(browserPaths(ctx.runDir).config, 'utf8');
    expect(config.match(/"workers": \d+/g)).toEqual(['"workers": 2', '"workers": 1', '"workers": 1']);
  }, 120_000);

  it('launches the spec files’ shared browser again when it dies: the cells after it pass on a new one', async () => {
    const dir = await writeSuite('fullstop-crash-suite-', {
      'crash.spec.ts': [
        "import { expect, test } from '@playwright/test';",
        "test('loads the home page, then the desktop cell crashes the browser', async ({ page, browser }, testInfo) => {",
        "  await page.goto('/');",
        "  await expect(page.locator('h1')).toHaveText('Cell');",
        "  if (testInfo.project.name.endsWith('/desktop')) {",
        '    const cdp = await browser.newBrowserCDPSession();',
        "    await cdp.send('Browser.crash').catch(() => undefined);",
        '  }',
        '});',
      ],
    });
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const ctx = await makeContext({ workers: 1 });
    const result = await browserRunner.run(testOf('browser', { engines: ['chromium'], devices: ['desktop', 'phone'], specs: 'crash.spec.ts' }, { suiteDir: dir }), localTarget(site.url), ctx);
    if (result.summary.kind !== 'browser') throw new Error('wrong summary');
    // The phone's cell ran after the crash, on the browser launched again for its worker.
    expect(result.summary.cases.find((c) => c.cell === 'chromium/phone')?.status).toBe('passed');
    expect(ctx.logs).toContain('spec browsers started {"chromium":2}');
  }, 120_000);

  it('starts a page-check browser once more when its first start fails, so the pages are judged, not our start', async () => {
    // A Chromium whose first start exits at once (as a start past its time on a starved machine ends), then starts.
    const dir = await mkdtemp(path.join(tmpdir(), 'fullstop-flaky-chromium-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const mark = path.join(dir, 'started-once');
    const chromiumPath = path.join(dir, 'chromium');
    await writeFile(chromiumPath, `#!/bin/sh\nif [ ! -e '${mark}' ]; then : > '${mark}'; exit 1; fi\nexec '${CHROMIUM_PATH}' "$@"\n`);
    await chmod(chromiumPath, 0o755);
    await chmod(dir, 0o777);
    const ctx = await makeContext({ chromiumPath });
    const options = { engines: ['chromium'], devices: ['desktop', 'phone'], pages: [{ path: '/', expect: ['h1'] }], pageChecks: { axe: 'off', links: false, settleMs: 0 } };
    const result = await browserRunner.run(testOf('browser', options), localTarget(site.url), ctx);
    if (result.summary.kind !== 'browser') throw new Error('wrong summary');
    expect(result.summary.cases.map((c) => [c.cell, c.status])).toEqual([
      ['chromium/desktop', 'passed'],
      ['chromium/phone', 'passed'],
    ]);
    expect(ctx.logs.some((l) => l.startsWith('a page-check browser did not start; starting it once more'))).toBe(true);
    expect(ctx.logs).toContain('page check browsers started {"chromium":2}');
  }, 120_000);
});
