import type { SuiteFiles } from '@fullstop/engine';
import type { LoginDeclaration } from '@fullstop/engine/suite';
import { pageReadySource, SiteSurvey, type SurveyedPage } from '@fullstop/engine/survey';
import { pageNames } from './page-names.ts';
import { starterLoadTest } from './starter-load.ts';

/**
 * A starter suite written from what the site survey measured (docs/starter-suite.md): plain suite JSON and
 * Playwright specs an operator reads and edits like any suite. Every page's own tests are named after it, its title
 * and its path (page-names.ts: "Page Pricing (pricing) loads cleanly", "Page Pricing (pricing) is accessible", ...),
 * so breaking one page fails its tests only. The load test asks for the home page and its data calls (starter-load.ts).
 *
 * What the survey holds came from a client's website, which may be hostile: the survey is parsed with its schema
 * first, and what it says reaches a generated file in three ways only: as a string literal (`jsString`, JSON's
 * own escaping), as a whole number (`whole`), or inside a `//` comment (`commentText`). The README's table cells
 * go through `markdownText`.
 */

/** Lighthouse and visual tests take this many of the most linked pages (the home page first). */
export const TOP_PAGES = 3;
const IMPACT_ORDER = ['minor', 'moderate', 'serious', 'critical'];
/** axe fails a page from this impact up (the console's and the demo's choice). */
const FAIL_ON_IMPACT = 'serious';

export interface ProposedTest {
  name: string;
  kind: string;
  group: string;
}

export interface StarterSuite {
  files: SuiteFiles;
  tests: ProposedTest[];
  /** Pages the crawl found and left out, with why (a 404, not a page, did not load). */
  leftOut: { path: string; reason: string }[];
  /** What the operator should know of how it was written (the proposal's notes). */
  notes: string[];
}

interface SuiteTestJson {
  name: string;
  kind: string;
  description?: string;
  options: Record<string, unknown>;
  thresholds?: Record<string, number>;
  login?: false;
}

