/**
 * Crawl time of a single-page app (figures, never pass/fail; see ../README.md): the browser crawl (Chromium through
 * the policy proxy, lib/browser-crawl.ts) against the HTTP crawl (lib/crawl.ts) of the same site, in the same run,
 * turns alternating. The HTTP crawl is the baseline: it runs no JavaScript, so on this site it finds the shell only;
 * fetching the 50 routes when they are listed by hand shows what the pages cost without Chromium.
 *
 *   npm run bench:crawl      (BENCH_SPA_ROUTES=50, BENCH_ROUNDS=3, BENCH_CRAWL_TABS=2)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTargetGuard, type RunContext } from '@fullstop/engine';
import { browserCrawl } from '../../packages/engine/src/lib/browser-crawl.ts';
import { crawlPages } from '../../packages/engine/src/lib/crawl.ts';
import { startSpaServer } from '../../packages/engine/test/fixtures/spa-server.ts';
import { DEFAULT_CHROMIUM_PATH } from '@fullstop/engine/chromium';

const ROUTES = Number(process.env.BENCH_SPA_ROUTES ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TABS = Number(process.env.BENCH_CRAWL_TABS ?? 2);
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;
const MAX_PAGES = 500;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const root = await mkdtemp(path.join(tmpdir(), 'fullstop-bench-crawl-'));
const spa = await startSpaServer({ routes: ROUTES });
try {
  const ctx: RunContext = { runDir: root, signal: new AbortController().signal, chromiumPath: CHROMIUM_PATH, workers: 1, log: () => undefined };
  console.log(`## Crawl of a ${ROUTES}-route SPA (${ROUNDS} rounds, browser crawl with ${TABS} tabs)`);
  const times = { http: [] as number[], listed: [] as number[], browser: [] as number[] };
  const http = async () => {
    const guard = createTargetGuard({ baseUrl: spa.url, allowedOrigins: [], allowPrivateAddresses: true });
    const started = performance.now();
    const result = await crawlPages(guard, ['/'], { crawl: true, maxPages: MAX_PAGES, signal: ctx.signal });
    const ms = performance.now() - started;
    times.http.push(ms);
    return `http crawl    ${ms.toFixed(0).padStart(6)} ms, ${result.responses.length}/${spa.routes.length} routes, no calls seen`;
  };
  // What fetching the routes costs when they are known: the part of the browser crawl that is not Chromium's work.
  const listed = async () => {
    const guard = createTargetGuard({ baseUrl: spa.url, allowedOrigins: [], allowPrivateAddresses: true });
    const started = performance.now();
    const result = await crawlPages(guard, spa.routes, { crawl: false, maxPages: MAX_PAGES, signal: ctx.signal });
    const ms = performance.now() - started;
    times.listed.push(ms);
    return `http, routes listed ${ms.toFixed(0).padStart(6)} ms, ${result.responses.length}/${spa.routes.length} routes fetched (given, not found)`;
  };
  const browser = async () => {
    const guard = createTargetGuard({ baseUrl: spa.url, allowedOrigins: [], allowPrivateAddresses: true });
    const started = performance.now();
    const result = await browserCrawl(guard, ctx, ['/'], { maxPages: MAX_PAGES, budgetMs: 600_000, tabs: TABS });
    const ms = performance.now() - started;
    times.browser.push(ms);
    const loaded = result.pages.filter((p) => p.status !== null).length;
    return (
      `browser crawl ${ms.toFixed(0).padStart(6)} ms (Chromium start included), ${result.pages.length}/${spa.routes.length} routes, ` +
      `${result.endpoints.length}/${spa.endpoints.length} calls, ${(ms / Math.max(1, loaded)).toFixed(0)} ms per page${result.errors.length ? `, ${result.errors.length} errors` : ''}`
    );
  };
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? [http, listed, browser] : [browser, listed, http];
    for (const run of order) console.log(`round ${round}: ${await run()}`);
  }
  console.log(
    `median: http crawl ${median(times.http).toFixed(0)} ms, http of the routes listed ${median(times.listed).toFixed(0)} ms, ` +
      `browser crawl ${median(times.browser).toFixed(0)} ms`,
  );
} finally {
  await spa.close();
  await rm(root, { recursive: true, force: true });
}
