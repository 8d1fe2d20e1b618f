/**
 * What the site survey measures of a loaded page, from outside the page wherever Playwright can: the title, the
 * heading, the counts and the main landmark are read in Playwright's own (utility) world, where the page's scripts
 * cannot redefine `document.title` or `document.forms`. The links and the broken images are read in the page's
 * world (`evaluateAll`): the page may answer anything there, so every answer is parsed here, at the boundary, and
 * a value that is not what was asked is left out (an empty list), never written into the survey as the page gave it.
 */
import type AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { z } from 'zod';
import { routeFragment } from '../lib/page-path.ts';
import { AXE_IMPACTS, SURVEY_LIMITS } from './survey-types.ts';

/** How long reading the heading may wait for it (it is there or not once the page has loaded). */
const HEADING_TIMEOUT_MS = 2_000;

export interface Measured {
  title: string;
  heading: string;
  /** Absolute http(s) addresses, without their fragment unless it is a hash route (lib/page-path.ts). */
  links: string[];
  forms: number;
  images: number;
  brokenImages: string[];
  main: boolean;
}

/** What the page's world answers, bounded: the page may answer anything. */
const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const pageLinks = z.array(z.string().max(SURVEY_LIMITS.urlChars)).max(SURVEY_LIMITS.linksPerPage);
const pageImages = z.array(z.string().max(SURVEY_LIMITS.urlChars)).max(SURVEY_LIMITS.broken);
const axeViolations = z
  .array(z.object({ id: z.string().min(1).max(SURVEY_LIMITS.axeIdChars), impact: z.enum(AXE_IMPACTS).nullish() }))
  .max(SURVEY_LIMITS.axeViolations);

/** Text the browser reports for the page (a console message, an address): a string cut to `max`, else empty. */
export const boundedText = (value: unknown, max: number): string => (typeof value === 'string' ? value.slice(0, max) : '');

type Log = (message: string, data?: Record<string, unknown>) => void;

/**
 * `value` parsed by `schema`; `fallback` (and a line in the log) when the page answered something else. A list
 * longer than `maxItems` is refused before its items are looked at.
 */
function fromThePage<T>(schema: z.ZodType<T>, value: unknown, fallback: T, what: string, log: Log, maxItems = Infinity): T {
  const parsed = Array.isArray(value) && value.length > maxItems ? null : schema.safeParse(value);
  if (parsed?.success) return parsed.data;
  log('the page answered a measure with something it is not: left out', { what });
  return fallback;
}

/** An address the page gave, as Node reads it: http(s) only, without its fragment but a hash route; null when it is not one. */
function addressOf(text: string): string | null {
  const url = URL.parse(text);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  url.hash = routeFragment(url.hash);
  return url.href.length <= SURVEY_LIMITS.urlChars ? url.href : null;
}

export async function measurePage(page: Page, log: Log): Promise<Measured> {
  const title = boundedText(await page.title().catch(() => ''), SURVEY_LIMITS.textChars);
  const h1 = page.locator('h1').first();
  const heading = (await h1.count()) > 0 ? boundedText(await h1.innerText({ timeout: HEADING_TIMEOUT_MS }).catch(() => ''), 10 * SURVEY_LIMITS.headingChars).trim().slice(0, SURVEY_LIMITS.headingChars) : '';
  const forms = fromThePage(count, await page.locator('form').count(), 0, 'forms', log);
  const images = fromThePage(count, await page.locator('img').count(), 0, 'images', log);
  const main = (await page.locator('main, [role="main"]').first().isVisible().catch(() => false)) === true;

  // In the page's world (the functions are inline and anonymous: the build adds nothing to them).
  const hrefs = await page
    .locator('a[href], area[href]')
    .evaluateAll(
      (anchors, { max, chars }) =>
        anchors.slice(0, max).flatMap((a) => {
          try {
            const href = new URL(a.getAttribute('href') || '', a.baseURI).href;
            return href.length <= chars ? [href] : [];
          } catch {
            return [];
          }
        }),
      { max: SURVEY_LIMITS.linksPerPage, chars: SURVEY_LIMITS.urlChars },
    )
    .catch(() => []);
  const links = fromThePage(pageLinks, hrefs, [], 'links', log, SURVEY_LIMITS.linksPerPage).flatMap((l) => addressOf(l) ?? []);
  const broken = await page
    .locator('img')
    .evaluateAll(
      (imgs, { max, chars }) =>
        (imgs as HTMLImageElement[])
          .filter((i) => i.complete && i.naturalWidth === 0)
          .slice(0, max)
          .map((i) => String(i.currentSrc || i.src).slice(0, chars)),
      { max: SURVEY_LIMITS.broken, chars: SURVEY_LIMITS.urlChars },
    )
    .catch(() => []);
  const brokenImages = fromThePage(pageImages, broken, [], 'broken images', log, SURVEY_LIMITS.broken);
  return { title, heading, links, forms, images, brokenImages, main };
}

/** axe's violations of the page (axe runs in the page's world): ids and impacts, parsed; none when axe could not run. */
export async function axeViolationsOf(builder: AxeBuilder, log: Log): Promise<{ id: string; impact: (typeof AXE_IMPACTS)[number] }[]> {
  const results = await builder.analyze().catch(() => null);
  if (!results) return [];
  return fromThePage(axeViolations, results.violations, [], 'axe violations', log, SURVEY_LIMITS.axeViolations).map((v) => ({ id: v.id, impact: v.impact ?? 'minor' }));
}