/** A spec file's name from a page's path: `/` is home, `/docs/a?x=1` docs-a-x-1. */
function slugOf(path: string): string {
  const slug = path
    .replace(/^\/+|\/+$/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug || 'home';
}

/** The pages a starter suite tests: those that loaded as HTML below 400, each once (a redirect's target once). */
export function pagesToTest(survey: SiteSurvey): { pages: SurveyedPage[]; leftOut: StarterSuite['leftOut'] } {
  const pages: SurveyedPage[] = [];
  const leftOut: StarterSuite['leftOut'] = [];
  const seen = new Set<string>();
  for (const p of survey.pages) {
    if (p.error || p.status === null) leftOut.push({ path: p.path, reason: `did not load: ${p.error ?? 'no answer'}` });
    else if (p.status >= 400) leftOut.push({ path: p.path, reason: `answered ${p.status}` });
    else if (!p.html) leftOut.push({ path: p.path, reason: 'not an HTML page' });
    else if (p.finalPath !== p.path && (seen.has(p.finalPath) || survey.pages.some((q) => q.path === p.finalPath))) leftOut.push({ path: p.path, reason: `redirects to ${p.finalPath}` });
    else if (!seen.has(p.path)) {
      seen.add(p.path);
      pages.push(p);
    }
  }
  return { pages, leftOut };
}

/** The home page first, then the most linked (ties: the order found). */
export function topPages(pages: SurveyedPage[], count = TOP_PAGES): SurveyedPage[] {
  const home = pages.find((p) => p.path === '/');
  const rest = pages.filter((p) => p !== home).sort((a, b) => b.inbound - a.inbound);
  return [...(home ? [home] : []), ...rest].slice(0, count);
}

const SMOKE_HELPER = (covered: string[]) => `import { expect, test, type Page } from '@playwright/test';
import { prepareReady, waitForReady } from './page-ready';

// The checks every "Page ... loads cleanly" test of this suite makes. Proposed from a crawl; edit freely.

/**
 * Pages that have a test of their own in this suite: a link to one of them is checked by that page's test, so a
 * broken page fails its own tests and not those of every page that links to it.
 */
export const PAGES_WITH_THEIR_OWN_TEST: string[] = ${jsonLiteral(covered)};

/** What the browser asks for on its own, not the page: a site without a favicon is not broken. */
const askedByTheBrowser = (url: string) => URL.parse(url)?.pathname === '/favicon.ico';

export interface PageCheckOptions {
  /** Console errors (and uncaught errors) while the page loads fail the test. */
  consoleErrors?: boolean;
  /** A visible main landmark (<main> or role="main"). */
  mainLandmark?: boolean;
  /** Images, scripts, style sheets and links of the page answer below 400. */
  brokenLinks?: boolean;
}

/** Loads the page and checks it: status below 400, no console errors, no broken links or images, main visible. */
export async function expectPageLoadsCleanly(page: Page, path: string, options: PageCheckOptions = {}): Promise<void> {
  const { consoleErrors = true, mainLandmark = true, brokenLinks = true } = options;
  const errors: string[] = [];
  const broken: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !askedByTheBrowser(message.location().url)) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400 && response.request().resourceType() !== 'document' && !askedByTheBrowser(response.url())) broken.push(\`\${response.status()} \${response.url()}\`);
  });

  // Checked once the page is ready (./page-ready.ts: no request in flight, the page unchanged for half a second, at
  // most 10 s), as the crawl measured it: content that arrives after its data calls is there.
  await prepareReady(page);
  const response = await page.goto(path);
  expect(response, \`\${path} answers\`).not.toBeNull();
  expect(response!.status(), \`\${path} answers below 400\`).toBeLessThan(400);
  const readiness = await waitForReady(page);
  if (!readiness.ready) test.info().annotations.push({ type: 'checked before it was ready', description: readiness.reason ?? '' });

  if (mainLandmark) await expect(page.getByRole('main').first(), 'the main landmark is visible').toBeVisible();

  if (brokenLinks) {
    const images = await page.locator('img').evaluateAll((imgs) =>
      (imgs as HTMLImageElement[]).filter((img) => img.complete && img.naturalWidth === 0).map((img) => img.currentSrc || img.src),
    );
    broken.push(...images.map((src) => \`image did not load: \${src}\`));
    const here = new URL(page.url());
    const links = await page.locator('a[href]').evaluateAll((anchors) => (anchors as HTMLAnchorElement[]).map((a) => a.href));
    const toCheck = [...new Set(links.map((l) => l.split('#')[0]!))].filter((href) => {
      const url = URL.parse(href);
      return url && url.origin === here.origin && !PAGES_WITH_THEIR_OWN_TEST.includes(url.pathname + url.search);
    });
    for (const href of toCheck.slice(0, 50)) {
      const answer = await page.request.get(href, { maxRedirects: 5 }).catch((error: Error) => error);
      if (answer instanceof Error) broken.push(\`\${href}: \${answer.message}\`);
      else if (answer.status() >= 400) broken.push(\`\${answer.status()} \${href}\`);
    }
  }

  if (consoleErrors) expect(errors, 'console errors').toEqual([]);
  if (brokenLinks) expect(broken, 'broken links and images').toEqual([]);
}
`;

/** Characters that would make text say something else than it shows: bidirectional controls (Trojan Source). */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** A UTF-16 half of a character without its other half (no character: written as U+FFFD). */
const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * What the site said (a title, a console error), made safe for a `//` comment: every line terminator JavaScript
 * knows (\r, \n, U+2028, U+2029) and other control characters become spaces, so no text of a hostile page can end
 * the comment and become code in the suite; bidirectional controls and lone surrogates become spaces too, so the
 * comment reads as it is. At most `max` characters (a character is never cut in two).
 */
export function commentText(text: string, max = 200): string {
  const safe = String(text)
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
    .replace(BIDI_CONTROLS, ' ')
    .replace(LONE_SURROGATES, ' ');
  const cut = safe.slice(0, max);
  // A pair cut in two at the end: its first half goes.
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** A string as a JavaScript string literal: JSON's, with every character past ASCII escaped (\u2028 included). */
export function jsString(text: string): string {
  return asciiOnly(JSON.stringify(String(text)));
}

/** A JSON value as JavaScript source (an array of paths): JSON's text, every character past ASCII escaped. */
function jsonLiteral(value: unknown): string {
  return asciiOnly(JSON.stringify(value, null, 2));
}

const asciiOnly = (json: string) => json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A count or a time as text: the schema says a whole number; anything else is written "?". */
export function whole(n: number | null | undefined): string {
  return typeof n === 'number' && Number.isSafeInteger(n) ? String(n) : '?';
}

/** Text in a README table cell or list item: on one line, with Markdown's own characters (| included) escaped. */
export function markdownText(text: string, max = 300): string {
  return commentText(text, max).replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`);
}

/** The Playwright test's own name in a page's spec: its readable title and its exact path, "Page Pricing (/pricing) loads cleanly". */
export function specTestName(title: string, path: string): string {
  return title ? `Page ${title} (${path}) loads cleanly` : `Page ${path} loads cleanly`;
}

function smokeSpec(page: SurveyedPage, name: string): string {
  const off: string[] = [];
  const notes: string[] = [];
  if (page.consoleErrors.length) {
    off.push('consoleErrors: false');
    notes.push(`// The crawl saw console errors here (${commentText(page.consoleErrors.slice(0, 2).join('; '))}): turn the check on once they are fixed.`);
  }
  if (!page.main) {
    off.push('mainLandmark: false');
    notes.push('// The crawl found no visible main landmark (<main> or role="main") here: turn the check on once the page has one.');
  }
  if (page.broken.length) {
    off.push('brokenLinks: false');
    notes.push(`// The crawl saw broken links or images here (${commentText(page.broken.slice(0, 2).join('; '))}): turn the check on once they are fixed.`);
  }
  const args = [jsString(page.path), ...(off.length ? [`{ ${off.join(', ')} }`] : [])].join(', ');
  return `import { test } from '@playwright/test';
import { expectPageLoadsCleanly } from '../page-checks';

// ${page.title ? `"${commentText(page.title, 80)}"` : 'A page'} found by the crawl: ${whole(page.inbound)} other page(s) link to it, ${whole(page.forms)} form(s) (its figures: README.md).
${notes.length ? `${notes.join('\n')}\n` : ''}test(${jsString(name)}, async ({ page }) => {
  await expectPageLoadsCleanly(page, ${args});
});
`;
}

/**
 * Writes the starter suite: per page a smoke test (a Playwright spec) and an accessibility test; Lighthouse and
 * visual tests of the top pages; the security checks and a passive scan; a light load test of the home page and
 * the data calls it makes.
 * `login`: the current suite's login, kept when the crawl ran logged in.
 */
export function writeStarterSuite(given: SiteSurvey, options: { login?: LoginDeclaration; visual: boolean; clientName: string; date: string }): StarterSuite {
  const parsed = SiteSurvey.safeParse(given);
  // Where it fails, by field and kind of fault: nothing of what the survey holds.
  if (!parsed.success) throw new Error(`the survey is not a valid survey (${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'the survey'}: ${i.code}`).join('; ')})`);
  const survey = parsed.data;
  const { pages, leftOut } = pagesToTest(survey);
  if (pages.length === 0) throw new Error(`the crawl found no page to test on ${survey.baseUrl}${leftOut.length ? ` (${leftOut.map((p) => `${p.path} ${p.reason}`).join('; ')})` : ''}`);
  const files: SuiteFiles = new Map();
  const top = topPages(pages);
  const https = survey.baseUrl.startsWith('https:');
  const slugs = new Set<string>();
  const specOf = (p: SurveyedPage) => {
    let slug = slugOf(p.path);
    for (let i = 2; slugs.has(slug); i++) slug = `${slugOf(p.path)}-${i}`;
    slugs.add(slug);
    return `specs/pages/${slug}.spec.ts`;
  };

  const smoke: SuiteTestJson[] = [];
  const accessibility: SuiteTestJson[] = [];
  files.set('specs/page-checks.ts', Buffer.from(SMOKE_HELPER(pages.map((p) => p.path))));
  files.set('specs/page-ready.ts', Buffer.from(pageReadySource()));
  const { names: labelOf, titles } = pageNames(pages);
  for (const p of pages) {
    const label = labelOf.get(p)!;
    const name = `Page ${label} loads cleanly`;
    const spec = specOf(p);
    files.set(spec, Buffer.from(smokeSpec(p, specTestName(titles.get(p)!, p.path))));
    smoke.push({
      name,
      kind: 'browser',
      description: `${p.path}: status below 400, no console errors, no broken links or images, the main landmark visible (${spec}).`,
      options: { specs: [spec], testTimeoutMs: 60000, maxDurationSeconds: 180 },
    });
    const known = [...new Set(p.axe.filter((v) => IMPACT_ORDER.indexOf(v.impact) >= IMPACT_ORDER.indexOf(FAIL_ON_IMPACT)).map((v) => v.id))];
    accessibility.push({
      name: `Page ${label} is accessible`,
      kind: 'accessibility',
      description: known.length
        ? `${p.path}: WCAG 2.1 A/AA; fails on a serious or critical violation. Left out as known when the crawl ran (${options.date}): ${known.join(', ')}.`
        : `${p.path}: WCAG 2.1 A/AA; fails on a serious or critical violation.`,
      options: { pages: [p.path], failOnImpact: FAIL_ON_IMPACT, ...(known.length ? { disableRules: known } : {}) },
    });
  }

  const performance: SuiteTestJson[] = top.map((p) => ({
    name: `Page ${labelOf.get(p)!} Lighthouse`,
    kind: 'lighthouse',
    description: `${p.path}${p.path === '/' ? ', the home page' : `, linked from ${p.inbound} page(s)`}: its Lighthouse scores on a desktop.`,
    options: { pages: [p.path], formFactor: 'desktop' },
    thresholds: { minAccessibility: 50 },
  }));
  const load = starterLoadTest(survey);
  performance.push(load.test);

  const security: SuiteTestJson[] = [
    {
      name: 'Security checks',
      kind: 'security-checks',
      description: 'Headers and cookies of the top pages.',
      options: { pages: top.map((p) => p.path), requireHttps: https },
    },
    {
      name: 'Passive security scan',
      kind: 'security-scan',
      description: 'Passive checks on the pages the crawl found (no attacks: turn `active` on for wapiti).',
      options: { pages: pages.slice(0, 20).map((p) => p.path), crawl: false, active: false },
      thresholds: { maxHigh: 0 },
    },
  ];

  const visual: SuiteTestJson[] = options.visual
    ? top.map((p) => ({
        name: `Page ${labelOf.get(p)!} looks the same`,
        kind: 'visual',
        description: `${p.path} on a desktop and a phone, compared with its approved baselines (the first run proposes them).`,
        options: { pages: [p.path], devices: ['desktop', 'phone'] },
      }))
    : [];

  const groups = [
    { name: 'Pages', tests: smoke },
    { name: 'Accessibility', tests: accessibility },
    { name: 'Performance', tests: performance },
    ...(visual.length ? [{ name: 'Visual', tests: visual }] : []),
    { name: 'Security', tests: security },
  ];
  const manifest = {
    version: 1,
    name: `${options.clientName}: starter suite`,
    description: `Proposed from a crawl of ${survey.baseUrl} on ${options.date} (${pages.length} pages${survey.loggedIn ? ', logged in' : ''}). Review, trial-run and edit it, then make it current.`,
    ...(options.login && survey.loggedIn ? { login: options.login } : {}),
    groups,
  };
  files.set('suite.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
  files.set('README.md', Buffer.from(readme(survey, pages, leftOut, options.date)));
  return { files, tests: groups.flatMap((g) => g.tests.map((t) => ({ name: t.name, kind: t.kind, group: g.name }))), leftOut, notes: load.notes };
}

function readme(survey: SiteSurvey, pages: SurveyedPage[], leftOut: StarterSuite['leftOut'], date: string): string {
  const md = (text: string) => markdownText(text, 2_000);
  const rows = pages.map((p) => `| ${md(p.path)} | ${whole(p.status)} | ${whole(p.loadMs)} | ${whole(p.inbound)} | ${whole(p.forms)} | ${p.main ? 'yes' : 'no'} |`);
  return `# Starter suite

Proposed from a crawl of ${md(survey.baseUrl)} on ${md(date)}${survey.loggedIn ? ' (logged in with the suite\u2019s login)' : ''}: ${whole(pages.length)} page(s) in ${whole(Math.round(survey.crawlMs / 1000))} s${survey.budgetReached ? ' (the crawl\u2019s time ran out: some pages may be missing)' : ''}.
Every test is plain suite JSON (suite.json) or a Playwright spec (specs/): edit them as any suite.

| Page | Status | Load (ms) | Linked from | Forms | Main landmark |
| --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
${leftOut.length ? `\nLeft out:\n\n${leftOut.map((p) => `- ${md(p.path)}: ${md(p.reason)}`).join('\n')}\n` : ''}${survey.refused.length ? `\nRefused by the target policy (add an origin to the client's targets to test it): ${whole(survey.refused.length)} address(es), e.g. ${survey.refused.slice(0, 3).map(md).join(', ')}\n` : ''}`;
}
