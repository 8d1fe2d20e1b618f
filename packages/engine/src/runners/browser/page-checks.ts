/**
 * Page checks (decision 0079): each page of a browser test's `pages`, loaded in every cell of its matrix and checked
 * the same way on every engine, so that one check gives one answer everywhere: Chromium and Firefox through
 * Playwright, WebKit (WebKitGTK's MiniBrowser) through WebKitWebDriver. The same in-page scripts run on all three;
 * links are fetched by the runner through the target policy, once per run.
 *
 * A page, in a cell:
 * - loads: the navigation ends within the test's `testTimeoutMs`, on a page of its own (an engine's error page has
 *   no navigation entry and WebKit's is about:blank; WebKit's first `responseStart` may be negative, so it is not
 *   used) that answers below 400 (the status the engine's navigation timing reports; where an engine does not
 *   report it, WebKitGTK, the runner's own request of the same address);
 * - ready (lib/page-ready.ts, decision 0089): the checks read the page once it is ready, its data rendered, and at
 *   least `settleMs` after its load, whichever is later. Both count from the page's own load event on every engine:
 *   WebKitWebDriver answers a navigate only once the requests the page made at its load are done (seconds later on
 *   a slow network), so on WebKit the load's time is read from the page's navigation timing (SINCE_LOAD), and an
 *   element that took as long fails there as it does on Chromium and Firefox. On Chromium and Firefox the browser's account of the
 *   requests counts too; on WebKit (WebDriver has none) the page's own, from its load on. A page whose wait reached
 *   the maximum is still checked: a step "checked before it was ready: …" says why it was not (it fails nothing);
 * - console errors: after its load, an error hook is installed (no engine lets a classic-WebDriver client run a
 *   script before the page's own, and the proxy cannot rewrite https): uncaught errors, unhandled rejections and
 *   `console.error` calls until it is checked fail it. Errors thrown while the page was loading are NOT
 *   caught, on any engine: the same check gives the same answer on each;
 * - key elements: each CSS selector of `expect` matches an element once the page is ready;
 * - broken links: its links, images, scripts and style sheets (http and https, at most 100) are fetched; a 4xx or 5xx,
 *   or no answer, fails it; those outside the target policy are not fetched (counted);
 * - a screenshot of the viewport;
 * - axe (axe-core's own source, the package the accessibility kind uses) with the test's tags.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { caseInCell, pageCheckCase } from '@fullstop/contracts';
import { RunAbortedError } from '../../errors.ts';
import { type GuardedBrowser, launchGuardedBrowser } from '../../lib/guarded-browser.ts';
import type { CellProxies } from './shared-browsers.ts';
import { guardedRequest } from '../../lib/http.ts';
import { loginOf } from '../../lib/login-session.ts';
import { sameDocument } from '../../lib/page-path.ts';
import { PROBE_INSTALL, PROBE_READ, prepareReady, type Readiness, readyLoop, waitForReady } from '../../lib/page-ready.ts';
import { errorMessage } from '../../lib/result.ts';
import { openWebKitSession, startWebKitHost, webkitPaths, webkitScreenshot, type WebKitHost } from '../../lib/webkit.ts';
import type { WebDriverSession } from '../../lib/webdriver.ts';
import { type PolicyProxy, startPolicyProxy } from '../../policy/policy-proxy.ts';
import type { TargetGuard } from '../../policy/target-guard.ts';
import type { CaseResult, RunContext } from '../../types.ts';
import { deviceUse, webkitDevice } from './devices.ts';
import type { CloudCell } from './cloud-cells.ts';
import type { CloudCells } from './cloud-session.ts';
import type { CaseEvidence } from './json-report.ts';
import { type Cell, type Network, runsSpecs, type SpecEngine } from './matrix.ts';
import { cellBusy, PAGE_CHECK_CORES, runWithin } from '../../lib/cell-weight.ts';
import type { BrowserOptions } from './options.ts';

export const MAX_LINKS_PER_PAGE = 100;
const LINK_CHECKS_AT_ONCE = 4;
const LINK_TIMEOUT_MS = 10_000;
const MAX_ERRORS_SHOWN = 5;

type Impact = 'minor' | 'moderate' | 'serious' | 'critical';
const IMPACT_ORDER: readonly Impact[] = ['minor', 'moderate', 'serious', 'critical'];

/** What a page's scripts see: the same source on every engine (strings, not compiled functions: nothing of the build reaches the page). */
const INSTALL_ERROR_HOOK = `() => {
  if (window.__fullstopErrors) return true;
  const errors = [];
  Object.defineProperty(window, '__fullstopErrors', { value: errors });
  const add = (text) => { if (errors.length < 50) errors.push(String(text).slice(0, 500)); };
  window.addEventListener('error', (e) => { if (e instanceof ErrorEvent) add(e.message || String(e.error)); });
  window.addEventListener('unhandledrejection', (e) => add('Unhandled rejection: ' + (e.reason && e.reason.message ? e.reason.message : String(e.reason))));
  const original = console.error;
  console.error = function (...args) { add(args.map((a) => (a && a.message) ? a.message : String(a)).join(' ')); return original.apply(this, args); };
  return true;
}`;

