import type { BrowserContext, Page, Request } from 'playwright-core';
import { RunAbortedError } from '../errors.ts';
import type { TargetGuard } from '../policy/target-guard.ts';
import type { RunContext } from '../types.ts';
import { launchGuardedBrowser, type GuardedBrowser } from './guarded-browser.ts';
import { errorMessage } from './result.ts';

/** Pages loaded at once (tabs of one browser context). */
export const CRAWL_TABS = 2;
/** A page has settled once no request of its own has been open for this long… */
export const SETTLE_QUIET_MS = 150;
/** …or after this, whatever it still loads (polling, long requests). */
export const SETTLE_MAX_MS = 3_000;
/** One page's load, and each click. */
export const CRAWL_PAGE_TIMEOUT_MS = 15_000;
export const CLICK_TIMEOUT_MS = 2_000;
/** Clicking stops on a page after this many elements or this long. */
export const MAX_CLICKS_PER_PAGE = 20;
export const CLICKS_PER_PAGE_MS = 15_000;
/** A visit that takes longer than this (a page stuck in a busy loop) has its tab closed. */
export const VISIT_MAX_MS = 60_000;
export const MAX_LINKS_PER_PAGE = 1_000;
export const MAX_ENDPOINTS = 500;
/** Longer addresses (generated without end) are left out. */
export const MAX_URL_CHARS = 2_000;

/**
 * Elements a user clicks that may route without being links. Links (`a[href]`) are followed by their address;
 * elements inside a form, disabled ones and ones whose text says they change or end something are never clicked.
 */
const CLICKABLE = 'button, [role="button"], [role="link"], [role="menuitem"], [role="tab"], [onclick], [data-href], [data-to], [data-route]';
const NEVER_CLICK = /\b(log\s*-?\s*out|sign\s*-?\s*out|delete|remove|destroy|erase|unsubscribe|deactivate|cancel|close account|pay|purchase|buy|order|checkout|submit|send|reset)\b/i;
/** Elements repeated on every page: clicked on the first page only. */
const LAYOUT = 'header, nav, footer, [role="navigation"], [role="banner"], [role="contentinfo"]';
/** Files, not pages: a browser would download them. */
const FILE_PATH = /\.(pdf|zip|gz|tgz|rar|7z|exe|dmg|apk|ipa|msi|iso|png|jpe?g|gif|webp|svg|ico|mp[34]|webm|mov|avi|wav|woff2?|ttf|csv|xlsx?|docx?|pptx?)$/i;

/**
 * Added to every page before its scripts: counts the fetch and XHR calls in flight and notes the last time one
 * started or ended or the document changed. Hidden (not enumerable); the page's calls behave as before.
 */
const TRACK_ACTIVITY = `(() => {
  const state = { pending: 0, last: performance.now() };
  const touch = () => { state.last = performance.now(); };
  Object.defineProperty(window, '__fullstopCrawl', { value: state });
  const started = () => { state.pending++; touch(); };
  const ended = () => { state.pending--; touch(); };
  if (typeof window.fetch === 'function') {
    const original = window.fetch;
    window.fetch = function (...args) {
      started();
      const call = original.apply(this, args);
      call.then(ended, ended);
      return call;
    };
  }
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (...args) {
    started();
    this.addEventListener('loadend', ended, { once: true });
    return send.apply(this, args);
  };
  new MutationObserver(touch).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();`;

/** In the page: resolves true once no call is pending and nothing changed for `quietMs`, false after `maxMs`. */
function PAGE_QUIET({ quietMs, maxMs }: { quietMs: number; maxMs: number }): Promise<boolean> {
  const state = (globalThis as unknown as { __fullstopCrawl?: { pending: number; last: number } }).__fullstopCrawl;
  if (!state) return Promise.resolve(true);
  const until = performance.now() + maxMs;
  return new Promise((resolve) => {
    const check = () => {
      if (state.pending <= 0 && performance.now() - state.last >= quietMs) resolve(true);
      else if (performance.now() >= until) resolve(false);
      else setTimeout(check, 20);
    };
    check();
  });
}

