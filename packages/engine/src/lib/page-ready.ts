/**
 * One notion of "ready" for a loaded page (decision 0089), for every runner that reads or shoots a page a script
 * renders: after `load`, no request in flight for READY_NETWORK_QUIET_MS, the document unchanged for
 * READY_DOM_QUIET_MS, web fonts loaded, the visible images decoded and no rendered element `aria-busy="true"`; all
 * bounded by READY_MAX_MS. The answer says what happened, so a report can say that a page was read before it was
 * ready and why (`max reached: 2 requests in flight (…)`).
 *
 * Two sources. The requests are the browser's own account (Playwright's request events, on this side): a page cannot
 * hide or fake them. The rest is read in the page by a probe (PROBE_INSTALL): a MutationObserver, the page's own
 * fetch/XHR count (the browser's events can arrive late on a busy machine), fonts, images, aria-busy. A hostile page
 * can lie to it, or hang it: its answer is parsed strictly as a small record of numbers (never run, never shown as
 * text), an unreadable one counts as not ready, and the maximum is kept on this side.
 *
 * Use: `prepareReady(page)` once, before the page's first navigation (the probe then sees the document from its
 * start and every request is counted); `waitForReady(page)` after each navigation. A page not prepared is prepared
 * on first use: it misses the requests already in flight, and its quiet windows start then.
 *
 * Self-contained (Playwright's `Page` type only), so that a suite of the customer's can carry a copy of it.
 */
import type { Page, Request } from 'playwright-core';

/** No request of the page's in flight, started or ended, for this long (figures: decision 0089). */
export const READY_NETWORK_QUIET_MS = 500;
/** No change to the document (nodes, text, attributes other than `style`) for this long. */
export const READY_DOM_QUIET_MS = 500;
/** Past this, the page is read as it is and the answer says why it was not ready. */
export const READY_MAX_MS = 10_000;
/** How often the conditions are read. */
const POLL_MS = 50;
/**
 * Requests that stay open by design, never "in flight" for readiness: server-sent events and media streams (a
 * WebSocket is no request to Playwright). Firefox over BiDi reports an EventSource as a `document`: it is known by
 * what it accepts, or by what it answers.
 */
const LONG_LIVED = new Set(['eventsource', 'websocket', 'media']);
const EVENT_STREAM = /^\s*text\/event-stream\b/i;
/** A read of the probe is given at least this long, even at the end of the wait (a page that answers is read). */
const READ_FLOOR_MS = 250;
const URLS_SHOWN = 3;

export interface ReadyOptions {
  networkQuietMs?: number;
  domQuietMs?: number;
  maxMs?: number;
  /** Ends the wait at once (not ready, reason "cancelled"). */
  signal?: AbortSignal;
}

export interface Readiness {
  ready: boolean;
  /** From the call to the answer, the wait for `load` included. */
  waitedMs: number;
  /** When not ready: what was still going on when the maximum was reached (or the page closed, the wait was cancelled). */
  reason?: string;
}

/** What the probe reports, parsed: every field a number or a boolean, as checked by `parseProbe`. */
export interface ProbeReading {
  /** Milliseconds since the document last changed, on the page's clock. */
  sinceChange: number;
  /** The page's own fetch and XHR calls in flight (0 when the probe came after them), and ms since one started or ended. */
  calls: number;
  sinceCall: number;
  fontsLoading: boolean;
  /** Visible images not yet loaded and decoded. */
  images: number;
  /** Rendered elements with aria-busy="true". */
  busy: number;
}

/**
 * The probe, run in the page (a string: nothing of the build reaches the page): as an init script before the page's
 * own, or evaluated once it has loaded. Its state is held in a closure; the page sees one non-writable,
 * non-configurable, hidden function, `__fullstopReady`, which answers a fresh record of numbers.
 */
export const PROBE_INSTALL = `(() => {
  const KEY = '__fullstopReady';
  if (Object.getOwnPropertyDescriptor(window, KEY)) return;
  const now = performance.now.bind(performance);
  const state = { changed: now(), calls: 0, call: now() };
  try {
    new MutationObserver((records) => {
      for (const r of records) if (r.type !== 'attributes' || r.attributeName !== 'style') { state.changed = now(); return; }
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  } catch (e) {}
  const started = () => { state.calls++; state.call = now(); };
  const ended = () => { state.calls = Math.max(0, state.calls - 1); state.call = now(); };
  try {
    if (typeof window.fetch === 'function') {
      const original = window.fetch;
      window.fetch = function (...args) {
        started();
        let call;
        try { call = original.apply(this, args); } catch (e) { ended(); throw e; }
        Promise.resolve(call).then(ended, ended);
        return call;
      };
    }
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (...args) {
      started();
      this.addEventListener('loadend', ended, { once: true });
      try { return send.apply(this, args); } catch (e) { this.removeEventListener('loadend', ended); ended(); throw e; }
    };
  } catch (e) {}
  const decoded = new WeakSet();
  const decoding = new WeakSet();
  const read = () => {
    let images = 0;
    const list = document.images;
    const w = window.innerWidth, h = window.innerHeight;
    for (let i = 0; i < list.length && i < 500; i++) {
      const img = list[i];
      const r = img.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.bottom <= 0 || r.right <= 0 || r.top >= h || r.left >= w) continue;
      if (!img.complete) { images++; continue; }
      if (img.naturalWidth === 0 || decoded.has(img)) continue;
      images++;
      if (!decoding.has(img)) {
        decoding.add(img);
        const done = () => decoded.add(img);
        img.decode().then(done, done);
      }
    }
    let busy = 0;
    const marked = document.querySelectorAll('[aria-busy="true"]');
    for (let i = 0; i < marked.length && i < 100; i++) if (marked[i].getClientRects().length > 0) busy++;
    const t = now();
    return {
      sinceChange: t - state.changed,
      calls: state.calls,
      sinceCall: t - state.call,
      fontsLoading: !!document.fonts && document.fonts.status === 'loading',
      images,
      busy,
    };
  };
  Object.defineProperty(window, KEY, { value: read, writable: false, configurable: false, enumerable: false });
})()`;

