/**
 * How long "ready" (lib/page-ready.ts, decision 0089) takes, idle and with the CPU busy (figures, never pass/fail):
 * the late SPA fixture's home page (data 300 ms and 1.5 s after load, each list rendered 300 ms after its data) and a
 * static page, on Chromium and Firefox through the policy proxy, each round idle then with two busy loops
 * (`node -e 'for(;;){}'`, one per core of this machine) running.
 *
 * Per load it prints: when the last list rendered after load (and how long after its data: the gap a quiet window
 * must cover), when ready answered, and whether the late content was there at that moment. Then what ready costs
 * with the defaults on the engine tests' own quick pages (static; their runners now pay it on every page).
 *
 *   node --import tsx bench/engine/page-ready.ts      (BENCH_ROUNDS=5, BENCH_ENGINES=chromium,firefox, BENCH_WINDOWS=150,300,500,750)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTargetGuard, type RunContext } from '@fullstop/engine';
import { launchGuardedBrowser } from '../../packages/engine/src/lib/guarded-browser.ts';
import { prepareReady, waitForReady } from '../../packages/engine/src/lib/page-ready.ts';
import { startHardenedServer } from '../../packages/engine/test/fixtures/hardened-server.ts';
import { startLateSpa } from '../../packages/engine/test/fixtures/late-spa.ts';
import { startPlantedServer } from '../../packages/engine/test/fixtures/planted-server.ts';
import { startVisualSite } from '../../packages/engine/test/fixtures/visual-site.ts';
import { DEFAULT_CHROMIUM_PATH } from '@fullstop/engine/chromium';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ENGINES = (process.env.BENCH_ENGINES ?? 'chromium,firefox').split(',') as ('chromium' | 'firefox')[];
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;
/** Quiet windows tried (network and document alike): 150 ms was the crawl's before decision 0089. */
const WINDOWS = (process.env.BENCH_WINDOWS ?? '150,300,500,750').split(',').map(Number);

/** In the page: when the late list (#people) appeared, on the page's clock. */
const MARK = `new MutationObserver(() => { if (!window.__peopleAt && document.getElementById('people')) window.__peopleAt = performance.now(); }).observe(document, { subtree: true, childList: true });`;

