/**
 * The report browser: one Chromium that prints reports to pdf, kept by the process that serves them. Launched on
 * the first print with the engine's guarded flags, JavaScript off and every network request refused (a report
 * needs none), at the runners' nice value; closed once idle, so a process at rest holds no Chromium.
 */
import { setPriority } from 'node:os';
import type { Browser, BrowserContext } from 'playwright-core';
import { GUARDED_CHROMIUM_FLAGS, playwrightChromiumArgs } from '../lib/chromium.ts';
import { processTable } from '../sandbox/process-table.ts';
import { RUNNER_NICENESS } from '../sandbox/supervisor.ts';

const LAUNCH_TIMEOUT_MS = 30_000;
const RENDER_TIMEOUT_MS = 30_000;
/** One pdf from start to end, launch included: past it the pdf is given up and the browser closed. */
export const PRINT_TIMEOUT_MS = 60_000;
/** A browser that printed nothing for this long is closed; the next print launches another. */
export const REPORT_BROWSER_IDLE_MS = 60_000;
/** Pages printing at once: more wait their turn (a burst of downloads does not open a page each). */
const MAX_PAGES = 2;

export interface ReportPrinter {
  /** The html printed to A4; rejects when the browser cannot start, the page fails, or it takes too long. */
  printPdf(html: string): Promise<Buffer>;
  /** Whether a browser is launched (or launching) now. */
  isOpen(): boolean;
  close(): Promise<void>;
}

export interface ReportPrinterOptions {
  /** Closes the browser after this long without a print; absent, it stays until `close()`. */
  idleMs?: number;
  printTimeoutMs?: number;
}

/** A print (or a close) that took longer than it may. */
export class ReportBrowserTimeoutError extends Error {}

/** The promise, or a rejection once `ms` have passed (page.pdf itself takes no timeout). */
function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ReportBrowserTimeoutError(`${what} took longer than ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

/**
 * The process that serves reports is the API's: the browser that prints them gets the runners' nice value, so the
 * API is still scheduled first on a busy machine. Every process the launch added under this one is lowered; the
 * renderers Chromium starts later inherit it.
 */
function lowerNewChildren(before: ReadonlySet<number>): void {
  const table = processTable();
  const lowered = new Set(table.filter((p) => p.ppid === process.pid && !before.has(p.pid)).map((p) => p.pid));
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of table) {
      if (lowered.has(p.ppid) && !lowered.has(p.pid)) {
        lowered.add(p.pid);
        grew = true;
      }
    }
  }
  for (const pid of lowered) {
    try {
      setPriority(pid, RUNNER_NICENESS);
    } catch {
      // Gone already, or not ours to change: the pdf is still printed.
    }
  }
}

const childrenOfThisProcess = () => new Set(processTable().filter((p) => p.ppid === process.pid).map((p) => p.pid));

interface Launched {
  browser: Browser;
  context: BrowserContext;
}

async function launch(chromiumPath: string, timeout: number): Promise<Launched> {
  // Loaded with the first pdf, not with the server: playwright-core is ~11 MB of memory a server at rest
  // would hold for nothing (bench/rest).
  const { chromium } = await import('playwright-core');
  const before = childrenOfThisProcess();
  const browser = await chromium.launch({ executablePath: chromiumPath, args: playwrightChromiumArgs(GUARDED_CHROMIUM_FLAGS), timeout });
  lowerNewChildren(before);
  try {
    const context = await browser.newContext({ javaScriptEnabled: false, deviceScaleFactor: 1 });
    await context.route('**/*', (route) => route.abort());
    return { browser, context };
  } catch (err) {
    await browser.close().catch(() => undefined);
    throw err;
  }
}

export function openReportBrowser(chromiumPath: string, opts: ReportPrinterOptions = {}): ReportPrinter {
  const printTimeoutMs = opts.printTimeoutMs ?? PRINT_TIMEOUT_MS;
  let launched: Promise<Launched> | null = null;
  let printing = 0;
  let idle: NodeJS.Timeout | undefined;
  let pagesOpen = 0;
  const queue: (() => void)[] = [];

  const start = (): Promise<Launched> => {
    if (launched) return launched;
    const current = launch(chromiumPath, Math.min(LAUNCH_TIMEOUT_MS, printTimeoutMs));
    launched = current;
    current.then(
      ({ browser }) => browser.on('disconnected', () => {
        // Crashed or killed: the next print launches a new one.
        if (launched === current) launched = null;
      }),
      () => {
        if (launched === current) launched = null;
      },
    );
    return current;
  };

  /** Browsers being closed: `close()` waits for them, so nothing is left behind when it resolves. */
  const closing = new Set<Promise<void>>();
  /** Closes the browser there is now (a print still on it fails); the next print launches another. */
  const discard = (): Promise<void> => {
    const current = launched;
    launched = null;
    if (!current) return Promise.resolve();
    const done = current
      .then((l) => within(LAUNCH_TIMEOUT_MS, 'closing the report browser', l.browser.close()))
      .catch(() => {
        // A launch that failed has nothing to close; a browser that does not close in time is killed by
        // playwright's own launcher when this process exits.
      })
      .finally(() => closing.delete(done));
    closing.add(done);
    return done;
  };

  const takePage = () => (pagesOpen < MAX_PAGES ? (pagesOpen++, Promise.resolve()) : new Promise<void>((resolve) => queue.push(resolve)));
  const releasePage = () => {
    const next = queue.shift();
    if (next) next();
    else pagesOpen--;
  };

  return {
    async printPdf(html) {
      clearTimeout(idle);
      printing++;
      let abandoned = false;
      const work = (async () => {
        await takePage();
        try {
          if (abandoned) throw new Error('the print was given up');
          const { context } = await start();
          const page = await context.newPage();
          try {
            await page.setContent(html, { timeout: RENDER_TIMEOUT_MS });
            return await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
          } finally {
            await page.close().catch(() => undefined);
          }
        } finally {
          releasePage();
        }
      })();
      try {
        return await within(printTimeoutMs, 'printing the pdf', work);
      } catch (err) {
        abandoned = true;
        // The work may still hold a page; a browser that hung is not kept for the next print.
        work.catch(() => undefined);
        // Not waited for: playwright may take its own 30 s to give up a launch that hangs.
        if (err instanceof ReportBrowserTimeoutError) void discard();
        throw err;
      } finally {
        if (--printing === 0 && opts.idleMs !== undefined) {
          idle = setTimeout(() => void discard(), opts.idleMs);
          idle.unref();
        }
      }
    },
    isOpen: () => launched !== null,
    async close() {
      clearTimeout(idle);
      await discard();
      await Promise.all(closing);
    },
  };
}
