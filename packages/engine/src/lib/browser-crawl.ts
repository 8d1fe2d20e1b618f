import type { BrowserContext, Page } from 'playwright-core';
import { RunAbortedError } from '../errors.ts';
import type { TargetGuard } from '../policy/target-guard.ts';
import type { RunContext } from '../types.ts';
import { launchGuardedBrowser, type GuardedBrowser } from './guarded-browser.ts';
import { jsonShapeOf, HARMLESS, type JsonShape } from './call-shape.ts';
import { prepareReady, waitForReady } from './page-ready.ts';
import { errorMessage } from './result.ts';

/** Pages loaded at once (tabs of one browser context). */
export const CRAWL_TABS = 2;
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
/** Calls with a JSON body kept (their shapes): what the security scan attacks with sqlmap. */
export const MAX_JSON_CALLS = 50;
/** Forms filled and submitted on one page (`submitForms`), and the time that may take. */
export const MAX_FORMS_PER_PAGE = 5;
export const FORMS_PER_PAGE_MS = 15_000;
/** Longer addresses (generated without end) are left out. */
export const MAX_URL_CHARS = 2_000;
/** Pages read before they were ready (lib/page-ready.ts) listed in the result, with why. */
export const MAX_NOT_READY_LISTED = 50;

/**
 * Elements a user clicks that may route without being links (nav buttons, tabs). Links (`a[href]`) are followed by
 * their address; elements inside a form, disabled ones and ones whose text or attributes (an icon button's id,
 * class, title, data-*) say they change or end something are never clicked.
 */
const CLICKABLE = 'button, [role="button"], [role="link"], [role="menuitem"], [role="tab"], [onclick], [data-href], [data-to], [data-route]';
const NEVER_CLICK = /\b(log\s*-?\s*out|sign\s*-?\s*out|delete|remove|destroy|erase|unsubscribe|deactivate|cancel|close account|pay|purchase|buy|order|checkout|submit|send|reset)\b/i;
/**
 * Forms never submitted (`submitForms`): ones whose words (text, action, names) say they end, remove or pay for
 * something, and ones that ask for a card or a file.
 */
const NEVER_SUBMIT = /\b(log\s*-?\s*out|sign\s*-?\s*out|delete|remove|destroy|erase|unsubscribe|deactivate|cancel|close account|pay|payment|purchase|buy|order|checkout|billing|transfer|donate|card)\b/i;
const NEVER_SUBMIT_FIELDS = 'input[type="file"], [autocomplete^="cc-"]';
/** The fields of a form the crawl fills, in this order (the plan and the filling count them alike). */
const FORM_FIELDS = 'input, select, textarea';
/** Elements repeated on every page: clicked on the first page only. */
const LAYOUT = 'header, nav, footer, [role="navigation"], [role="banner"], [role="contentinfo"]';
/** A fragment that is a client-side route (`#/settings`, `#!/settings`), kept in a page's address; any other is dropped. */
const HASH_ROUTE = /^#!?\//;
/** An address without its fragment: the document it loads. */
const documentOf = (url: string) => url.split('#')[0];
/** Files, not pages: a browser would download them. */
const FILE_PATH = /\.(pdf|zip|gz|tgz|rar|7z|exe|dmg|apk|ipa|msi|iso|png|jpe?g|gif|webp|svg|ico|mp[34]|webm|mov|avi|wav|woff2?|ttf|csv|xlsx?|docx?|pptx?)$/i;