/**
 * Reads the probe (a function's source: the page checks run it on WebKit through WebDriver too). Whatever the page
 * put in its place, what comes back is copied field by field into a new record of numbers and booleans.
 */
export const PROBE_READ = `() => {
  const read = window.__fullstopReady;
  if (typeof read !== 'function') return null;
  const r = read();
  if (!r || typeof r !== 'object') return null;
  const n = (x) => (typeof x === 'number' ? x : -1);
  return { sinceChange: n(r.sinceChange), calls: n(r.calls), sinceCall: n(r.sinceCall), fontsLoading: r.fontsLoading === true ? true : r.fontsLoading === false ? false : null, images: n(r.images), busy: n(r.busy) };
}`;

const MAX_READING = 1e9;
const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= MAX_READING;
const isSpan = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= MAX_READING;

/** The probe's answer when it is exactly a reading (known fields, numbers in range); null for anything else. */
export function parseProbe(value: unknown): ProbeReading | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (!isSpan(v.sinceChange) || !isCount(v.calls) || !isSpan(v.sinceCall) || typeof v.fontsLoading !== 'boolean' || !isCount(v.images) || !isCount(v.busy)) return null;
  return { sinceChange: v.sinceChange, calls: v.calls, sinceCall: v.sinceCall, fontsLoading: v.fontsLoading, images: v.images, busy: v.busy };
}

/** The browser's account of a page's requests. */
export interface NetworkState {
  /** Requests in flight: their URL, by the time they started. */
  inFlight(): string[];
  /** Milliseconds (this process's clock) since a request started or ended. */
  sinceActivity(): number;
}

interface Tracker extends NetworkState {
  ready: Promise<void>;
}

const trackers = new WeakMap<Page, Tracker>();

/** A URL as a reason shows it: no query or fragment (they may carry tokens), at most 100 characters. */
function shownUrl(raw: string): string {
  const url = URL.parse(raw);
  const text = url ? `${url.origin}${url.pathname}${url.search ? '?…' : ''}` : raw;
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}

function track(page: Page): Tracker {
  const known = trackers.get(page);
  if (known) return known;
  const open = new Map<Request, number>();
  let last = performance.now();
  // A main-frame document requested: once it commits, what the previous document had in flight is gone with it.
  let navigationStarted: number | null = null;
  page.on('request', (request) => {
    const at = performance.now();
    let navigation = false;
    try {
      navigation = request.isNavigationRequest() && request.frame() === page.mainFrame();
    } catch {
      // A service worker's request has no frame.
    }
    if (navigation) navigationStarted = at;
    if (LONG_LIVED.has(request.resourceType()) || EVENT_STREAM.test(request.headers().accept ?? '')) return;
    open.set(request, at);
    last = at;
  });
  const settled = (request: Request) => {
    if (open.delete(request)) last = performance.now();
  };
  page.on('requestfinished', settled);
  page.on('requestfailed', settled);
  page.on('response', (response) => {
    if (EVENT_STREAM.test(response.headers()['content-type'] ?? '')) settled(response.request());
  });
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame() || navigationStarted === null) return;
    for (const [request, at] of open) if (at < navigationStarted) open.delete(request);
    navigationStarted = null;
  });
  const tracker: Tracker = {
    ready: page.addInitScript(PROBE_INSTALL).catch(() => undefined),
    inFlight: () => [...open.entries()].sort((a, b) => a[1] - b[1]).map(([r]) => r.url()),
    sinceActivity: () => performance.now() - last,
  };
  trackers.set(page, tracker);
  return tracker;
}

/** Counts the page's requests and adds the probe to its documents: call it before the page's first navigation. */
export async function prepareReady(page: Page): Promise<void> {
  await track(page).ready;
}

