/**
 * One cell of an accessibility test (engine × device × network, decision 0078): a browser of its engine behind its
 * network's policy proxy, with its device's viewport, scale, user agent and touch, in which each page is loaded
 * and analysed by axe. The extension point for another engine: a `CellSession` of its own (WebKit: axe over
 * WebDriver, lib/webkit.ts), chosen in `openCellSession`, and its name added to ACCESSIBILITY_ENGINES.
 */
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { type GuardedBrowser, launchGuardedBrowser } from '../../lib/guarded-browser.ts';
import { prepareReady, type Readiness, waitForReady } from '../../lib/page-ready.ts';
import { sameDocument } from '../../lib/page-path.ts';
import type { TargetGuard } from '../../policy/target-guard.ts';
import type { RunContext } from '../../types.ts';
import { deviceUse } from '../browser/devices.ts';
import type { Cell } from '../browser/matrix.ts';
import { ACCESSIBILITY_ENGINES } from './options.ts';

export interface AuditOptions {
  tags: string[];
  disableRules: string[];
  pageTimeoutMs: number;
}

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;

/** A page as axe saw it in one cell: the status its load answered, whether it was ready (lib/page-ready.ts), and axe's results. */
export interface PageAudit {
  status: number;
  ready: Readiness;
  results: AxeResults;
}

export interface CellSession {
  /** The Playwright browser, for the crawl (run in the first cell's); null for an engine Playwright does not drive. */
  guarded: GuardedBrowser | null;
  /** Loads a page, waits until it is ready (at most READY_MAX_MS) and runs axe on it; throws when the page does not load. */
  audit(url: string, options: AuditOptions): Promise<PageAudit>;
  close(): Promise<void>;
}

type PlaywrightCell = Cell & { engine: 'chromium' | 'firefox' };

/**
 * A session on a Playwright engine (Chromium, or Firefox over BiDi): one context with the cell's device and one tab
 * that navigates from page to page, as the page checks' (a new tab a page cost Chromium a renderer and compiling the
 * site's scripts again); after a page that threw, the next gets a new tab.
 */
async function playwrightSession(cell: PlaywrightCell, guard: TargetGuard, ctx: RunContext, home: string | undefined): Promise<CellSession> {
  const guarded = await launchGuardedBrowser(guard, ctx, { engine: cell.engine, network: cell.network, ...(home ? { home } : {}) });
  let context: BrowserContext;
  try {
    context = await guarded.browser.newContext(deviceUse(cell.device, cell.engine));
  } catch (error) {
    await guarded.close();
    throw error;
  }
  let tab: Page | null = null;
  return {
    guarded,
    async audit(url, options) {
      if (!tab) {
        tab = await context.newPage();
        await prepareReady(tab);
        // A page that asks before it is left must not hold the tab: the next page's navigation goes ahead.
        tab.on('dialog', (dialog) => void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()).catch(() => undefined));
      }
      const page = tab;
      try {
        // A hash route of the document the tab shows (`/#/about` after `/`) would be a same-document navigation: no
        // load, no response. The page is loaded anew, as a visitor opening its address does.
        if (sameDocument(page.url(), url)) await page.goto('about:blank');
        const response = await page.goto(url, { waitUntil: 'load', timeout: options.pageTimeoutMs });
        if (!response) throw new Error('no response');
        // What a script renders after its data calls is what a user meets: axe reads the page once it is ready.
        const ready = await waitForReady(page, { signal: ctx.signal });
        if (ctx.signal.aborted) throw new Error('cancelled');
        const results = await new AxeBuilder({ page }).withTags(options.tags).disableRules(options.disableRules).analyze();
        return { status: response.status(), ready, results };
      } catch (error) {
        tab = null;
        await page.close().catch(() => undefined);
        throw error;
      }
    },
    close: () => guarded.close(),
  };
}

const isPlaywrightCell = (cell: Cell): cell is PlaywrightCell => cell.engine === 'chromium' || cell.engine === 'firefox';

/** The session of a cell, by its engine (validation keeps the engines to ACCESSIBILITY_ENGINES). */
export function openCellSession(cell: Cell, guard: TargetGuard, ctx: RunContext, home?: string): Promise<CellSession> {
  if (isPlaywrightCell(cell)) return playwrightSession(cell, guard, ctx, home);
  throw new Error(`axe does not run on ${cell.engine} here: the engines are ${ACCESSIBILITY_ENGINES.join(', ')}`);
}
