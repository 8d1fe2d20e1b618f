import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserCrawl, type BrowserCrawlResult } from '../src/lib/browser-crawl.ts';
import { crawlPages } from '../src/lib/crawl.ts';
import { createTargetGuard } from '../src/policy/target-guard.ts';
import { accessibilityRunner } from '../src/runners/accessibility/index.ts';
import { securityChecksRunner } from '../src/runners/security-checks/index.ts';
import { securityScanRunner } from '../src/runners/security-scan/index.ts';
import { html, startFixtureServer } from './fixtures/fixture-server.ts';
import { startLateSpa } from './fixtures/late-spa.ts';
import { startSpaServer } from './fixtures/spa-server.ts';
import { serverForSuite } from './fixtures/suite-server.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

/** An origin the SPA links to, navigates to and calls, which its target may not reach: it counts what it gets. */
const outside = serverForSuite(() => startFixtureServer({}, (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(html('Outside', '<p>outside</p>'))));
const spa = serverForSuite(() => startSpaServer({ routes: 20, outsideOrigin: outside.url }));

const abs = (p: string) => new URL(p, spa.url).href;

describe('browser crawl', () => {
  it('finds every client-side route of an SPA and the calls each makes, and never reaches a refused origin', async () => {
    spa.resetCounters();
    outside.resetCounters();
    const ctx = await makeContext();
    const guard = createTargetGuard(localTarget(spa.url));
    // The HTTP crawl sees the shell only: no link exists before the script runs.
    const http = await crawlPages(guard, ['/'], { crawl: true, maxPages: 50, signal: ctx.signal });
    expect(http.responses.map((r) => r.url)).toEqual([abs('/')]);

    const result = await browserCrawl(guard, ctx, ['/'], { maxPages: 50, budgetMs: 120_000 });
    expect(result.errors).toEqual([]);
    expect(result.budgetReached).toBe(false);
    expect(new Set(result.pages.map((p) => p.url))).toEqual(new Set(spa.routes.map(abs)));
    expect(result.pages).toHaveLength(spa.routes.length);
    // Items by the links rendered after their data call; /contact only by clicking its button (a pushState route).
    const foundBy = new Map(result.pages.map((p) => [new URL(p.url).pathname, p.foundBy]));
    expect(foundBy.get('/')).toBe('start');
    expect(foundBy.get('/contact')).toBe('click');
    expect(foundBy.get('/items/20')).toBeUndefined();
    expect(foundBy.get('/items/18')).toBe('link');
    expect(result.pages.every((p) => p.status === 200)).toBe(true);
    // Breadth first: every level of items before the next.
    const order = result.pages.map((p) => new URL(p.url).pathname).filter((p) => p.startsWith('/items/'));
    expect(order.slice(0, 3).sort()).toEqual(['/items/1', '/items/2', '/items/3']);
    expect(order.indexOf('/items/18')).toBeGreaterThan(order.indexOf('/items/3'));

    expect(new Set(result.endpoints.map((e) => `${e.method} ${new URL(e.url).pathname}`))).toEqual(new Set(spa.endpoints.map((e) => `${e.method} ${e.path}`)));
    // The partner link is not followed (another origin), the button's navigation and /contact's call are refused.
    expect(outside.requests).toBe(0);
    expect(result.refused).toEqual(expect.arrayContaining([`${outside.url}/track`, `${outside.url}/shop`]));
    // Only what the pages asked for: Chromium's own background calls (refused as well) are not the site's.
    expect(result.refused.every((u) => u.startsWith(`${outside.url}/`))).toBe(true);
    expect(result.endpoints.some((e) => e.url.startsWith(outside.url))).toBe(false);
  });

  it('stops at maxPages, at its time budget and when the run is cancelled', async () => {
    const guard = createTargetGuard(localTarget(spa.url));
    const bounded = await browserCrawl(guard, await makeContext(), ['/'], { maxPages: 5, budgetMs: 60_000 });
    expect(bounded.pages).toHaveLength(5);
    expect(bounded.budgetReached).toBe(false);

    const hurried = await browserCrawl(guard, await makeContext(), ['/'], { maxPages: 50, budgetMs: 400 });
    expect(hurried.budgetReached).toBe(true);
    expect(hurried.pages.filter((p) => p.status !== null).length).toBeLessThan(spa.routes.length);

    // Cancelled once the first item page has been served: no page is loaded after that.
    const controller = new AbortController();
    const ctx = await makeContext({ signal: controller.signal });
    spa.resetCounters();
    const crawl: Promise<BrowserCrawlResult> = browserCrawl(guard, ctx, ['/'], { maxPages: 50, budgetMs: 60_000 });
    const poll = setInterval(() => {
      if ([...spa.requestsByPath.keys()].some((p) => p.startsWith('/items/'))) controller.abort();
    }, 10);
    await expect(crawl).rejects.toMatchObject({ code: 'aborted' });
    clearInterval(poll);
    const itemPages = [...spa.requestsByPath.keys()].filter((p) => p.startsWith('/items/'));
    expect(itemPages.length).toBeGreaterThan(0);
    expect(itemPages.length).toBeLessThan(spa.routes.length - 2);
  });

  it('leaves out the excluded paths', async () => {
    const result = await browserCrawl(createTargetGuard(localTarget(spa.url)), await makeContext(), ['/'], { maxPages: 50, budgetMs: 60_000, exclude: ['/items/1', '/contact'] });
    const paths = result.pages.map((p) => new URL(p.url).pathname);
    // /items/1 and the items under it (/items/4 …) are unreachable; /items/10-19 share the prefix /items/1.
    expect(paths).not.toContain('/contact');
    expect(paths.filter((p) => p.startsWith('/items/1'))).toEqual([]);
    expect(paths).toContain('/items/2');
  });
});

describe('browser crawl on an SPA that renders late (decision 0089)', () => {
  const late = serverForSuite(startLateSpa);

  it('reads links once the page is ready, takes its pushState and hash routes, never clicks log out or delete', async () => {
    late.resetCounters();
    const result = await browserCrawl(createTargetGuard(localTarget(late.url)), await makeContext(), ['/'], { maxPages: 20, budgetMs: 60_000 });
    expect(result.errors).toEqual([]);
    // /team and /#/faq render 1.8 s after load, /products and /about 0.6 s; /settings (pushState) and /#/help
    // (a hash route) only by clicking their buttons.
    expect(result.pages.map((p) => `${p.url.slice(late.url.length)} ${p.foundBy}`).sort()).toEqual(late.routes.map((r) => `${r.path} ${r.foundBy}`).sort());
    expect(result.pages.every((p) => p.status === 200)).toBe(true);
    // The EventSource every page keeps open is no request "in flight": every page was ready.
    expect(result.notReady).toEqual([]);
    for (const path of late.forbidden) expect(late.requestsByPath.get(path)).toBeUndefined();
  });
});

describe('browser crawl on a hostile page', () => {
  /** Prompts on load and on leaving, a destructive button, a route behind a button, a link inside an SVG. */
  const hostile = serverForSuite(() =>
    startFixtureServer(
      {
        '/api/delete': (_req, res) => void res.writeHead(204).end(),
      },
      (_req, res) =>
        void res.writeHead(200, { 'content-type': 'text/html' }).end(
          html(
            'Hostile',
            `<main><h1>Hostile</h1><p id="out"></p>
<button type="button" id="next">Next page</button>
<button type="button" id="delete">Delete my account</button>
<svg width="40" height="20"><a href="/svg-target"><text x="0" y="15">svg</text></a></svg></main>
<script>
alert('Welcome');
addEventListener('beforeunload', (event) => { event.preventDefault(); event.returnValue = ''; });
document.getElementById('next').onclick = () => { history.pushState({}, '', '/next'); document.getElementById('out').textContent = 'next'; };
document.getElementById('delete').onclick = () => fetch('/api/delete', { method: 'POST' });
</script>`,
          ),
        ),
    ),
  );

  it('answers the prompts, never clicks a destructive button, and still finds every page', async () => {
    const result = await browserCrawl(createTargetGuard(localTarget(hostile.url)), await makeContext(), ['/'], { maxPages: 10, budgetMs: 60_000, tabs: 1 });
    expect(result.errors).toEqual([]);
    expect(result.pages.map((p) => [new URL(p.url).pathname, p.foundBy, p.status])).toEqual([
      ['/', 'start', 200],
      ['/svg-target', 'link', 200],
      ['/next', 'click', 200],
    ]);
    expect(hostile.requestsByPath.get('/api/delete')).toBeUndefined();
  });
});

describe('runners with crawl: "browser"', () => {
  // Fewer routes: each is tested again by the runner (axe on every page).
  const spa = serverForSuite(() => startSpaServer({ routes: 10 }));
  const abs = (p: string) => new URL(p, spa.url).href;

  it('accessibility tests every route, and reports the violation only a client-side route shows', async () => {
    const result = await accessibilityRunner.run(testOf('accessibility', { crawl: 'browser', maxPages: 50 }), localTarget(spa.url), await makeContext());
    expect(result.error).toBeUndefined();
    if (result.summary.kind !== 'accessibility') throw new Error('wrong summary');
    expect(new Set(result.summary.pages.map((p) => p.url))).toEqual(new Set(spa.routes.map(abs)));
    const failed = result.summary.pages.filter((p) => !p.passed);
    expect(failed.map((p) => p.url)).toEqual([abs(`/items/${spa.brokenItem}`)]);
    expect(failed[0]?.violations?.map((v) => v.id)).toEqual(['image-alt']);
    expect(result.totals).toEqual({ totalTests: spa.routes.length, passedTests: spa.routes.length - 1, failedTests: 1, skippedTests: 0 });
    expect(result.artifacts.map((a) => a.path)).toContain('crawl/browser-crawl.json');

    // Without the option, only the listed page, as before.
    const listed = await accessibilityRunner.run(testOf('accessibility', {}), localTarget(spa.url), await makeContext());
    expect(listed.totals.totalTests).toBe(1);
  });

  it('security checks check the headers of every route', async () => {
    const result = await securityChecksRunner.run(testOf('security-checks', { crawl: 'browser', requireHttps: false }), localTarget(spa.url), await makeContext());
    expect(result.error).toBeUndefined();
    if (result.summary.kind !== 'security-checks') throw new Error('wrong summary');
    const cspCases = result.summary.cases.filter((c) => c.name.endsWith(': Content-Security-Policy header is set'));
    expect(new Set(cspCases.map((c) => c.name.split(':')[0]))).toEqual(new Set(spa.routes));
    expect(cspCases.every((c) => c.status === 'failed')).toBe(true);
    expect(result.status).toBe('failed');
  });

  it('the security scan checks every route and the data calls, and hands them to wapiti as start URLs', async () => {
    const passive = await securityScanRunner.run(testOf('security-scan', { crawl: 'browser', active: false }), localTarget(spa.url), await makeContext());
    expect(passive.error).toBeUndefined();
    if (passive.summary.kind !== 'security-scan') throw new Error('wrong summary');
    const findings = passive.summary.findings;
    const cspUrls = findings.filter((f) => f.ruleId === '10038').map((f) => f.url);
    expect(new Set(cspUrls)).toEqual(new Set(spa.routes.map(abs)));
    // The data calls the routes make (GET only: the POST is never replayed) are checked too.
    const nosniffUrls = new Set(findings.filter((f) => f.ruleId === '10021').map((f) => f.url));
    for (const e of spa.endpoints) expect(nosniffUrls.has(abs(e.path))).toBe(e.method === 'GET');

    // A stand-in wapiti that records its arguments and writes an empty report.
    const ctx = await makeContext();
    const argvFile = path.join(ctx.runDir, 'wapiti-argv.json');
    const wapitiPath = path.join(ctx.runDir, 'wapiti-stand-in.cjs');
    await writeFile(
      wapitiPath,
      `#!/usr/bin/env node
const fs = require('node:fs');
const args = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(argvFile)}, JSON.stringify(args) + '\\n');
fs.writeFileSync(args[args.indexOf('-o') + 1], JSON.stringify({ classifications: {}, vulnerabilities: {}, anomalies: {} }));
`,
    );
    await chmod(wapitiPath, 0o755);
    const active = await securityScanRunner.run(
      testOf('security-scan', { crawl: 'browser', maxScanSeconds: 10 }),
      localTarget(spa.url),
      { ...ctx, wapitiPath },
    );
    // What the scan makes of an empty report is not this test's matter (the stand-in runs no module); its arguments are.
    expect(active.summary.kind).toBe('security-scan');
    const runs = (await readFile(argvFile, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as string[]);
    expect(runs.length).toBeGreaterThan(0);
    const seeds = new Set(runs.flatMap((args) => args.flatMap((a, i) => (args[i - 1] === '-s' ? [a] : []))));
    for (const route of spa.routes) expect(seeds.has(abs(route))).toBe(true);
    for (const e of spa.endpoints) expect(seeds.has(abs(e.path))).toBe(e.method === 'GET');
  });

  it('the options are checked: crawl is true, false or "browser"', () => {
    expect(() => securityScanRunner.validate(testOf('security-scan', { crawl: 'chromium' }))).toThrow(/options\.crawl/);
    expect(() => accessibilityRunner.validate(testOf('accessibility', { crawl: 'browser', crawlSeconds: 1 }))).toThrow(/options\.crawlSeconds/);
    expect(() => securityChecksRunner.validate(testOf('security-checks', { crawl: true, maxPages: 0 }))).toThrow(/options\.maxPages/);
    expect(() => securityChecksRunner.validate(testOf('security-checks', { crawl: 'browser' }))).not.toThrow();
  });
});
