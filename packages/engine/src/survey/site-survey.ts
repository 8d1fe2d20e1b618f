/**
 * The site survey (a starter suite from a crawl, docs/starter-suite.md): run by the server through the sandbox like
 * any attempt (`runInSandbox` with `runnersModule` SITE_SURVEY_MODULE), so a client's website is crawled in a
 * runner process of its own, with the time and memory limits, the target policy's proxy and the suite's login.
 *
 * It crawls with the browser crawl (lib/browser-crawl.ts), then loads each page found once more in Chromium and
 * measures it: status, load time, links to the site's pages, forms, the main landmark, console errors, broken
 * images or calls, the data calls it makes (page-calls.ts: what they ask, never a value) and axe's violations. A
 * hash route (`/#/about`) is a page of its own (lib/page-path.ts). The pages the suite will shoot (proposed-pages.ts) are
 * then visited twice on each of its devices, and what changed between the visits is kept as their masks
 * (changing-elements.ts). It also times the home page's document a few times over HTTP (the load test's
 * thresholds come from it). What it
 * measured goes to `survey.json` in the attempt's folder; the server writes the suite from it.
 */
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext } from 'playwright-core';
import { z } from 'zod';
import { browserCrawl } from '../lib/browser-crawl.ts';
import { defineRunner } from '../lib/define-runner.ts';
import { launchGuardedBrowser } from '../lib/guarded-browser.ts';
import { prepareReady, waitForReady } from '../lib/page-ready.ts';
import { guardedRequest } from '../lib/http.ts';
import { errorMessage, writeJsonArtifact } from '../lib/result.ts';
import { WCAG_TAGS } from '../runners/accessibility/options.ts';
import { facts } from '../runners/browser/facts.ts';
import type { CaseResult, Runner, RunContext, TestKind } from '../types.ts';
import { axeViolationsOf, boundedText, measurePage } from './measure-page.ts';
import { lookTwice } from './changing-elements.ts';
import { recordCalls } from './page-calls.ts';
import { documentPath, pagePathOf } from '../lib/page-path.ts';
import { pagesToTest, STARTER_VISUAL_DEVICES, topPages } from './proposed-pages.ts';
import { LOOK_BUDGET_MS, SiteSurvey, SURVEY_FILE, SURVEY_KIND, SURVEY_LIMITS, SURVEY_MAX_BYTES, SURVEY_MAX_PAGES, type SurveyedPage } from './survey-types.ts';

const PAGE_TIMEOUT_MS = 20_000;
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

/** What the browser asks for on its own, not the page (the proposed checks leave it out too). */
const askedByTheBrowser = (url: string) => URL.parse(url)?.pathname === '/favicon.ico';

/** Calls a page keeps when the survey is too heavy, without their bodies' shapes (the home page's first, for the load test). */
const LIGHT_CALLS_PER_PAGE = 10;

/**
 * The survey as it fits in SURVEY_MAX_BYTES (the server reads no more): when it does not, the pages' links (counted
 * already: `inbound`) are left out, and all but the two console errors and broken resources a spec's comment names;
 * then the calls' bodies' shapes, and all but the first LIGHT_CALLS_PER_PAGE calls of a page.
 */
function fitted(survey: SiteSurvey): SiteSurvey {
  const fits = (s: SiteSurvey) => Buffer.byteLength(`${JSON.stringify(s, null, 2)}\n`) <= SURVEY_MAX_BYTES;
  if (fits(survey)) return survey;
  const lighter = { ...survey, pages: survey.pages.map((p) => ({ ...p, links: [], consoleErrors: p.consoleErrors.slice(0, 2), broken: p.broken.slice(0, 2) })) };
  if (fits(lighter)) return lighter;
  const lightest = { ...lighter, pages: lighter.pages.map((p) => ({ ...p, calls: p.calls.slice(0, LIGHT_CALLS_PER_PAGE).map(({ json: _json, ...c }) => c) })) };
  if (fits(lightest)) return lightest;
  throw new Error(`what the survey measured does not fit in ${SURVEY_MAX_BYTES / 1024 / 1024} MB`);
}

/** Times a page is loaded to be measured when it does not load. */
const MEASURE_ATTEMPTS = 2;