interface Row {
  engine: string;
  quiet: number;
  load: 'idle' | 'busy';
  page: string;
  readyMs: number;
  ready: boolean;
  /** After the load event: the late list rendered, its data answered; the gap between them. */
  renderedMs: number | null;
  dataMs: number | null;
  complete: boolean;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const max = (xs: number[]) => (xs.length ? Math.max(...xs) : NaN);

function busyLoops(): ChildProcess[] {
  return [0, 1].map(() => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
}

const root = await mkdtemp(path.join(tmpdir(), 'fullstop-bench-ready-'));
const spa = await startLateSpa();
const rows: Row[] = [];
try {
  const ctx: RunContext = { runDir: root, signal: new AbortController().signal, chromiumPath: CHROMIUM_PATH, workers: 1, log: () => undefined };
  const guard = createTargetGuard({ baseUrl: spa.url, allowedOrigins: [], allowPrivateAddresses: true });
  for (const engine of ENGINES) {
    const guarded = await launchGuardedBrowser(guard, ctx, { engine, ...(engine === 'firefox' ? { home: root } : {}) });
    try {
      const context = await guarded.browser.newContext();
      await context.addInitScript(MARK);
      for (let round = 1; round <= ROUNDS; round++) {
        for (const load of ['idle', 'busy'] as const) {
          const loops = load === 'busy' ? busyLoops() : [];
          try {
            if (loops.length) await new Promise((r) => setTimeout(r, 300));
            for (const quiet of WINDOWS) {
              for (const route of ['/', '/static']) {
                const page = await context.newPage();
                await prepareReady(page);
                await page.goto(`${spa.url}${route}`, { waitUntil: 'load' });
                const answer = await waitForReady(page, { networkQuietMs: quiet, domQuietMs: quiet });
                const seen = (await page.evaluate(`(() => {
                  const nav = performance.getEntriesByType('navigation')[0];
                  const feed = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/api/feed'));
                  const loadAt = nav ? nav.loadEventStart : 0;
                  return { rendered: window.__peopleAt ? window.__peopleAt - loadAt : null, data: feed ? feed.responseEnd - loadAt : null, complete: !!document.getElementById('late-block') };
                })()`)) as { rendered: number | null; data: number | null; complete: boolean };
                rows.push({ engine, quiet, load, page: route, readyMs: answer.waitedMs, ready: answer.ready, renderedMs: seen.rendered, dataMs: seen.data, complete: route === '/static' || seen.complete });
                if (!answer.ready) console.log(`  ${engine} ${load} ${route} ${quiet} ms: ${answer.reason}`);
                await page.close();
              }
            }
          } finally {
            for (const p of loops) p.kill();
          }
        }
      }
    } finally {
      await guarded.close();
    }
  }
  console.log(`## Ready (lib/page-ready.ts), ${ROUNDS} rounds; load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log('| engine | CPU | quiet window | page | ready after load (median / max) | ready | late list rendered after load (median / max) | its render after its data (median / max) | late content there at ready |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const engine of ENGINES) {
    for (const load of ['idle', 'busy'] as const) {
      for (const quiet of WINDOWS) {
        for (const route of ['/', '/static']) {
          const r = rows.filter((x) => x.engine === engine && x.load === load && x.page === route && x.quiet === quiet);
          const ready = r.map((x) => x.readyMs);
          const rendered = r.flatMap((x) => (x.renderedMs === null ? [] : [x.renderedMs]));
          const gap = r.flatMap((x) => (x.renderedMs === null || x.dataMs === null ? [] : [x.renderedMs - x.dataMs]));
          const f = (xs: number[]) => (xs.length ? `${median(xs).toFixed(0)} / ${max(xs).toFixed(0)} ms` : '–');
          const complete = route === '/' ? `${r.filter((x) => x.complete).length}/${r.length}` : '–';
          console.log(`| ${engine} | ${load} | ${quiet} ms | ${route} | ${f(ready)} | ${r.filter((x) => x.ready).length}/${r.length} | ${f(rendered)} | ${f(gap)} | ${complete} |`);
        }
      }
    }
  }

  // The quick pages: ready with the defaults, idle, a fresh tab a load (as the visual runner) and one tab for all (as the others).
  const quick = [await startVisualSite(), await startPlantedServer(), await startHardenedServer()];
  try {
    const targets = [`${quick[0]!.url}/`, `${quick[1]!.url}/a11y`, `${quick[1]!.url}/search`, `${quick[2]!.url}/`, `${quick[2]!.url}/about`];
    const all = createTargetGuard({ baseUrl: quick[0]!.url, allowedOrigins: quick.slice(1).map((q) => q.url), allowPrivateAddresses: true });
    console.log(`\n## Ready on the quick fixture pages (defaults), ${ROUNDS} rounds`);
    console.log('| engine | page | ready after load (median / max) |');
    console.log('|---|---|---|');
    for (const engine of ENGINES) {
      const guarded = await launchGuardedBrowser(all, ctx, { engine, ...(engine === 'firefox' ? { home: root } : {}) });
      try {
        const page = await guarded.browser.newPage();
        await prepareReady(page);
        const times = new Map<string, number[]>();
        for (let round = 1; round <= ROUNDS; round++) {
          for (const url of targets) {
            await page.goto(url, { waitUntil: 'load' });
            const answer = await waitForReady(page);
            if (!answer.ready) console.log(`  ${engine} ${url}: ${answer.reason}`);
            times.set(url, [...(times.get(url) ?? []), answer.waitedMs]);
          }
        }
        for (const [url, xs] of times) console.log(`| ${engine} | ${new URL(url).pathname} (${quick.findIndex((q) => url.startsWith(q.url)) === 0 ? 'visual site' : url.startsWith(quick[1]!.url) ? 'planted' : 'hardened'}) | ${median(xs).toFixed(0)} / ${max(xs).toFixed(0)} ms |`);
      } finally {
        await guarded.close();
      }
    }
  } finally {
    for (const q of quick) await q.close();
  }
} finally {
  await spa.close();
  await rm(root, { recursive: true, force: true });
}