/** Resolves after `ms`, or at once when the signal aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The work's answer, or `fallback` once `ms` have passed or the signal aborts (the work is left to end on its own). */
async function within<T>(work: Promise<T>, ms: number, fallback: T, signal?: AbortSignal): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), Math.max(0, ms));
    onAbort = () => resolve(fallback);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What keeps the page from being ready, in words; empty when it is ready. */
function pending(network: NetworkState | null, reading: ProbeReading | null, q: { networkQuietMs: number; domQuietMs: number }): string[] {
  const out: string[] = [];
  if (network) {
    const urls = network.inFlight();
    if (urls.length > 0) {
      const shown = urls.slice(0, URLS_SHOWN).map(shownUrl).join(', ');
      out.push(`${plural(urls.length, 'request')} in flight (${shown}${urls.length > URLS_SHOWN ? `, and ${urls.length - URLS_SHOWN} more` : ''})`);
    } else if (network.sinceActivity() < q.networkQuietMs) out.push(`a request ended or started ${Math.round(network.sinceActivity())} ms before`);
  }
  if (!reading) {
    out.push("the page's readiness probe gave no readable answer");
    return out;
  }
  if (reading.calls > 0) out.push(`${plural(reading.calls, 'fetch/XHR call')} pending in the page`);
  else if (reading.sinceCall < q.networkQuietMs) out.push(`a fetch/XHR call ended ${Math.round(reading.sinceCall)} ms before`);
  if (reading.sinceChange < q.domQuietMs) out.push(`the document changed ${Math.round(reading.sinceChange)} ms before`);
  if (reading.fontsLoading) out.push('web fonts still loading');
  if (reading.images > 0) out.push(`${plural(reading.images, 'visible image')} not yet decoded`);
  if (reading.busy > 0) out.push(`${plural(reading.busy, 'element')} aria-busy`);
  return out;
}

export interface ReadyLoop {
  /** The browser's account of the page's requests; null where there is none (WebKit over WebDriver): the page's own count only. */
  network: NetworkState | null;
  /** Runs PROBE_READ in the page; its answer, as the page gave it. */
  read(): Promise<unknown>;
  /** Whether the page is gone (then the wait ends). */
  closed?(): boolean;
}

/**
 * The readiness loop on any driver: reads the conditions every POLL_MS until all hold or the maximum is reached.
 * `started` is when the wait began (the load's wait counts toward the maximum).
 */
export async function readyLoop(loop: ReadyLoop, options: ReadyOptions = {}, started = performance.now()): Promise<Readiness> {
  const q = { networkQuietMs: options.networkQuietMs ?? READY_NETWORK_QUIET_MS, domQuietMs: options.domQuietMs ?? READY_DOM_QUIET_MS };
  const deadline = started + (options.maxMs ?? READY_MAX_MS);
  const waited = () => Math.round(performance.now() - started);
  let reasons: string[] = [];
  for (;;) {
    if (options.signal?.aborted) return { ready: false, waitedMs: waited(), reason: 'cancelled' };
    if (loop.closed?.()) return { ready: false, waitedMs: waited(), reason: 'the page closed' };
    const answer = await within(
      loop.read().catch(() => null),
      Math.max(READ_FLOOR_MS, deadline - performance.now()),
      null,
      options.signal,
    );
    const reading = parseProbe(answer);
    reasons = pending(loop.network, reading, q);
    if (reasons.length === 0) return { ready: true, waitedMs: waited() };
    const left = deadline - performance.now();
    if (left <= 0) return { ready: false, waitedMs: waited(), reason: `max reached: ${reasons.join('; ')}` };
    await pause(Math.min(POLL_MS, left), options.signal);
  }
}

/**
 * Waits until the page is ready (see the file's head), at most `maxMs` (READY_MAX_MS), and says what happened.
 * Never throws: a page that closes or does not load is not ready, with the reason.
 */
export async function waitForReady(page: Page, options: ReadyOptions = {}): Promise<Readiness> {
  const started = performance.now();
  const maxMs = options.maxMs ?? READY_MAX_MS;
  const tracker = track(page);
  await tracker.ready;
  const loaded = await within(
    page.waitForLoadState('load', { timeout: Math.max(1, maxMs) }).then(
      () => true,
      () => false,
    ),
    maxMs,
    false,
    options.signal,
  );
  if (!loaded) {
    const waitedMs = Math.round(performance.now() - started);
    if (page.isClosed()) return { ready: false, waitedMs, reason: 'the page closed' };
    return { ready: false, waitedMs, reason: options.signal?.aborted ? 'cancelled' : 'max reached: the page did not finish loading' };
  }
  // Not prepared before its navigation (or the init script was refused): the probe from now on.
  await within(page.evaluate(PROBE_INSTALL).catch(() => undefined), Math.max(READ_FLOOR_MS, started + maxMs - performance.now()), undefined, options.signal);
  return readyLoop(
    { network: tracker, read: () => page.evaluate(`(${PROBE_READ})()`), closed: () => page.isClosed() },
    options,
    started,
  );
}
