/**
 * The site survey (a starter suite from a crawl, docs/starter-suite.md): run by the server through the sandbox like
 * any attempt (`runInSandbox` with `runnersModule` SITE_SURVEY_MODULE), so a client's website is crawled in a
 * runner process of its own, with the time and memory limits, the target policy's proxy and the suite's login.
 *
 * It crawls with the browser crawl (lib/browser-crawl.ts), then loads each page found once more in Chromium and
 * measures it: status, load time, links to the site's pages, forms, the main landmark, console errors, broken
 * images or calls and axe's violations. It also times the home page's document a few times over HTTP (the load test's thresholds come
 * from it). What it measured goes to `survey.json` in the attempt's folder; the server writes the suite from it.
 */
import AxeBuilder from '@axe-core/playwright';
import { z } from 'zod';
import { browserCrawl } from '../lib/browser-crawl.ts';
import { defineRunner } from '../lib/define-runner.ts';
import { launchGuardedBrowser } from '../lib/guarded-browser.ts';
import { guardedRequest } from '../lib/http.ts';
import { errorMessage, writeJsonArtifact } from '../lib/result.ts';
import { WCAG_TAGS } from '../runners/accessibility/options.ts';
import { facts } from '../runners/browser/facts.ts';
import type { CaseResult, Runner, TestKind } from '../types.ts';
import { SURVEY_FILE, SURVEY_KIND, SURVEY_MAX_PAGES, type SurveyedPage, type SiteSurvey } from './survey-types.ts';

const PAGE_TIMEOUT_MS = 20_000;
const SETTLE_MS = 3_000;
const HOME_SAMPLES = 5;

const surveyInput = z.object({
  options: z
    .object({
      maxPages: z.number().int().min(1).max(SURVEY_MAX_PAGES),
      crawlSeconds: z.number().int().min(5).max(600),
      /** Paths never loaded (a logout link would end the crawl's login). */
      exclude: z.array(z.string()).default([]),
    })
    .strict(),
  thresholds: z.object({}).strict().default({}),
});

/** In the page: what the suite is written from (a string: nothing of the build reaches the page). */
const MEASURE = `() => {
  const main = document.querySelector('main, [role="main"]');
  const box = main ? main.getBoundingClientRect() : null;
  const links = [...document.querySelectorAll('a[href], area[href]')].slice(0, 1000).flatMap((a) => {
    try { const u = new URL(a.getAttribute('href') || '', a.baseURI); u.hash = ''; return [u.href]; } catch { return []; }
  });
  const images = [...document.images];
  return {
    title: document.title || '',
    heading: ((document.querySelector('h1') || {}).innerText || '').trim().slice(0, 200),
    links,
    forms: document.forms.length,
    images: images.length,
    brokenImages: images.filter((i) => i.complete && i.naturalWidth === 0).map((i) => i.currentSrc || i.src).slice(0, 20),
    main: Boolean(main && box && box.width > 0 && box.height > 0),
  };
}`;

interface Measured {
  title: string;
  heading: string;
  links: string[];
  forms: number;
  images: number;
  brokenImages: string[];
  main: boolean;
}

/** What the browser asks for on its own, not the page (the proposed checks leave it out too). */
const askedByTheBrowser = (url: string) => URL.parse(url)?.pathname === '/favicon.ico';

const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