const COLLECT = `(selectors, maxLinks) => {
  const missing = [];
  for (const s of selectors) {
    try { if (!document.querySelector(s)) missing.push(s); } catch (e) { missing.push(s + ' (not a valid CSS selector)'); }
  }
  const urls = [];
  const add = (raw) => {
    if (!raw || urls.length >= maxLinks) return;
    try {
      const url = new URL(raw, document.baseURI);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
      url.hash = '';
      if (!urls.includes(url.href)) urls.push(url.href);
    } catch (e) {}
  };
  document.querySelectorAll('a[href]').forEach((a) => add(a.getAttribute('href')));
  document.querySelectorAll('img[src]').forEach((i) => add(i.getAttribute('src')));
  document.querySelectorAll('script[src]').forEach((s) => add(s.getAttribute('src')));
  document.querySelectorAll('link[rel~="stylesheet"][href]').forEach((l) => add(l.getAttribute('href')));
  const nav = performance.getEntriesByType('navigation')[0];
  return {
    url: location.href,
    status: nav && typeof nav.responseStatus === 'number' && nav.responseStatus > 0 ? nav.responseStatus : null,
    loaded: !!nav && (location.protocol === 'http:' || location.protocol === 'https:'),
    errors: window.__fullstopErrors ? window.__fullstopErrors.slice() : [],
    missing,
    links: urls,
  };
}`;

const AXE_RUN = `async (tags) => {
  const r = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
  return r.violations.map((v) => ({ id: v.id, impact: v.impact || 'minor', help: v.help, nodes: v.nodes.length, targets: v.nodes.slice(0, 5).map((n) => n.target.map((t) => Array.isArray(t) ? t.join(' >>> ') : t).join(' >>> ')) }));
}`;

/**
 * Milliseconds since the page's load event ended, by its own navigation timing and clock; 0 where it has none (an
 * engine's error page). A number the runner bounds: the page may lie.
 */
const SINCE_LOAD = `() => {
  const n = performance.getEntriesByType('navigation')[0];
  if (n && n.loadEventEnd > 0) return performance.now() - n.loadEventEnd;
  const t = performance.timing;
  return t && t.loadEventEnd > 0 ? Date.now() - t.loadEventEnd : 0;
}`;

interface Collected {
  url: string;
  status: number | null;
  loaded: boolean;
  errors: string[];
  missing: string[];
  links: string[];
}
interface AxeViolation {
  id: string;
  impact: Impact;
  help: string;
  nodes: number;
  targets: string[];
}

let axeSourceCache: string | null = null;
/** axe-core's browser bundle, resolved beside @axe-core/playwright (the accessibility kind's package). */
export function axeSource(): string {
  if (axeSourceCache === null) {
    const fromAxePlaywright = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'));
    axeSourceCache = readFileSync(fromAxePlaywright.resolve('axe-core/axe.min.js'), 'utf8');
  }
  return axeSourceCache;
}