/** The part of a page's element the click phase reads (the engine compiles without the DOM's types too). */
interface PageElement {
  tagName: string;
  innerText: string;
  outerHTML: string;
  hasAttribute(name: string): boolean;
  getAttribute(name: string): string | null;
  closest(selector: string): unknown;
  getBoundingClientRect(): { width: number; height: number };
}

export type FoundBy = 'start' | 'link' | 'route' | 'click';

export interface CrawledPage {
  url: string;
  /** How it was found: a start page, a link's address, a client-side route taken while a page loaded, or a click. */
  foundBy: FoundBy;
  /** The document's status when the crawler loaded it; null when it was not loaded (the budget ran out) or failed. */
  status: number | null;
}

export interface CrawledEndpoint {
  method: string;
  url: string;
}

export interface BrowserCrawlResult {
  /** Same-origin pages, in the order found (breadth first), at most maxPages. */
  pages: CrawledPage[];
  /** XHR and fetch calls the pages made to the target's origins, deduplicated by method and URL. */
  endpoints: CrawledEndpoint[];
  errors: { url: string; error: string }[];
  /** What the pages asked of origins the target may not reach (calls, navigations by script or click): the policy proxy refused each. */
  refused: string[];
  /** The time budget ran out before every page found was loaded. */
  budgetReached: boolean;
  durationMs: number;
}

export interface BrowserCrawlOptions {
  maxPages: number;
  budgetMs: number;
  /** Paths (or same-origin URLs) never loaded, e.g. /logout: a page whose path starts with one is left out. */
  exclude?: string[];
  tabs?: number;
  /** A browser the caller launched (and closes); unset: one is launched and closed here. */
  browser?: GuardedBrowser;
}

/** Resolves after `ms`, or at once when the signal aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Crawls the target's website the way a user goes through it: Chromium (through the policy proxy, so a refused
 * origin is never reached) loads each page, waits for its scripts and data calls to settle, follows the links
 * that exist once it has rendered, records the client-side routes it takes (history.pushState) and clicks the
 * elements that route without being links (each route found is then loaded by its address). Breadth first, same
 * origin, at most `maxPages` pages, within `budgetMs`; the XHR/fetch calls of every page are kept as endpoints.
 */
