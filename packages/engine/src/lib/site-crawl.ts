import type { TargetGuard } from '../policy/target-guard.ts';
import type { Artifact, RunContext } from '../types.ts';
import type { CrawledEndpoint } from './browser-crawl.ts';
import type { GuardedBrowser } from './guarded-browser.ts';
import { crawlPages } from './crawl.ts';
import type { GuardedResponse } from './http.ts';
import { writeJsonArtifact } from './result.ts';
import type { CrawlMode } from './crawl-options.ts';

export { type CrawlMode, crawlOption, crawlSecondsOption, DEFAULT_CRAWL_PAGES, DEFAULT_CRAWL_SECONDS, maxPagesOption } from './crawl-options.ts';

export interface SiteCrawl {
  /** Every page found, the listed ones first (URLs). */
  pages: string[];
  /** Calls the pages made (browser crawl only), with the shape of each JSON body. */
  endpoints: CrawledEndpoint[];
  /** The pages and the GET endpoints fetched over HTTP (when `fetch` is on): what the passive checks read. */
  responses: GuardedResponse[];
  errors: { url: string; error: string }[];
  /** What a browser crawl adds to wapiti's start URLs: its pages and GET calls (none for the other crawls). */
  seedUrls: string[];
  /** The browser crawl's account (pages with how they were found, calls, refusals, budget): `crawl/browser-crawl.json`. */
  artifact?: Artifact;
}

export interface SiteCrawlOptions {
  crawl: CrawlMode;
  maxPages: number;
  crawlSeconds: number;
  exclude?: string[];
  /** Fetch the pages (and GET endpoints) over HTTP for the passive checks. */
  fetch: boolean;
  /** Crawl in this browser instead of launching one (the accessibility test's). */
  browser?: GuardedBrowser;
  /** The browser crawl fills and submits forms, recording the calls they make (the security scan's). */
  submitForms?: boolean;
}

/** The pages (and calls) of the website the chosen crawl finds from `start`. */
export async function crawlSite(guard: TargetGuard, ctx: RunContext, start: string[], options: SiteCrawlOptions): Promise<SiteCrawl> {
  if (options.crawl !== 'browser') {
    const listed = start.map((p) => new URL(p, guard.baseUrl).href);
    if (!options.crawl && !options.fetch) return { pages: listed, endpoints: [], responses: [], errors: [], seedUrls: [] };
    const maxPages = options.crawl ? options.maxPages : start.length;
    const { responses, errors } = await crawlPages(guard, start, { crawl: options.crawl, maxPages, signal: ctx.signal });
    const pages = [...new Set([...listed.slice(0, maxPages), ...responses.map((r) => r.url)])];
    return { pages, endpoints: [], responses: options.fetch ? responses : [], errors, seedUrls: [] };
  }
  // Loaded on use: runner processes of these kinds do not pay for Playwright unless they crawl with it.
  const { browserCrawl } = await import('./browser-crawl.ts');
  const found = await browserCrawl(guard, ctx, start, {
    maxPages: options.maxPages,
    budgetMs: options.crawlSeconds * 1000,
    ...(options.exclude ? { exclude: options.exclude } : {}),
    ...(options.browser ? { browser: options.browser } : {}),
    ...(options.submitForms ? { submitForms: true } : {}),
  });
  const pages = found.pages.map((p) => p.url);
  // Calls with side effects (POST …) are recorded, never replayed.
  const gets = found.endpoints.filter((e) => e.method === 'GET' && e.url.startsWith(`${guard.baseUrl.origin}/`) && !pages.includes(e.url));
  const seedUrls = [...pages, ...gets.map((e) => e.url).slice(0, options.maxPages)];
  const artifact = await writeJsonArtifact(ctx, 'crawl/browser-crawl.json', found, 'Pages and calls the browser crawl found');
  if (!options.fetch) return { pages, endpoints: found.endpoints, responses: [], errors: found.errors, seedUrls, artifact };
  const fetched = await crawlPages(guard, seedUrls, { crawl: false, maxPages: seedUrls.length, signal: ctx.signal });
  return { pages, endpoints: found.endpoints, responses: fetched.responses, errors: [...found.errors, ...fetched.errors], seedUrls, artifact };
}