export const siteSurveyRunner = defineRunner({
  facts,
  schema: surveyInput,
  async execute(input, { ctx, guard }) {
    const { maxPages, crawlSeconds, exclude } = input.options;
    ctx.progress?.({ done: 0, total: maxPages, message: 'crawling the website' });
    const crawl = await browserCrawl(guard, ctx, [guard.baseUrl.href], { maxPages, budgetMs: crawlSeconds * 1000, exclude });
    const found = crawl.pages.filter((p) => p.status !== null);

    const own = await launchGuardedBrowser(guard, ctx);
    const pages: SurveyedPage[] = [];
    try {
      const context = await own.browser.newContext({ acceptDownloads: false, serviceWorkers: 'block' });
      for (const [i, item] of found.entries()) {
        if (ctx.signal.aborted) break;
        ctx.progress?.({ done: i, total: found.length, message: `measuring ${pathOf(item.url)}` });
        const page = await context.newPage();
        page.setDefaultTimeout(PAGE_TIMEOUT_MS);
        const consoleErrors: string[] = [];
        const brokenResources: string[] = [];
        page.on('console', (m) => void (m.type() === 'error' && !askedByTheBrowser(m.location().url) && consoleErrors.length < 20 && consoleErrors.push(m.text().slice(0, 300))));
        page.on('pageerror', (e) => void (consoleErrors.length < 20 && consoleErrors.push(e.message.slice(0, 300))));
        page.on('response', (r) => void (r.status() >= 400 && r.request().frame() === page.mainFrame() && r.url() !== item.url && !askedByTheBrowser(r.url()) && brokenResources.push(`${r.status()} ${r.url()}`)));
        const started = performance.now();
        try {
          const response = await page.goto(item.url, { waitUntil: 'load' });
          const loadMs = Math.round(performance.now() - started);
          const contentType = response?.headers()['content-type'] ?? '';
          await page.waitForLoadState('networkidle', { timeout: SETTLE_MS }).catch(() => undefined);
          const html = contentType.includes('html');
          const measured = html ? ((await page.evaluate(`(${MEASURE})()`)) as Measured) : null;
          const origin = guard.baseUrl.origin;
          const axe = html
            ? (await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze().catch(() => null))?.violations.map((v) => ({ id: v.id, impact: v.impact ?? 'minor' })) ?? []
            : [];
          const links = [...new Set((measured?.links ?? []).filter((l) => l.startsWith(`${origin}/`)).map(pathOf))];
          pages.push({
            path: pathOf(item.url),
            finalPath: new URL(page.url()).origin === origin ? pathOf(page.url()) : page.url(),
            status: response?.status() ?? null,
            html,
            loadMs,
            title: measured?.title ?? '',
            heading: measured?.heading ?? '',
            links,
            inbound: 0,
            forms: measured?.forms ?? 0,
            images: measured?.images ?? 0,
            main: measured?.main ?? false,
            consoleErrors,
            axe,
            broken: [...new Set([...brokenResources, ...(measured?.brokenImages ?? []).map((s) => `image ${s}`)])].slice(0, 20),
          });
        } catch (error) {
          pages.push({ path: pathOf(item.url), finalPath: pathOf(item.url), status: null, html: false, loadMs: null, title: '', heading: '', links: [], inbound: 0, forms: 0, images: 0, main: false, consoleErrors, axe: [], broken: [], error: errorMessage(error) });
        } finally {
          await page.close().catch(() => undefined);
        }
      }
      await context.close().catch(() => undefined);
    } finally {
      await own.close();
    }
    // How many other pages link to each: "most linked" is what the Lighthouse and visual tests take.
    for (const p of pages) p.inbound = pages.filter((q) => q !== p && q.links.includes(p.path)).length;

    const homeMs: number[] = [];
    for (let i = 0; i < HOME_SAMPLES && !ctx.signal.aborted; i++) {
      const started = performance.now();
      try {
        await guardedRequest(guard, guard.baseUrl.href, { signal: ctx.signal });
        homeMs.push(Math.round(performance.now() - started));
      } catch {
        // A failed sample leaves the others.
      }
    }

    const survey: SiteSurvey = {
      baseUrl: guard.baseUrl.href,
      loggedIn: ctx.login !== undefined,
      pages,
      homeResponseMs: homeMs,
      refused: crawl.refused.slice(0, 50),
      errors: crawl.errors.slice(0, 50),
      budgetReached: crawl.budgetReached,
      crawlMs: Math.round(crawl.durationMs),
    };
    const artifact = await writeJsonArtifact(ctx, SURVEY_FILE, survey, 'What the crawl found and measured');
    const cases: CaseResult[] = pages.map((p) => ({
      name: `Page ${p.path}`,
      status: p.status !== null && p.status < 400 ? 'passed' : 'failed',
      durationMs: p.loadMs ?? 0,
      ...(p.error ? { error: p.error } : {}),
    }));
    const passed = cases.filter((c) => c.status === 'passed').length;
    return {
      status: 'passed',
      totals: { totalTests: cases.length, passedTests: passed, failedTests: cases.length - passed, skippedTests: 0 },
      summary: { kind: 'browser', cases },
      artifacts: [artifact],
    };
  },
});

/** What the runner process loads for a survey (runner-host.ts: `runners[kind]` of a runners module). */
export const runners: Partial<Record<TestKind, Runner>> = { [SURVEY_KIND]: siteSurveyRunner };
