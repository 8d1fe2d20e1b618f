import { z } from 'zod';

// The crawl's options, apart from the crawl itself: every kind's options.ts reads them, and the processes that only
// validate suites (the API) must not load the crawler and its HTTP client with them.

export const DEFAULT_CRAWL_PAGES = 20;
export const DEFAULT_CRAWL_SECONDS = 60;

/**
 * How the security scan, the security checks and the accessibility test find pages beyond the listed ones:
 * `false` the listed pages only; `true` also the same-origin pages their HTML links to (no JavaScript runs);
 * `"browser"` Chromium goes through the site as a user does (links rendered by scripts, client-side routes,
 * elements that route when clicked) and records the XHR/fetch calls the pages make.
 */
export const crawlOption = z.union([z.boolean(), z.literal('browser')]);
export type CrawlMode = z.output<typeof crawlOption>;
/** Pages in all (the listed ones included) when crawling. */
export const maxPagesOption = z.number().int().min(1).max(500);
/** The browser crawl's time budget: what it found by then is used. */
export const crawlSecondsOption = z.number().int().min(5).max(600).default(DEFAULT_CRAWL_SECONDS);

/**
 * The first options of every kind that crawls: `pages`, the paths (or same-origin URLs) it starts from, and how
 * it finds more from them (`crawl`, off or on by default as the kind says, `maxPages`, `crawlSeconds`). A path may
 * carry a hash route (`/#/about`): a kind that loads pages in a browser loads it anew and waits until it is ready;
 * one that fetches pages over HTTP fetches its document.
 */
export function crawlStartOptions(crawlByDefault: boolean) {
  return {
    pages: z.array(z.string().min(1)).min(1).default(['/']),
    crawl: crawlOption.default(crawlByDefault),
    maxPages: maxPagesOption.default(DEFAULT_CRAWL_PAGES),
    crawlSeconds: crawlSecondsOption,
  };
}