/** One engine's way of loading a page and running a script in it. */
export interface PageDriver {
  /** Loads the page; throws when it does not load (a network error, the timeout). */
  open(url: string): Promise<void>;
  /** `fn`: the source of a function (sync or async) of JSON arguments; its JSON result. */
  call<T>(fn: string, args: unknown[]): Promise<T>;
  /** Runs a script's source in the page (axe-core's). */
  inject(source: string): Promise<void>;
  screenshot(): Promise<Buffer>;
  /** When the page's own load event ended, on this process's clock (`performance.now()`): the settle counts from it. */
  loadedAt(): number;
  /** Until the page is ready (lib/page-ready.ts), at most READY_MAX_MS from its load; never throws. */
  ready(signal: AbortSignal): Promise<Readiness>;
  /**
   * After each page. The cell's tab navigates on to the next page, as a visitor's would: the site's scripts are
   * compiled once a cell, not once a page (a new tab cost Chromium a renderer and a compile a page). After a page
   * that failed, a Playwright tab is closed, so the next page starts in a fresh one; a WebKit session navigates on.
   */
  done(failed: boolean): Promise<void>;
}

/** A Playwright tab as a PageDriver: one a cell, replaced after a page that failed. */
function playwrightDriver(newPage: () => Promise<Page>, timeoutMs: number): PageDriver {
  let page: Page | null = null;
  let loadedAt = 0;
  const current = () => {
    if (!page) throw new Error('no page open');
    return page;
  };
  return {
    async open(url) {
      if (!page) {
        page = await newPage();
        await prepareReady(page);
        // A page that asks before it is left must not hold the tab: the next page's navigation goes ahead.
        page.on('dialog', (dialog) => void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()).catch(() => undefined));
      }
      // A hash route of the document the tab shows would be a same-document navigation, with the previous view's
      // state and error hooks: it is loaded anew, as a visitor opening its address does.
      if (sameDocument(page.url(), url)) await page.goto('about:blank');
      await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
      // Playwright answers at the load event.
      loadedAt = performance.now();
    },
    call: <T>(fn: string, args: unknown[]) => current().evaluate(`(${fn})(...${JSON.stringify(args)})`) as Promise<T>,
    inject: async (source) => {
      await current().evaluate(source);
    },
    screenshot: () => current().screenshot(),
    loadedAt: () => loadedAt,
    ready: (signal) => waitForReady(current(), { signal }),
    async done(failed) {
      if (!failed) return;
      await page?.close().catch(() => undefined);
      page = null;
    },
  };
}

/** A WebDriver session as a PageDriver: the same scripts, run as async scripts (`arguments`' last is the callback). */
function webdriverDriver(session: WebDriverSession): PageDriver {
  const call = async <T>(fn: string, args: unknown[]): Promise<T> => {
    const answer = await session.executeAsync<{ value?: T; error?: string }>(
      `const done = arguments[arguments.length - 1];
      Promise.resolve().then(() => (${fn}).apply(null, arguments[0])).then((value) => done({ value: value === undefined ? null : value }), (e) => done({ error: String(e && e.message ? e.message : e) }));`,
      [args],
    );
    if (answer.error !== undefined) throw new Error(answer.error);
    return answer.value as T;
  };
  let loadedAt = 0;
  return {
    async open(url) {
      const asked = performance.now();
      await session.navigate(url);
      // The driver answered after the load (once the requests the page made at it were done): when the load ended
      // is the page's to say, bounded by the navigation's own time.
      const ago = await call<unknown>(SINCE_LOAD, []).catch(() => 0);
      const now = performance.now();
      loadedAt = now - (typeof ago === 'number' && Number.isFinite(ago) ? Math.min(Math.max(ago, 0), now - asked) : 0);
    },
    call,
    inject: async (source) => {
      await session.execute(source);
    },
    screenshot: () => webkitScreenshot(session),
    loadedAt: () => loadedAt,
    // No account of the requests over WebDriver: the probe, from the driver's answer on, and its own fetch/XHR
    // count; the maximum from the page's load, as on the other engines.
    async ready(signal) {
      await session.execute(`${PROBE_INSTALL};`).catch(() => undefined);
      return readyLoop({ network: null, read: () => call(PROBE_READ, []) }, { signal }, loadedAt);
    },
    done: async () => {},
  };
}

export interface PageChecksResult {
  cases: CaseResult[];
  evidence: CaseEvidence[];
  /** What each page answered in each cell: the run's `page-checks.json`. */
  raw: unknown[];
}

type Step = NonNullable<CaseResult['steps']>[number];