export async function browserCrawl(guard: TargetGuard, ctx: RunContext, start: string[], options: BrowserCrawlOptions): Promise<BrowserCrawlResult> {
  const started = performance.now();
  const origin = guard.baseUrl.origin;
  const excluded = (options.exclude ?? []).flatMap((x) => {
    const url = URL.parse(x, guard.baseUrl.href);
    return url && url.origin === origin ? [url.pathname] : [];
  });

  const normalize = (raw: string): string | null => {
    const url = URL.parse(raw, guard.baseUrl.href);
    if (!url || raw.length > MAX_URL_CHARS) return null;
    if (url.origin !== origin || FILE_PATH.test(url.pathname)) return null;
    if (excluded.some((x) => url.pathname.startsWith(x))) return null;
    url.hash = '';
    return url.href;
  };

  const pages: CrawledPage[] = [];
  const byUrl = new Map<string, CrawledPage>();
  const queue: CrawledPage[] = [];
  const endpoints = new Map<string, CrawledEndpoint>();
  const errors: { url: string; error: string }[] = [];
  const refused = new Set<string>();
  const clickedLayout = new Set<string>();
  const waiting: (() => void)[] = [];
  const wake = () => {
    for (const resolve of waiting.splice(0)) resolve();
  };

  const found = (raw: string, foundBy: FoundBy) => {
    const url = normalize(raw);
    if (url === null || byUrl.has(url) || pages.length >= options.maxPages) return;
    const page: CrawledPage = { url, foundBy, status: null };
    byUrl.set(url, page);
    pages.push(page);
    queue.push(page);
    wake();
  };
  for (const s of start) found(s, 'start');

  const own = options.browser ?? (await launchGuardedBrowser(guard, ctx));
  let context: BrowserContext | undefined;
  let budgetReached = false;
  let stopped = false;
  let active = 0;
  const stop = () => {
    stopped = true;
    wake();
    void context?.close().catch(() => undefined);
  };
  const budget = setTimeout(() => {
    if (queue.length > 0 || active > 0) budgetReached = true;
    stop();
  }, options.budgetMs);
  ctx.signal.addEventListener('abort', stop, { once: true });
  // Cancelled while Chromium started: its own abort listener came too late to fire.
  if (ctx.signal.aborted) stop();

  /** A tab reused from page to page (a new tab costs more than the page's own load); its listeners read `visit`. */
  interface Tab {
    page: Page;
    /** The current visit's requests still open, and when one last started or ended. */
    open: Set<Request>;
    lastActivity: number;
    /** What a client-side route taken now counts as found by. */
    cause: FoundBy;
  }

  const openTab = async (browserContext: BrowserContext): Promise<Tab> => {
    const page = await browserContext.newPage();
    const tab: Tab = { page, open: new Set(), lastActivity: performance.now(), cause: 'route' };
    page.setDefaultTimeout(CRAWL_PAGE_TIMEOUT_MS);
    page.on('request', (request) => {
      tab.open.add(request);
      tab.lastActivity = performance.now();
      const type = request.resourceType();
      if ((type === 'xhr' || type === 'fetch') && endpoints.size < MAX_ENDPOINTS) {
        const url = URL.parse(request.url());
        if (url) url.hash = '';
        if (url && guard.origins.includes(url.origin)) {
          const method = request.method();
          endpoints.set(`${method} ${url.href}`, { method, url: url.href });
        }
      }
      // Chromium's own background calls are refused too; only what a page asked for is reported.
      const target = URL.parse(request.url());
      if (target && /^https?:$/.test(target.protocol) && !guard.origins.includes(target.origin) && refused.size < MAX_ENDPOINTS) refused.add(target.href);
    });
    const settled = (request: Request) => {
      if (tab.open.delete(request)) tab.lastActivity = performance.now();
    };
    page.on('requestfinished', settled);
    page.on('requestfailed', settled);
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) found(frame.url(), tab.cause);
    });
    // A "leave this page?" prompt is answered yes, so the next page loads; other dialogs are dismissed.
    page.on('dialog', (dialog) => void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()).catch(() => undefined));
    page.on('popup', (popup) => void popup.close().catch(() => undefined));
    page.on('download', (download) => void download.cancel().catch(() => undefined));
    return tab;
  };

  /**
   * Until the page has been quiet for SETTLE_QUIET_MS: no request open (as the browser reports them) and, on the
   * page's own clock, no fetch/XHR pending and no change to the document (its scripts rendered what they fetched).
   * Both: the browser's events arrive late on a busy machine, and the page's count misses other loads.
   */
  const settle = async (tab: Tab) => {
    const until = performance.now() + SETTLE_MAX_MS;
    while (!stopped && performance.now() < until) {
      if (tab.open.size > 0 || performance.now() - tab.lastActivity < SETTLE_QUIET_MS) {
        await pause(25, ctx.signal);
        continue;
      }
      const quietInPage = await tab.page
        .evaluate(PAGE_QUIET, { quietMs: SETTLE_QUIET_MS, maxMs: Math.max(0, until - performance.now()) })
        .catch(() => true);
      if (quietInPage && tab.open.size === 0) return;
    }
  };

  const visit = async (tab: Tab, item: CrawledPage) => {
    const { page } = tab;
    tab.open = new Set();
    tab.cause = 'route';
    const watchdog = setTimeout(() => void page.close().catch(() => undefined), VISIT_MAX_MS);
    try {
      const response = await page.goto(item.url, { waitUntil: 'domcontentloaded' });
      item.status = response?.status() ?? null;
      if (!(response?.headers()['content-type'] ?? 'text/html').includes('html')) return;
      await settle(tab);
      // Resolved in the page (its <base> counts); an SVG link's href is an object, its attribute a string.
      const links = await page.$$eval(
        'a[href], area[href]',
        (els, max) =>
          els.slice(0, max).flatMap((e) => {
            const href = e.getAttribute('href') ?? '';
            const url = URL.parse(href, e.baseURI);
            return url ? [url.href] : [];
          }),
        MAX_LINKS_PER_PAGE,
      );
      for (const link of links) found(link, 'link');
      tab.cause = 'click';
      await clickRoutes(tab, item.url);
    } catch (error) {
      if (!stopped) errors.push({ url: item.url, error: page.isClosed() ? `gave up after ${VISIT_MAX_MS / 1000} s` : errorMessage(error) });
    } finally {
      clearTimeout(watchdog);
    }
  };

  /** Clicks each element that may route; one that changed the address is undone (back, or the page again). */
  const clickRoutes = async (tab: Tab, url: string) => {
    const { page } = tab;
    const until = performance.now() + CLICKS_PER_PAGE_MS;
    const candidates = await page.$$eval(
      CLICKABLE,
      (els, args) =>
        els.flatMap((e, index) => {
          const el = e as unknown as PageElement;
          const rect = el.getBoundingClientRect();
          const text = (el.innerText || el.getAttribute('aria-label') || '').trim();
          if ((el.tagName === 'A' && el.hasAttribute('href')) || el.closest('form') || el.hasAttribute('disabled')) return [];
          if (el.getAttribute('aria-disabled') === 'true' || rect.width === 0 || rect.height === 0) return [];
          if (new RegExp(args.never, 'i').test(text)) return [];
          return [{ index, layout: el.closest(args.layout) !== null, key: el.outerHTML.slice(0, 300) }];
        }),
      { never: NEVER_CLICK.source, layout: LAYOUT },
    );
    let clicks = 0;
    for (const candidate of candidates) {
      if (stopped || clicks >= MAX_CLICKS_PER_PAGE || performance.now() > until) return;
      if (candidate.layout) {
        if (clickedLayout.has(candidate.key)) continue;
        clickedLayout.add(candidate.key);
      }
      clicks++;
      try {
        await page.locator(CLICKABLE).nth(candidate.index).click({ timeout: CLICK_TIMEOUT_MS });
      } catch {
        continue;
      }
      await settle(tab);
      if (normalize(page.url()) === url) continue;
      // The click went somewhere (framenavigated recorded it): come back before the next one.
      await page.goBack({ timeout: CLICK_TIMEOUT_MS }).catch(() => null);
      if (page.url() !== url) await page.goto(url, { waitUntil: 'domcontentloaded' });
      await settle(tab);
    }
  };

  try {
    const browserContext = await own.browser.newContext({ acceptDownloads: false, serviceWorkers: 'block' });
    context = browserContext;
    await browserContext.addInitScript(TRACK_ACTIVITY);
    // A tab with nothing to load waits for the next page found, or for the last visit to end.
    const tabs = Array.from({ length: Math.max(1, options.tabs ?? CRAWL_TABS) }, async () => {
      let tab: Tab | undefined;
      try {
        while (!stopped) {
          const item = queue.shift();
          if (!item) {
            if (active === 0) return;
            await new Promise<void>((resolve) => waiting.push(resolve));
            continue;
          }
          active++;
          try {
            // A tab closed by the watchdog (or the page itself) is replaced.
            if (!tab || tab.page.isClosed()) tab = await openTab(browserContext);
            await visit(tab, item);
          } catch (error) {
            if (!stopped) errors.push({ url: item.url, error: errorMessage(error) });
          } finally {
            active--;
            if (active === 0) wake();
          }
        }
      } finally {
        await tab?.page.close().catch(() => undefined);
      }
    });
    await Promise.all(tabs);
  } catch (error) {
    // Cancelled: Chromium was closed under the calls.
    if (!ctx.signal.aborted) throw error;
  } finally {
    clearTimeout(budget);
    ctx.signal.removeEventListener('abort', stop);
    await context?.close().catch(() => undefined);
    if (!options.browser) await own.close();
  }
  if (ctx.signal.aborted) throw new RunAbortedError();
  const durationMs = performance.now() - started;
  ctx.log('browser crawl done', { pages: pages.length, endpoints: endpoints.size, refused: refused.size, budgetReached, ms: Math.round(durationMs) });
  return { pages, endpoints: [...endpoints.values()], errors, refused: [...refused], budgetReached, durationMs };
}
