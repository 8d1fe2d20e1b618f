import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GuardedBrowser, launchGuardedBrowser } from '../src/lib/guarded-browser.ts';
import { parseProbe, prepareReady, waitForReady } from '../src/lib/page-ready.ts';
import { createTargetGuard } from '../src/policy/target-guard.ts';
import { html, startFixtureServer } from './fixtures/fixture-server.ts';
import { startLateSpa } from './fixtures/late-spa.ts';
import { serverForSuite } from './fixtures/suite-server.ts';
import { CHROMIUM_PATH, localTarget, makeContext } from './helpers.ts';

/** Pages that are never ready, each for one reason; and one that lies to the probe. */
const hanging = new Set<ServerResponse>();
const pages = serverForSuite(async () => {
  const page = (body: string) => (_req: IncomingMessage, res: ServerResponse) => void res.writeHead(200, { 'content-type': 'text/html' }).end(html('Page', body));
  const server = await startFixtureServer(
    {
      '/hang': page(`<main><h1>Hang</h1></main><script>addEventListener('load', () => fetch('/api/hang?token=s3cret'));</script>`),
      '/api/hang': (_req, res) => void hanging.add(res),
      '/busy': page('<main aria-busy="true"><h1>Busy</h1></main>'),
      // Answers in place of the probe: a reading whose numbers are strings, then one that claims all is quiet.
      '/liar': page(`<main><h1 id="n">0</h1></main><script>
Object.defineProperty(window, '__fullstopReady', { value: () => ({ sinceChange: '99999', calls: 0, sinceCall: 99999, fontsLoading: false, images: 0, busy: 0 }) });
</script>`),
      '/claims-quiet': page(`<main><h1 id="n">0</h1></main><script>
try { Object.defineProperty(window, '__fullstopReady', { value: () => ({ sinceChange: 99999, calls: 0, sinceCall: 99999, fontsLoading: false, images: 0, busy: 0 }) }); } catch (e) {}
let n = 0; setInterval(() => { document.getElementById('n').textContent = String(++n); }, 50);
</script>`),
    },
    (_req, res) => void res.writeHead(404).end(),
  );
  const close = server.close.bind(server);
  return Object.assign(server, {
    close: async () => {
      for (const res of hanging) res.destroy();
      await close();
    },
  });
});
const late = serverForSuite(startLateSpa);

/** A browser for both servers, launched once for the file's Chromium tests. */
let chromium: GuardedBrowser | undefined;
beforeAll(async () => {
  const ctx = { runDir: tmpdir(), signal: new AbortController().signal, chromiumPath: CHROMIUM_PATH, workers: 1, log: () => undefined };
  chromium = await launchGuardedBrowser(createTargetGuard(localTarget(late.url, { allowedOrigins: [pages.url] })), ctx);
});
afterAll(() => chromium?.close());

async function withPage<T>(work: (page: Page) => Promise<T>): Promise<T> {
  const page = await chromium!.browser.newPage();
  try {
    return await work(page);
  } finally {
    await page.close();
  }
}

describe('waitForReady (decision 0089)', () => {
  it('waits for the data a page renders late, past the EventSource it keeps open; a static page is ready at once', async () => {
    await withPage(async (page) => {
      await prepareReady(page);
      await page.goto(`${late.url}/`, { waitUntil: 'load' });
      const answer = await waitForReady(page);
      expect(answer).toMatchObject({ ready: true });
      expect(answer.reason).toBeUndefined();
      // Rendered 1.8 s after load, under no aria-busy: only the quiet windows waited for it.
      expect(await page.locator('#people a').count()).toBe(2);
      expect(await page.locator('#late-block').count()).toBe(1);

      await page.goto(`${late.url}/static`, { waitUntil: 'load' });
      expect(await waitForReady(page)).toMatchObject({ ready: true });
    });
  });

  it('says why a page was not ready at the maximum: requests in flight (no query shown), aria-busy, a lying probe', async () => {
    await withPage(async (page) => {
      await prepareReady(page);
      await page.goto(`${pages.url}/hang`, { waitUntil: 'load' });
      const hung = await waitForReady(page, { maxMs: 1_000 });
      expect(hung.ready).toBe(false);
      expect(hung.reason).toBe(`max reached: 1 request in flight (${pages.url}/api/hang?…); 1 fetch/XHR call pending in the page`);

      await page.goto(`${pages.url}/busy`, { waitUntil: 'load' });
      expect(await waitForReady(page, { maxMs: 1_000 })).toMatchObject({ ready: false, reason: 'max reached: 1 element aria-busy' });

      // Prepared, the probe is the page's before its scripts: it cannot be replaced, the document's changes are seen.
      await page.goto(`${pages.url}/claims-quiet`, { waitUntil: 'load' });
      const watched = await waitForReady(page, { maxMs: 1_000 });
      expect(watched.ready).toBe(false);
      expect(watched.reason).toMatch(/^max reached: the document changed \d+ ms before$/);
    });
    // Not prepared, the page's own answer is all there is: read strictly, a string is no number.
    await withPage(async (page) => {
      await page.goto(`${pages.url}/liar`, { waitUntil: 'load' });
      expect(await waitForReady(page, { maxMs: 1_000 })).toMatchObject({ ready: false, reason: "max reached: the page's readiness probe gave no readable answer" });
    });
  });

  it('reads the probe strictly', () => {
    const quiet = { sinceChange: 600, calls: 0, sinceCall: 600, fontsLoading: false, images: 0, busy: 0 };
    expect(parseProbe(quiet)).toEqual(quiet);
    expect(parseProbe({ ...quiet, extra: 'x' })).toEqual(quiet);
    for (const bad of [null, 'ready', [quiet], { ...quiet, calls: 1.5 }, { ...quiet, sinceChange: Infinity }, { ...quiet, busy: -1 }, { ...quiet, fontsLoading: 'no' }, { ...quiet, images: undefined }]) {
      expect(parseProbe(bad)).toBeNull();
    }
  });

  it('on Firefox too, whose EventSource is a "document" request', async () => {
    const ctx = await makeContext();
    const firefox = await launchGuardedBrowser(createTargetGuard(localTarget(late.url)), ctx, { engine: 'firefox', home: ctx.runDir });
    try {
      const page = await firefox.browser.newPage();
      await prepareReady(page);
      await page.goto(`${late.url}/`, { waitUntil: 'load' });
      expect(await waitForReady(page)).toMatchObject({ ready: true });
      expect(await page.locator('#people a').count()).toBe(2);
    } finally {
      await firefox.close();
    }
  }, 60_000);
});