/** Fetches each link once per run, whatever cell found it; a refused one is not fetched. */
function linkChecker(guard: TargetGuard, signal: AbortSignal) {
  const cache = new Map<string, Promise<string | null | 'outside'>>();
  const one = (url: string) => {
    let answer = cache.get(url);
    if (!answer) {
      answer = (async () => {
        if (await guard.refusal(url)) return 'outside' as const;
        try {
          const response = await guardedRequest(guard, url, { signal, timeoutMs: LINK_TIMEOUT_MS });
          return response.status >= 400 ? `${url} answered ${response.status}` : null;
        } catch (error) {
          if (signal.aborted) throw new RunAbortedError();
          return `${url} did not answer: ${errorMessage(error)}`;
        }
      })();
      cache.set(url, answer);
    }
    return answer;
  };
  return async (urls: string[]) => {
    const answers: (string | null | 'outside')[] = [];
    for (let i = 0; i < urls.length; i += LINK_CHECKS_AT_ONCE) answers.push(...(await Promise.all(urls.slice(i, i + LINK_CHECKS_AT_ONCE).map(one))));
    return { broken: answers.filter((a): a is string => a !== null && a !== 'outside'), outside: answers.filter((a) => a === 'outside').length, checked: answers.filter((a) => a !== 'outside').length };
  };
}

/** A cell's folder of screenshots: `chromium_phone`, `cloud_safari@iPhone-15-iOS-18-`. */
const cellFolder = (cell: string) => cell.replaceAll('/', '_').replace(/[^A-Za-z0-9._@-]+/g, '-');
const slug = (p: string) => p.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'home';


/**
 * Runs every page check in every cell, cells one after another, and returns a case per page and cell. The cells of
 * one engine are contexts of one browser (issue 40): each context has its cell's device and goes through its cell's
 * network's proxy, and holds no cookie, storage or cache of another. WebKit: one driver, a session a cell. `home` is
 * the run's folder for the browsers' files (Firefox's and WebKit's HOME).
 */
