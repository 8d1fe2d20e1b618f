/**
 * One cell of a visual test (engine × device × network, decision 0078): a browser of its engine behind its network's
 * policy proxy, with its device's viewport, scale and user agent, in which each page is loaded, waited for until it
 * is ready (lib/page-ready.ts, decision 0089), stilled and captured masked (decision 0080). The extension point for another engine: a `CellShooter` of its own (WebKit: over
 * WebDriver, lib/webdriver.ts: its screenshot command, the same CSS injected by script, masks filled by an overlay
 * script), chosen in `openShooter`, and its name added to VISUAL_ENGINES.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { launchGuardedBrowser } from '../../lib/guarded-browser.ts';
import { prepareReady, type Readiness, waitForReady } from '../../lib/page-ready.ts';
import type { TargetGuard } from '../../policy/target-guard.ts';
import type { RunContext } from '../../types.ts';
import { deviceUse } from '../browser/devices.ts';
import type { Cell } from '../browser/matrix.ts';
import { VISUAL_ENGINES } from './options.ts';

/** What a masked element's box is filled with: a colour no page uses by chance, so a reader sees what was masked. */
export const MASK_COLOR = '#FF00FF';
/** A full-page shot is cut here (CSS pixels): a 1280 × 10 000 shot is 51 MB decoded, and three are compared at once. */
export const MAX_FULL_PAGE_HEIGHT = 10_000;
export const CAPTURE_TIMEOUT_MS = 30_000;

/**
 * Animations and transitions off (elements show their own styles, not a frame of an animation), the caret hidden,
 * smooth scrolling off, and no scrollbars (the browser's, not the page's: Firefox's took 12 px of the page's width).
 * Injected once the page has loaded, and again by every capture in every frame.
 */
export const STILL_CSS =
  '*,*::before,*::after{animation:none!important;transition:none!important;caret-color:transparent!important;scroll-behavior:auto!important}' +
  'html{scrollbar-width:none!important}::-webkit-scrollbar{display:none!important}';

/** The page's scrollable size, in the page (a script as text: the programs that load this file have no DOM types). */
const DOCUMENT_SIZE =
  '({ width: document.documentElement.scrollWidth, height: Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0) })';

export interface ShotOptions {
  /** CSS selectors whose boxes are filled with MASK_COLOR in every capture. */
  mask: readonly string[];
  fullPage: boolean;
  timeoutMs: number;
  /** Ends the wait for ready (the run was cancelled). */
  signal?: AbortSignal;
}

/** A loaded page of a cell. */
export interface ShotPage {
  /** The HTTP status its document answered. */
  status: number;
  /** Whether it was ready (lib/page-ready.ts: data rendered, fonts and visible images in) before its first capture. */
  ready: Readiness;
  /** The height a full-page shot was cut at, when the page is taller than MAX_FULL_PAGE_HEIGHT. */
  cutAtHeight?: number;
  /** The page as it is now, stilled and masked, at CSS pixels: PNG bytes. */
  capture(): Promise<Buffer>;
  /** How many elements each mask selector matches now, in the order of `ShotOptions.mask`. */
  maskedElements(): Promise<number[]>;
  close(): Promise<void>;
}

export interface CellShooter {
  open(url: string, options: ShotOptions): Promise<ShotPage>;
  close(): Promise<void>;
}

type PlaywrightCell = Cell & { engine: 'chromium' | 'firefox' };

/** A loaded page made still (STILL_CSS), and how to capture it: masked with MASK_COLOR, a full page cut at MAX_FULL_PAGE_HEIGHT. */
export interface StillPage {
  cutAtHeight?: number;
  capture(mask: readonly Locator[]): Promise<Buffer>;
}

/**
 * Stills a loaded, ready page and answers how it is captured: every capture of a visual test, and the site survey's
 * two visits of a page (survey/changing-elements.ts), the same way.
 */
export async function stillPage(page: Page, fullPage: boolean): Promise<StillPage> {
  // A page's CSP may refuse the style element; each capture's own `style` still applies.
  await page.addStyleTag({ content: STILL_CSS }).catch(() => undefined);
  const size = fullPage ? await page.evaluate<{ width: number; height: number }>(DOCUMENT_SIZE) : null;
  const cut = size && size.height > MAX_FULL_PAGE_HEIGHT ? MAX_FULL_PAGE_HEIGHT : undefined;
  return {
    ...(cut ? { cutAtHeight: cut } : {}),
    capture: (mask) =>
      page.screenshot({
        fullPage,
        ...(cut && size ? { clip: { x: 0, y: 0, width: size.width, height: cut } } : {}),
        animations: 'disabled',
        caret: 'hide',
        scale: 'css',
        style: STILL_CSS,
        mask: [...mask],
        maskColor: MASK_COLOR,
        timeout: CAPTURE_TIMEOUT_MS,
      }),
  };
}

/** What a visual test's browser context is given besides its device: pages that honour reduced motion still themselves; light, whatever the machine prefers. */
export const STILL_CONTEXT = { reducedMotion: 'reduce', colorScheme: 'light' } as const;

async function openPage(context: BrowserContext, url: string, options: ShotOptions): Promise<ShotPage> {
  const page = await context.newPage();
  try {
    await prepareReady(page);
    const response = await page.goto(url, { waitUntil: 'load', timeout: options.timeoutMs });
    if (!response) throw new Error('the page gave no response');
    // Its data rendered, its fonts and visible images in: a page still filling in is no baseline.
    const ready = await waitForReady(page, options.signal ? { signal: options.signal } : {});
    const still = await stillPage(page, options.fullPage);
    const mask = options.mask.map((selector) => page.locator(selector));
    return {
      status: response.status(),
      ready,
      ...(still.cutAtHeight ? { cutAtHeight: still.cutAtHeight } : {}),
      capture: () => still.capture(mask),
      maskedElements: () => Promise.all(mask.map((locator) => locator.count())),
      close: () => page.close().catch(() => undefined),
    };
  } catch (error) {
    await page.close().catch(() => undefined);
    throw error;
  }
}

/** A cell on a Playwright engine (Chromium, or Firefox over BiDi): one context with the cell's device, a page per URL. */
async function playwrightShooter(cell: PlaywrightCell, guard: TargetGuard, ctx: RunContext, home: string | undefined): Promise<CellShooter> {
  const guarded = await launchGuardedBrowser(guard, ctx, { engine: cell.engine, network: cell.network, ...(home ? { home } : {}) });
  let context: BrowserContext;
  try {
    context = await guarded.browser.newContext({ ...deviceUse(cell.device, cell.engine), ...STILL_CONTEXT });
  } catch (error) {
    await guarded.close();
    throw error;
  }
  return { open: (url, options) => openPage(context, url, options), close: () => guarded.close() };
}

const isPlaywrightCell = (cell: Cell): cell is PlaywrightCell => cell.engine === 'chromium' || cell.engine === 'firefox';

/** The shooter of a cell, by its engine (validation keeps the engines to VISUAL_ENGINES). */
export function openShooter(cell: Cell, guard: TargetGuard, ctx: RunContext, home?: string): Promise<CellShooter> {
  if (isPlaywrightCell(cell)) return playwrightShooter(cell, guard, ctx, home);
  throw new Error(`visual tests do not shoot on ${cell.engine} here: the engines are ${VISUAL_ENGINES.join(', ')}`);
}