/** Loads a page in a tab of its own and measures it once it is ready; a page that did not load has its `error`. */
async function measureOne(context: BrowserContext, url: string, origin: string, ctx: RunContext): Promise<SurveyedPage> {
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_TIMEOUT_MS);
  // Measured once the page is ready (decision 0089): links, headings and axe see what a user sees.
  await prepareReady(page);
  const consoleErrors: string[] = [];
  const brokenResources: string[] = [];
  // What the page says goes in as bounded text (the survey's schema refuses more).
  const { consoleErrors: maxErrors, textChars, urlChars } = SURVEY_LIMITS;
  page.on('console', (m) => void (m.type() === 'error' && !askedByTheBrowser(m.location().url) && consoleErrors.length < maxErrors && consoleErrors.push(boundedText(m.text(), textChars))));
  page.on('pageerror', (e) => void (consoleErrors.length < maxErrors && consoleErrors.push(boundedText(e?.message, textChars))));
  page.on('response', (r) => void (r.status() >= 400 && r.request().frame() === page.mainFrame() && documentPath(r.url()) !== documentPath(url) && !askedByTheBrowser(r.url()) && brokenResources.length < 10 * SURVEY_LIMITS.broken && brokenResources.push(`${r.status()} ${r.url()}`.slice(0, urlChars))));
  const calls = recordCalls(page, origin);
  const started = performance.now();
  try {
    const response = await page.goto(url, { waitUntil: 'load' });
    const loadMs = Math.round(performance.now() - started);
    const contentType = response?.headers()['content-type'] ?? '';
    const readiness = await waitForReady(page, { signal: ctx.signal });
    if (!readiness.ready) ctx.log(`${pagePathOf(url)} measured before it was ready`, { reason: readiness.reason });
    const html = contentType.includes('html');
    const measured = html ? await measurePage(page, ctx.log) : null;
    const axe = html ? await axeViolationsOf(new AxeBuilder({ page }).withTags(WCAG_TAGS), ctx.log) : [];
    const links = [...new Set((measured?.links ?? []).filter((l) => l.startsWith(`${origin}/`)).map(pagePathOf))];
    return {
      path: pagePathOf(url),
      finalPath: (new URL(page.url()).origin === origin ? pagePathOf(page.url()) : page.url()).slice(0, urlChars),
      status: response?.status() ?? null,
      html,
      loadMs,
      title: measured?.title ?? '',
      heading: measured?.heading ?? '',
      links: links.slice(0, SURVEY_LIMITS.linksPerPage),
      inbound: 0,
      forms: measured?.forms ?? 0,
      images: measured?.images ?? 0,
      main: measured?.main ?? false,
      consoleErrors,
      axe,
      broken: [...new Set([...brokenResources, ...(measured?.brokenImages ?? []).map((s) => `image ${s}`.slice(0, urlChars))])].slice(0, SURVEY_LIMITS.broken),
      calls: calls.calls(),
    };
  } catch (error) {
    return { path: pagePathOf(url), finalPath: pagePathOf(url), status: null, html: false, loadMs: null, title: '', heading: '', links: [], inbound: 0, forms: 0, images: 0, main: false, consoleErrors, axe: [], broken: [], calls: calls.calls(), error: errorMessage(error).slice(0, SURVEY_LIMITS.errorChars) };
  } finally {
    await page.close().catch(() => undefined);
  }
}

export const siteSurveyRunner = defineRunner({
  facts,
  schema: surveyInput,
  async execute(input, { ctx, guard }) {
    const { maxPages, crawlSeconds, exclude } = input.options;
    ctx.progress?.({ done: 0, total: maxPages, message: 'crawling the website' });
    const crawl = await browserCrawl(guard, ctx, [guard.baseUrl.href], { maxPages, budgetMs: crawlSeconds * 1000, exclude });
    // A page's path is what it is measured and tested by, a hash route with it (`/#/about`: lib/page-path.ts), each once.
    const paths = new Set<string>();
    const found = crawl.pages.filter((p) => p.status !== null && !paths.has(pagePathOf(p.url)) && paths.add(pagePathOf(p.url)));

    const own = await launchGuardedBrowser(guard, ctx);
    const pages: SurveyedPage[] = [];
    try {
      const context = await own.browser.newContext({ acceptDownloads: false, serviceWorkers: 'block' });
      for (const [i, item] of found.entries()) {
        if (ctx.signal.aborted) break;
        ctx.progress?.({ done: i, total: found.length, message: `measuring ${pagePathOf(item.url)}` });
        // A page that did not load (a load timed out on a busy machine) is loaded once more before it is left out.
        for (let attempt = 1; attempt <= MEASURE_ATTEMPTS; attempt++) {
          const measured = await measureOne(context, item.url, guard.baseUrl.origin, ctx);
          if (!measured.error || attempt === MEASURE_ATTEMPTS || ctx.signal.aborted) {
            pages.push(measured);
            break;
          }
          ctx.log(`${measured.path} did not load: loading it once more`, { error: measured.error });
        }
      }
      await context.close().catch(() => undefined);

      // How many other pages link to each: "most linked" is what the Lighthouse and visual tests take.
      for (const p of pages) p.inbound = pages.filter((q) => q !== p && q.links.includes(p.path)).length;
      // The pages the suite will shoot, each looked at twice: what changes between two visits is what their visual
      // tests mask (changing-elements.ts).
      const looking = performance.now();
      for (const p of topPages(pagesToTest({ pages }).pages)) {
        if (ctx.signal.aborted) break;
        if (performance.now() - looking > LOOK_BUDGET_MS) {
          ctx.log(`not looked at twice: the survey's ${LOOK_BUDGET_MS / 1000} s for it ran out`, { page: p.path });
          continue;
        }
        ctx.progress?.({ done: found.length, total: found.length, message: `looking twice at ${p.path}` });
        const started = performance.now();
        const look = await lookTwice(own.browser, new URL(p.path, guard.baseUrl).href, { devices: STARTER_VISUAL_DEVICES, signal: ctx.signal, log: ctx.log });
        if (look) p.look = look;
        ctx.log(`looked twice at ${p.path}`, { ms: Math.round(performance.now() - started), masks: look?.masks.length ?? null, ...(look?.unstable ? { unstable: look.unstable } : {}) });
      }
    } finally {
      await own.close();
    }

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

    // Parsed before it is written: what the server reads is a survey, whatever the pages answered.
    const parsed = SiteSurvey.safeParse({
      baseUrl: guard.baseUrl.href,
      loggedIn: ctx.login !== undefined,
      pages,
      homeResponseMs: homeMs,
      refused: crawl.refused.filter((u) => u.length <= SURVEY_LIMITS.urlChars).slice(0, SURVEY_LIMITS.refused),
      errors: crawl.errors
        .slice(0, SURVEY_LIMITS.errors)
        .map((e) => ({ url: e.url.slice(0, SURVEY_LIMITS.urlChars), error: e.error.slice(0, SURVEY_LIMITS.errorChars) })),
      budgetReached: crawl.budgetReached,
      crawlMs: Math.round(crawl.durationMs),
    } satisfies SiteSurvey);
    if (!parsed.success) throw new Error(`what the survey measured is not a valid survey (${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.code}`).join('; ')})`);
    const survey = fitted(parsed.data);
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