export async function runPageChecks(
  cells: readonly Cell[],
  options: BrowserOptions,
  env: {
    guard: TargetGuard;
    ctx: RunContext;
    home: string;
    dir: string;
    named: boolean;
    deadline: number;
    /** A browser a cell, as before issue 40: for the bench that compares the two (bench/engine/browser-matrix.ts). */
    browserPerCell?: boolean;
    /** The cores the page checks may keep busy (the attempt's, less what runs beside them); unset: PAGE_CHECK_CORES. */
    cores?: number;
    /** The test's cloud cells (decision 0100), after the local ones: each a session on the client's device cloud. */
    cloud?: { cells: readonly CloudCell[]; run: CloudCells };
    /**
     * The browsers and proxies the test's spec files use too (shared-browsers.ts, decision 0110): a Chromium or
     * Firefox cell is a context of the engine's shared browser where it is served, and every cell goes through the
     * test's cell proxies (the caller's to close).
     */
    shared?: { proxies: CellProxies; connect(engine: SpecEngine): Promise<GuardedBrowser | null> };
  },
): Promise<PageChecksResult> {
  const { guard, ctx } = env;
  const pages = options.pages ?? [];
  const checks = options.pageChecks;
  const links = linkChecker(guard, ctx.signal);
  const cases: CaseResult[] = [];
  const evidence: CaseEvidence[] = [];
  const raw: unknown[] = [];
  const urls: string[] = [];
  for (const p of pages) urls.push((await guard.check(p.path)).href);
  // A network's proxy, started once however many cells running together ask for it.
  const starting = new Map<Network, Promise<PolicyProxy>>();
  const proxyOf = (network: Network) => {
    if (env.shared) return Promise.resolve(env.shared.proxies.of(network));
    let proxy = starting.get(network);
    if (!proxy) {
      proxy = startPolicyProxy(guard, network === 'none' ? {} : { network });
      starting.set(network, proxy);
    }
    return proxy;
  };
  let webkit = null as WebKitHost | null;

  /**
   * Where each case, record and screenshot goes in the results: its cell's place (`at`: the local cells' order, then
   * the cloud cells'), then its page's. Cells that run together end in any order; their results read in the matrix's.
   */
  const placeOf = new Map<unknown, number>();
  const placed = <T>(item: T, at: number, index: number): T => {
    placeOf.set(item, at * pages.length + index);
    return item;
  };
  const checkPage = async (driver: PageDriver, cell: Pick<Cell, 'name'>, at: number, index: number): Promise<void> => {
    const page = pages[index]!;
    const url = urls[index]!;
    const name = caseInCell(pageCheckCase(page.path), env.named ? cell.name : undefined);
    const steps: Step[] = [];
    const failures: string[] = [];
    const started = performance.now();
    const step = async (title: string, work: () => Promise<string | null>) => {
      const t0 = performance.now();
      let error: string | null;
      try {
        error = await work();
      } catch (thrown) {
        if (ctx.signal.aborted) throw new RunAbortedError();
        error = errorMessage(thrown);
      }
      steps.push({ title, durationMs: performance.now() - t0, ...(error ? { error } : {}) });
      if (error) failures.push(error);
      return error === null;
    };
    const record: Record<string, unknown> = { page: page.path, cell: cell.name, url };
    let screenshot: string | undefined;
    if (Date.now() > env.deadline) {
      failures.push(`not checked: the test's maxDurationSeconds (${options.maxDurationSeconds}) ran out`);
    } else {
      try {
        const opened = await step(`load ${page.path}`, async () => {
          await driver.open(url);
          return null;
        });
        let seen: Collected | null = null;
        if (opened) {
          await driver.call(INSTALL_ERROR_HOOK, []);
          const t0 = performance.now();
          // Watched for errors until settleMs after its load at least, and until it is ready.
          const settleLeft = Math.max(0, checks.settleMs - (performance.now() - driver.loadedAt()));
          const [, readiness] = await Promise.all([
            sleep(settleLeft, undefined, { signal: ctx.signal }).catch(() => {
              throw new RunAbortedError();
            }),
            driver.ready(ctx.signal),
          ]);
          if (ctx.signal.aborted) throw new RunAbortedError();
          record.ready = readiness;
          // Said in the case when the wait reached its maximum (it does not fail the page); always in page-checks.json.
          const readyStep: Step | null = readiness.ready ? null : { title: `checked before it was ready: ${readiness.reason ?? 'not ready'}`, durationMs: performance.now() - t0 };
          seen = await driver.call<Collected>(COLLECT, [page.expect ?? [], MAX_LINKS_PER_PAGE]);
          record.seen = seen;
          const status = seen.status ?? (seen.loaded ? (await guardedRequest(guard, seen.url, { signal: ctx.signal }).catch(() => null))?.status ?? null : null);
          record.status = status;
          // The load step above only knew the navigation ended: an error page, or a 4xx/5xx, is no load.
          const last = steps.at(-1)!;
          const loadError = !seen.loaded || status === null ? `did not load: the browser shows no answer from ${url}` : status >= 400 ? `answered ${status}` : null;
          if (loadError) {
            last.error = loadError;
            failures.push(loadError);
          }
          if (readyStep) steps.push(readyStep);
        }
        // Evidence of what the page looked like, whatever it shows.
        try {
          const file = path.join(env.dir, 'pages', cellFolder(cell.name), `${index + 1}-${slug(page.path)}.png`);
          await mkdir(path.dirname(file), { recursive: true });
          await writeFile(file, await driver.screenshot());
          screenshot = path.relative(ctx.runDir, file);
          evidence.push(placed({ path: screenshot, kind: 'screenshot', label: `Screenshot: ${name}` }, at, index));
        } catch (error) {
          if (ctx.signal.aborted) throw new RunAbortedError();
          ctx.log('page check screenshot failed', { page: page.path, cell: cell.name, error: errorMessage(error) });
        }
        if (seen && !failures.length) {
          const after = seen;
          if (checks.consoleErrors) {
            await step('no console errors after load', async () =>
              after.errors.length === 0 ? null : `${after.errors.length} console error${after.errors.length === 1 ? '' : 's'} after load: ${after.errors.slice(0, MAX_ERRORS_SHOWN).join(' | ')}`,
            );
          }
          if (page.expect) {
            await step(`key elements ${page.expect.join(', ')}`, async () => (after.missing.length === 0 ? null : `key element${after.missing.length === 1 ? '' : 's'} missing: ${after.missing.join(', ')}`));
          }
          if (checks.links) {
            await step(`links and images (${after.links.length})`, async () => {
              const answer = await links(after.links);
              record.links = answer;
              return answer.broken.length === 0 ? null : `${answer.broken.length} broken: ${answer.broken.slice(0, MAX_ERRORS_SHOWN).join('; ')}`;
            });
          }
          if (checks.axe !== 'off') {
            const failRank = IMPACT_ORDER.indexOf(checks.axe);
            await step(`axe (${checks.axeTags.join(', ')})`, async () => {
              await driver.inject(axeSource());
              const violations = await driver.call<AxeViolation[]>(AXE_RUN, [checks.axeTags]);
              record.axe = violations;
              const failing = violations.filter((v) => IMPACT_ORDER.indexOf(v.impact) >= failRank);
              return failing.length === 0 ? null : `axe: ${failing.map((v) => `${v.id} (${v.impact}, ${v.nodes} element${v.nodes === 1 ? '' : 's'}: ${v.help})`).join('; ')}`;
            });
          }
        }
      } catch (error) {
        if (ctx.signal.aborted || error instanceof RunAbortedError) throw new RunAbortedError();
        failures.push(errorMessage(error));
      } finally {
        await driver.done(failures.length > 0);
      }
    }
    record.failures = failures;
    raw.push(placed(record, at, index));
    cases.push(placed({
      name,
      ...(env.named ? { cell: cell.name } : {}),
      status: failures.length ? 'failed' : 'passed',
      durationMs: performance.now() - started,
      ...(failures.length ? { error: failures.join('\n').slice(0, 4000) } : {}),
      ...(steps.length ? { steps } : {}),
      ...(screenshot ? { screenshot } : {}),
    }, at, index));
  };

  /**
   * A cell whose browser could not start: the run ends when it was aborted, or as engine_missing when the program
   * could not be spawned (define-runner); otherwise every page of the cell fails, saying why.
   */
  const cellFailed = (cell: Cell, at: number, error: unknown) => {
    if (ctx.signal.aborted) throw new RunAbortedError();
    if ((error as { syscall?: unknown }).syscall) throw error;
    cellNotRun(cell.name, at, `${cell.engine} did not start: ${errorMessage(error)}`, 'failed');
  };
  /** Every page of a cell that did not run: failed with why, or skipped (a cloud cell past the client's cap). */
  const cellNotRun = (cell: string, at: number, why: string, status: 'failed' | 'skipped') => {
    pages.forEach((p, index) => {
      cases.push(placed({ name: caseInCell(pageCheckCase(p.path), env.named ? cell : undefined), ...(env.named ? { cell } : {}), status, durationMs: 0, error: why.slice(0, 4000) }, at, index));
      raw.push(placed({ page: p.path, cell, ...(status === 'failed' ? { failures: [why] } : { skipped: why }) }, at, index));
    });
  };

  /** Each cell's browser: one an engine (its cells are contexts of it), or one a cell with `browserPerCell`. */
  let browser: { engine: Cell['engine']; launching: Promise<GuardedBrowser> } | null = null;
  const started: Partial<Record<Cell['engine'] | 'cloud', number>> = {};
  /** Connections to the test's shared browsers (none started here). */
  const connected: Partial<Record<SpecEngine, number>> = {};
  const closeBrowser = async () => {
    const current = browser;
    browser = null;
    await (await current?.launching.catch(() => null))?.close();
  };
  /**
   * The engine's browser, started with the proxies of every network its cells run on; a new one after a crash. Cells
   * running together ask at once: the first starts it (set before any wait, so that no other starts a second one),
   * the others wait for it; after a launch that failed, the next cell to ask tries again.
   */
  const browserFor = async (cell: Cell & { engine: SpecEngine }): Promise<GuardedBrowser> => {
    for (;;) {
      const current = browser;
      if (current?.engine === cell.engine) {
        const guarded = await current.launching.catch(() => null);
        if (guarded?.browser.isConnected()) return guarded;
        // Another cell started a new one while this one waited.
        if (browser !== current) continue;
      }
      const launching = (async () => {
        await (await current?.launching.catch(() => null))?.close();
        const shared = await env.shared?.connect(cell.engine);
        if (shared) {
          connected[cell.engine] = (connected[cell.engine] ?? 0) + 1;
          return shared;
        }
        const networks = env.browserPerCell ? [cell.network] : [...new Set(cells.filter((c) => c.engine === cell.engine).map((c) => c.network))];
        const contextProxies = await Promise.all(networks.map(proxyOf));
        const launch = () => {
          started[cell.engine] = (started[cell.engine] ?? 0) + 1;
          return launchGuardedBrowser(guard, ctx, { engine: cell.engine, contextProxies, ...(cell.engine === 'firefox' ? { home: env.home } : {}) });
        };
        // A start that failed is tried once more: most often it was past its time on a starved machine (Firefox at
        // 30 s, with the runner itself 20 s to load), and a page's verdict must not rest on our browser's start. A
        // program that could not be spawned (not installed) and an aborted run are not.
        return launch().catch((error: unknown) => {
          if (ctx.signal.aborted || (error as { syscall?: unknown }).syscall) throw error;
          ctx.log('a page-check browser did not start; starting it once more', { engine: cell.engine, error: errorMessage(error).split('\n')[0] });
          return launch();
        });
      })();
      browser = { engine: cell.engine, launching };
      return launching;
    }
  };

  /** A WebKit cell: a session of the attempt's one WebKitWebDriver, with the cell's device and network. */
  const webkitCell = async (cell: Cell, at: number) => {
    const proxy = await proxyOf(cell.network);
    let session: WebDriverSession;
    try {
      // The driver is jailed with the proxy of every network WebKit's cells run on (its ways out are fixed at start).
      const proxies = await Promise.all([...new Set(cells.filter((c) => c.engine === 'webkit').map((c) => c.network))].map(proxyOf));
      webkit ??= await startWebKitHost(webkitPaths(ctx), { home: path.join(env.home, 'webkit'), signal: ctx.signal, proxies });
      const device = webkitDevice(cell.device);
      started.webkit = (started.webkit ?? 0) + 1;
      session = await openWebKitSession(
        webkit,
        { viewport: options.viewport ?? device.viewport, ...(device.userAgent ? { userAgent: device.userAgent } : {}), proxyUrl: webkit.proxyUrl(proxy), pageLoadTimeoutMs: options.testTimeoutMs, scriptTimeoutMs: options.testTimeoutMs },
        ctx.signal,
      );
    } catch (error) {
      cellFailed(cell, at, error);
      return;
    }
    try {
      await addLoginCookies(session, guard, ctx);
      const driver = webdriverDriver(session);
      for (let i = 0; i < pages.length; i++) await checkPage(driver, cell, at, i);
    } finally {
      await session.close();
    }
  };

  /** A Chromium or Firefox cell: a context of its engine's browser, with the cell's device and its network's proxy. */
  const playwrightCell = async (cell: Cell & { engine: SpecEngine }, at: number) => {
    let context: BrowserContext;
    try {
      const proxy = await proxyOf(cell.network);
      const guarded = await browserFor(cell);
      // A context of its own a cell: its device, and its network's proxy; no cookie, storage or cache of another cell.
      context = await guarded.browser.newContext({ ...deviceUse(cell.device, cell.engine), ...(options.viewport ? { viewport: options.viewport } : {}), proxy: guarded.contextProxy(proxy) });
    } catch (error) {
      cellFailed(cell, at, error);
      return;
    }
    try {
      const driver = playwrightDriver(() => context.newPage(), options.testTimeoutMs);
      for (let i = 0; i < pages.length; i++) await checkPage(driver, cell, at, i);
    } finally {
      await context.close().catch(() => undefined);
      if (env.browserPerCell) await closeBrowser();
    }
  };

  try {
    // Two lanes: Chromium's and Firefox's cells (an engine at a time, in the cells' order), and WebKit's (one at a time:
    // a MiniBrowser each, on one driver). The lanes run side by side when the attempt holds two cores or more. In the
    // first, an engine's cells run together as far as what they keep busy fits in its cores (lib/cell-weight.ts): four
    // slow-3G cells at once on one core, an unshaped cell alone; a browser a cell (the bench's) one at a time.
    const cores = Math.max(PAGE_CHECK_CORES, env.cores ?? PAGE_CHECK_CORES);
    const local = cells.map((cell, at) => ({ cell, at }));
    const ofWebKit = local.filter((c) => c.cell.engine === 'webkit');
    const ofPlaywright = local.filter((c): c is { cell: Cell & { engine: SpecEngine }; at: number } => runsSpecs(c.cell.engine));
    const laneCores = ofWebKit.length > 0 && ofPlaywright.length > 0 && cores >= 2 * PAGE_CHECK_CORES ? cores - PAGE_CHECK_CORES : cores;
    const playwrightLane = async () => {
      for (const engine of [...new Set(ofPlaywright.map((c) => c.cell.engine))]) {
        await runWithin(
          ofPlaywright.filter((c) => c.cell.engine === engine),
          (c) => (env.browserPerCell ? laneCores : cellBusy(c.cell.network)),
          laneCores,
          async ({ cell, at }) => {
            if (ctx.signal.aborted) throw new RunAbortedError();
            await playwrightCell(cell, at);
          },
        );
        await closeBrowser();
      }
    };
    const webkitLane = async () => {
      for (const { cell, at } of ofWebKit) {
        if (ctx.signal.aborted) throw new RunAbortedError();
        await webkitCell(cell, at);
      }
    };
    await runWithin([playwrightLane, webkitLane], () => PAGE_CHECK_CORES, cores, (lane) => lane());
    // The cloud cells: a session each on the client's device cloud, the same page checks over its hub.
    for (const [i, cell] of (env.cloud?.cells ?? []).entries()) {
      const at = cells.length + i;
      if (ctx.signal.aborted) throw new RunAbortedError();
      await closeBrowser();
      if (Date.now() > env.deadline) {
        cellNotRun(cell.name, at, `not checked: the test's maxDurationSeconds (${options.maxDurationSeconds}) ran out`, 'failed');
        continue;
      }
      const opened = await env.cloud!.run.open(cell);
      if ('error' in opened) {
        if (ctx.signal.aborted) throw new RunAbortedError();
        cellNotRun(cell.name, at, opened.error, opened.skipped ? 'skipped' : 'failed');
        continue;
      }
      started.cloud = (started.cloud ?? 0) + 1;
      try {
        const driver = webdriverDriver(opened.session);
        for (let i = 0; i < pages.length; i++) await checkPage(driver, cell, at, i);
      } finally {
        await opened.close();
      }
    }
  } finally {
    await closeBrowser();
    await webkit?.close();
    // Browsers started (WebKit: sessions, a MiniBrowser each): one an engine, unless one crashed.
    ctx.log('page check browsers started', started);
    if (env.shared) ctx.log('page check browsers shared with the spec files', connected);
    // Every proxy that started (one that failed to start failed its cells already).
    const proxies = (await Promise.allSettled(starting.values())).flatMap((p) => (p.status === 'fulfilled' ? [p.value] : []));
    const refused = proxies.flatMap((p) => [...p.refused]);
    if (refused.length > 0) ctx.log('page check requests refused by the target policy', { urls: refused.slice(0, 20) });
    await Promise.all(proxies.map((p) => p.close()));
  }
  const inPlace = <T>(list: T[]) => list.sort((a, b) => placeOf.get(a)! - placeOf.get(b)!);
  return { cases: inPlace(cases), evidence: inPlace(evidence), raw: inPlace(raw) };
}

/**
 * The attempt's login in a WebKit session: its cookies, set on the target's origin (WebDriver adds a cookie to
 * the page's own site only, so the origin is loaded first). Its headers cannot be sent: WebDriver has no way.
 */
async function addLoginCookies(session: WebDriverSession, guard: TargetGuard, ctx: RunContext): Promise<void> {
  const login = loginOf(guard);
  if (!login || login.cookies.length === 0) return;
  const host = guard.baseUrl.hostname;
  const mine = login.cookies.filter((c) => {
    const domain = c.domain.replace(/^\./, '');
    return host === domain || host.endsWith(`.${domain}`);
  });
  if (mine.length === 0) return;
  await session.navigate(guard.baseUrl.href);
  for (const c of mine) {
    await session
      .addCookie({ name: c.name, value: c.value, path: c.path || '/', secure: c.secure, httpOnly: c.httpOnly, sameSite: c.sameSite, ...(c.expires > 0 ? { expiry: Math.floor(c.expires) } : {}) })
      .catch((error: unknown) => ctx.log('WebKit did not take a login cookie', { name: c.name, error: errorMessage(error) }));
  }
}