/** The part of a page's element the click phase reads (the engine compiles without the DOM's types too). */
interface PageElement {
  tagName: string;
  innerText: string;
  outerHTML: string;
  hasAttribute(name: string): boolean;
  getAttribute(name: string): string | null;
  attributes: ArrayLike<{ name: string; value: string }>;
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
  /** The top-level keys of its JSON body and each value's type (never a value), when it sent a JSON object. */
  json?: JsonShape;
  /** The page that made it (its address), when known. */
  page?: string;
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
  /** Forms filled with harmless values and submitted (`submitForms`), by page. */
  formsSubmitted: { page: string; fields: number }[];
  /** Pages whose links were read when the wait for ready (lib/page-ready.ts) reached its maximum, and why (at most MAX_NOT_READY_LISTED). */
  notReady: { url: string; reason: string }[];
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
  /**
   * Fill each page's forms with harmless values and submit them, as ZAP's AJAX spider does, so that the calls they
   * make (a login's JSON POST) are recorded: never a form that logs out, deletes, pays or asks for a card or a file.
   * For the security scan, which attacks those calls; off for kinds that only look at pages.
   */
  submitForms?: boolean;
}

/**
 * Crawls the target's website the way a user goes through it: Chromium (through the policy proxy, so a refused
 * origin is never reached) loads each page, waits until it is ready (lib/page-ready.ts: its data calls answered and
 * rendered), follows the links that exist then, records the client-side routes it takes (history.pushState, hash
 * routes: `#/…` is kept in a page's address) and clicks the elements that route without being links (each route
 * found is then loaded by its address). Breadth first, same origin, at most `maxPages` pages, within `budgetMs`; the
 * XHR/fetch calls of every page are kept as endpoints.
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
    if (!HASH_ROUTE.test(url.hash)) url.hash = '';
    // A hash route's path is a page's path too (an excluded /logout is excluded as #/logout).
    const route = url.hash.replace(/^#!?/, '').split('?')[0] ?? '';
    if (excluded.some((x) => url.pathname.startsWith(x) || (route !== '' && route.startsWith(x)))) return null;
    return url.href;
  };

  const pages: CrawledPage[] = [];
  const byUrl = new Map<string, CrawledPage>();
  const queue: CrawledPage[] = [];
  const endpoints = new Map<string, CrawledEndpoint>();
  let jsonCalls = 0;
  const formsSubmitted: { page: string; fields: number }[] = [];
  const errors: { url: string; error: string }[] = [];
  const refused = new Set<string>();
  const notReady: { url: string; reason: string }[] = [];
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
  // Ends the waits for ready at once when the crawl stops.
  const halt = new AbortController();
  const stop = () => {
    stopped = true;
    halt.abort();
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

  /** A tab reused from page to page (a new tab costs more than the page's own load); its listeners read `cause`. */
  interface Tab {
    page: Page;
    /** What a client-side route taken now counts as found by. */
    cause: FoundBy;
  }

  const openTab = async (browserContext: BrowserContext): Promise<Tab> => {
    const page = await browserContext.newPage();
    const tab: Tab = { page, cause: 'route' };
    page.setDefaultTimeout(CRAWL_PAGE_TIMEOUT_MS);
    // Before its first navigation: every request of every page the tab loads counts toward ready.
    await prepareReady(page);
    page.on('request', (request) => {
      const type = request.resourceType();
      if ((type === 'xhr' || type === 'fetch') && endpoints.size < MAX_ENDPOINTS) {
        const url = URL.parse(request.url());
        if (url) url.hash = '';
        if (url && guard.origins.includes(url.origin)) {
          const method = request.method();
          const key = `${method} ${url.href}`;
          const known = endpoints.get(key);
          // Only the shape of a JSON body is kept (keys and types), and only for MAX_JSON_CALLS calls.
          const json = method !== 'GET' && !known?.json && jsonCalls < MAX_JSON_CALLS ? jsonShapeOf(request.postData(), request.headers()['content-type']) : null;
          if (json) jsonCalls++;
          let from: URL | null = null;
          try {
            from = URL.parse(request.frame().url());
          } catch {
            // A service worker's request has no frame.
          }
          const origin = from && from.origin === guard.baseUrl.origin ? { page: documentOf(from.href) } : {};
          if (!known) endpoints.set(key, { method, url: url.href, ...origin, ...(json ? { json } : {}) });
          else if (json) known.json = json;
        }
      }
      // Chromium's own background calls are refused too; only what a page asked for is reported.
      const target = URL.parse(request.url());
      if (target && /^https?:$/.test(target.protocol) && !guard.origins.includes(target.origin) && refused.size < MAX_ENDPOINTS) refused.add(target.href);
    });
    // Every change of the address, a document's or a client-side route's (pushState, a hash route).
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) found(frame.url(), tab.cause);
    });
    // A "leave this page?" prompt is answered yes, so the next page loads; other dialogs are dismissed.
    page.on('dialog', (dialog) => void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()).catch(() => undefined));
    page.on('popup', (popup) => void popup.close().catch(() => undefined));
    page.on('download', (download) => void download.cancel().catch(() => undefined));
    return tab;
  };

  /** Until the page is ready (lib/page-ready.ts); one that never was is listed with why, its links read anyway. */
  const ready = async (tab: Tab, url: string) => {
    const answer = await waitForReady(tab.page, { signal: halt.signal });
    if (answer.ready || stopped || tab.page.isClosed() || !answer.reason) return;
    if (notReady.length < MAX_NOT_READY_LISTED && !notReady.some((n) => n.url === url)) notReady.push({ url, reason: answer.reason });
  };

  const visit = async (tab: Tab, item: CrawledPage) => {
    const { page } = tab;
    tab.cause = 'route';
    const watchdog = setTimeout(() => void page.close().catch(() => undefined), VISIT_MAX_MS);
    try {
      // A hash route of the document the tab shows would be a same-document navigation: no load, no status.
      if (documentOf(page.url()) === documentOf(item.url)) await page.goto('about:blank');
      const response = await page.goto(item.url, { waitUntil: 'domcontentloaded' });
      item.status = response?.status() ?? null;
      if (!(response?.headers()['content-type'] ?? 'text/html').includes('html')) return;
      await ready(tab, item.url);
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
      if (options.submitForms) await submitForms(tab, item.url);
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
          if ((el.tagName === 'A' && el.hasAttribute('href')) || el.closest('form') || el.hasAttribute('disabled')) return [];
          if (el.getAttribute('aria-disabled') === 'true' || rect.width === 0 || rect.height === 0) return [];
          // Its text and its attributes (names and values, style aside), words split: deleteAccount, btn-logout.
          const said = [el.innerText || ''];
          for (let i = 0; i < el.attributes.length && i < 50; i++) {
            const a = el.attributes[i]!;
            if (a.name !== 'style') said.push(a.name, a.value.slice(0, 300));
          }
          const words = said.join(' ').replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.:/]+/g, ' ');
          if (new RegExp(args.never, 'i').test(words)) return [];
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
      await ready(tab, url);
      if (normalize(page.url()) === url) continue;
      // The click went somewhere (framenavigated recorded it): come back before the next one.
      await page.goBack({ timeout: CLICK_TIMEOUT_MS }).catch(() => null);
      if (normalize(page.url()) !== url) await page.goto(url, { waitUntil: 'domcontentloaded' });
      await ready(tab, url);
    }
  };

  /** A harmless value for a field, by its type and name; null: leave it as the page set it. */
  const harmlessValue = (type: string, name: string): string | null => {
    if (['hidden', 'submit', 'button', 'reset', 'image', 'file', 'color', 'range'].includes(type)) return null;
    if (type === 'email' || /mail/i.test(name)) return HARMLESS.email;
    if (type === 'password') return HARMLESS.password;
    if (type === 'number') return String(HARMLESS.number);
    if (type === 'tel') return '5550100';
    if (type === 'url') return 'https://example.com/';
    if (type === 'date') return '2024-01-02';
    if (type === 'datetime-local') return '2024-01-02T12:00';
    if (type === 'time') return '12:00';
    if (type === 'month') return '2024-01';
    if (type === 'week') return '2024-W01';
    return HARMLESS.text;
  };

  /**
   * Fills each form of the page with harmless values and submits it (its own submit handler runs, as on a user's
   * click), so the calls it makes are recorded; a form that went elsewhere is undone as a click is.
   */
  const submitForms = async (tab: Tab, url: string) => {
    const { page } = tab;
    const until = performance.now() + FORMS_PER_PAGE_MS;
    const count = Math.min(MAX_FORMS_PER_PAGE, await page.locator('form').count().catch(() => 0));
    for (let i = 0; i < count; i++) {
      if (stopped || performance.now() > until) return;
      const form = page.locator('form').nth(i);
      const plan = await form
        .evaluate(
          (f, args) => {
            const el = f as unknown as PageElement & { querySelector(s: string): unknown; querySelectorAll(s: string): ArrayLike<unknown> };
            const rect = el.getBoundingClientRect();
            if (rect.width === 0 || rect.height === 0 || el.querySelector(args.never) !== null) return null;
            const said = [el.innerText.slice(0, 2000), el.getAttribute('action') ?? '', el.getAttribute('aria-label') ?? '', el.getAttribute('id') ?? '', el.getAttribute('name') ?? ''];
            const fields = Array.from(el.querySelectorAll(args.fields)).map((x, index) => {
              const field = x as PageElement & { type?: string; name?: string; readOnly?: boolean; disabled?: boolean };
              said.push(field.name ?? '', field.getAttribute('placeholder') ?? '');
              const box = field.getBoundingClientRect();
              return { index, tag: field.tagName, type: (field.type ?? '').toLowerCase(), name: field.name ?? '', usable: !field.readOnly && !field.disabled && box.width > 0 && box.height > 0 };
            });
            const words = said.join(' ').replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.:/]+/g, ' ');
            return new RegExp(args.words, 'i').test(words) ? null : fields.filter((x) => x.usable);
          },
          { never: NEVER_SUBMIT_FIELDS, fields: FORM_FIELDS, words: NEVER_SUBMIT.source },
        )
        .catch(() => null);
      if (!plan) continue;
      const checked = new Set<string>();
      for (const field of plan) {
        const input = form.locator(FORM_FIELDS).nth(field.index);
        const fill = async () => {
          if (field.tag === 'SELECT') {
            const values = await input.evaluate((s) => Array.from((s as unknown as { options: ArrayLike<{ value: string }> }).options, (o) => o.value));
            const value = values.find((v) => v !== '');
            if (value !== undefined) await input.selectOption(value, { timeout: CLICK_TIMEOUT_MS });
          } else if (field.type === 'checkbox') await input.check({ timeout: CLICK_TIMEOUT_MS });
          else if (field.type === 'radio') {
            if (!checked.has(field.name)) await input.check({ timeout: CLICK_TIMEOUT_MS });
            checked.add(field.name);
          } else {
            const value = field.tag === 'TEXTAREA' ? HARMLESS.text : harmlessValue(field.type, field.name);
            if (value !== null) await input.fill(value, { timeout: CLICK_TIMEOUT_MS });
          }
        };
        // A field that will not take a value (a widget of its own) is left as it is.
        await fill().catch(() => undefined);
      }
      // requestSubmit runs the form's checks and its submit handlers, as a user's click on its button does.
      const sent = await form
        .evaluate((f) => {
          (f as unknown as { requestSubmit(): void }).requestSubmit();
        })
        .then(() => true, () => false);
      if (!sent) continue;
      formsSubmitted.push({ page: url, fields: plan.length });
      await ready(tab, url);
      if (normalize(page.url()) === url) continue;
      await page.goBack({ timeout: CLICK_TIMEOUT_MS }).catch(() => null);
      if (normalize(page.url()) !== url) await page.goto(url, { waitUntil: 'domcontentloaded' });
      await ready(tab, url);
    }
  };

  try {
    const browserContext = await own.browser.newContext({ acceptDownloads: false, serviceWorkers: 'block' });
    context = browserContext;
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
  ctx.log('browser crawl done', { pages: pages.length, endpoints: endpoints.size, jsonCalls, formsSubmitted: formsSubmitted.length, refused: refused.size, budgetReached, notReady: notReady.length, ms: Math.round(durationMs) });
  return { pages, endpoints: [...endpoints.values()], errors, refused: [...refused], budgetReached, formsSubmitted, notReady, durationMs };
}
