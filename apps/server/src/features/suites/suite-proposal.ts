import type { SuiteFiles } from '@fullstop/engine';
import type { LoginDeclaration } from '@fullstop/engine/suite';
import { documentPath, pageReadySource, pagesToTest, SiteSurvey, STARTER_VISUAL_DEVICES, type SurveyedPage, topPages } from '@fullstop/engine/survey';
import { pageNames } from './page-names.ts';
import { markProposed, type ProposedMarker } from './proposed-marker.ts';
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

// Which pages are tested, and which the Lighthouse and visual tests take: the survey's rule (it looks twice at the latter).
export { pagesToTest, TOP_PAGES, topPages } from '@fullstop/engine/survey';

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

export interface SuiteTestJson {
  name: string;
  kind: string;
  description?: string;
  options: Record<string, unknown>;
  thresholds?: Record<string, number>;
  login?: false;
  proposed?: ProposedMarker;
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

type Check = 'consoleErrors' | 'mainLandmark' | 'brokenLinks';

export interface PageCheckOptions {
  /** Console errors (and uncaught errors) while the page loads fail the test. */
  consoleErrors?: boolean;
  /** A visible main landmark (<main> or role="main"). */
  mainLandmark?: boolean;
  /** Images, scripts, style sheets and links of the page answer below 400. */
  brokenLinks?: boolean;
  /**
   * Checks turned off on this page, each with why (what the survey saw): every run's report says so in a step. Delete
   * a line to turn its check back on.
   */
  off?: Partial<Record<Check, string>>;
}

const CHECK_NAMES: Record<Check, string> = { consoleErrors: 'console errors', mainLandmark: 'the main landmark', brokenLinks: 'broken links and images' };

/** Loads the page and checks it: status below 400, no console errors, no broken links or images, main visible. */
export async function expectPageLoadsCleanly(page: Page, path: string, options: PageCheckOptions = {}): Promise<void> {
  const off = options.off ?? {};
  const on = (check: Check) => options[check] ?? off[check] === undefined;
  const [consoleErrors, mainLandmark, brokenLinks] = [on('consoleErrors'), on('mainLandmark'), on('brokenLinks')];
  // Said in the report, failing nothing: what is not checked here, and why.
  for (const check of Object.keys(CHECK_NAMES) as Check[]) {
    const why = off[check];
    if (on(check) || !why) continue;
    test.info().annotations.push({ type: 'check turned off', description: \`\${CHECK_NAMES[check]}: \${why}\` });
    await test.step(\`\${CHECK_NAMES[check]} not checked: \${why}\`, async () => undefined);
  }
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
export function jsonLiteral(value: unknown): string {
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

/** A check a smoke spec turns off, with what the survey saw. */
export interface CheckOff {
  check: 'consoleErrors' | 'mainLandmark' | 'brokenLinks';
  /** What the survey saw, for the spec (where it is a string literal) and the run's report: the page's text, made one line. */
  why: string;
  /** The same for the proposal's notes: printable ASCII, short. */
  noted: string;
}

/** Text of the page in a note: printable ASCII (anything else a `?`), at most `max` characters. */
export const ascii = (text: string, max: number) => {
  const printable = commentText(text, 2 * max).replace(/[^\x20-\x7e]/g, '?');
  return printable.length > max ? `${printable.slice(0, max - 3)}...` : printable;
};

/** How Chromium says a resource of the page answered an error status: a console error of the browser's, not the page's. */
const RESOURCE_FAILED = /^Failed to load resource\b/;

/**
 * The checks of a page's smoke test that the survey already saw fail, each with what it saw: they are turned off,
 * so that the suite passes on the site as it is, and the proposal reports them instead of each run failing on them.
 */
export function checksOff(page: SurveyedPage, date: string): CheckOff[] {
  const quoted = (items: readonly string[]) => `"${commentText(items[0] ?? '', 120)}"${items.length > 1 ? ` and ${items.length - 1} more` : ''}`;
  const tail = 'Reported to you in the proposal, not failed on each run: delete this line once';
  const off: CheckOff[] = [];
  if (page.consoleErrors.length) {
    // The page's own errors first: the browser's "Failed to load resource" lines say again what the broken links
    // check lists, and which came first was the network's timing, not the page's.
    const errors = [...page.consoleErrors.filter((e) => !RESOURCE_FAILED.test(e)), ...page.consoleErrors.filter((e) => RESOURCE_FAILED.test(e))];
    off.push({
      check: 'consoleErrors',
      why: `console errors on load when the survey ran (${date}): ${quoted(errors)}. ${tail} they are fixed.`,
      noted: `console errors (${ascii(errors[0]!, 80)})`,
    });
  }
  if (!page.main) {
    off.push({
      check: 'mainLandmark',
      why: `no visible main landmark (<main> or role="main") when the survey ran (${date}). ${tail} the page has one.`,
      noted: 'no main landmark',
    });
  }
  if (page.broken.length) {
    off.push({
      check: 'brokenLinks',
      why: `broken links or images when the survey ran (${date}): ${quoted(page.broken)}. ${tail} they are fixed.`,
      noted: `broken links or images (${ascii(page.broken[0]!, 80)})`,
    });
  }
  return off;
}

function smokeSpec(page: SurveyedPage, name: string, off: readonly CheckOff[]): string {
  const args = off.length
    ? `${jsString(page.path)}, {\n    off: {\n${off.map((o) => `      ${o.check}: ${jsString(o.why)},\n`).join('')}    },\n  }`
    : jsString(page.path);
  return `import { test } from '@playwright/test';
import { expectPageLoadsCleanly } from '../page-checks';

// ${page.title ? `"${commentText(page.title, 80)}"` : 'A page'} found by the crawl: ${whole(page.inbound)} other page(s) link to it, ${whole(page.forms)} form(s) (its figures: README.md).
${off.length ? '// The checks the survey saw fail here are off (`off`), each with what it saw: each run\'s report says so.\n' : ''}test(${jsString(name)}, async ({ page }) => {
  await expectPageLoadsCleanly(page, ${args});
});
`;
}

/** What a visual test's description says of its masks: "Masked, as they changed between two visits: .a, #b." */
function maskedText(p: SurveyedPage, room: number): string {
  const masks = p.look?.masks ?? [];
  if (masks.length === 0) return '';
  const between = masks.filter((m) => m.why === 'between visits').length === masks.length;
  const intro = ` Masked, as they changed ${between ? 'between two visits' : 'between two visits or while shown'} when the survey ran: `;
  let list = masks.map((m) => m.selector).join(', ');
  if (intro.length + list.length + 1 > room) list = `${list.slice(0, Math.max(0, room - intro.length - 20))}... (README.md)`;
  return `${intro}${list}.`;
}

/** A page's smoke test: its suite entry and its spec, with the checks the survey saw fail turned off. */
export function smokeTestOf(p: SurveyedPage, label: string, title: string, spec: string, date: string): { test: SuiteTestJson; file: Buffer; off: CheckOff[] } {
  const off = checksOff(p, date);
  return {
    off,
    file: Buffer.from(smokeSpec(p, specTestName(title, p.path), off)),
    test: {
      name: `Page ${label} loads cleanly`,
      kind: 'browser',
      description: `${p.path}: status below 400, no console errors, no broken links or images, the main landmark visible (${spec})${off.length ? `; off, as the survey saw them fail: ${off.map((o) => CHECK_WORDS[o.check]).join(', ')}` : ''}.`,
      options: { specs: [spec], testTimeoutMs: 60000, maxDurationSeconds: 180 },
    },
  };
}

/** axe's rules a page already broke at the failing impact when the survey ran: its accessibility test leaves them out. */
export const knownViolations = (p: SurveyedPage) => [...new Set(p.axe.filter((v) => IMPACT_ORDER.indexOf(v.impact) >= IMPACT_ORDER.indexOf(FAIL_ON_IMPACT)).map((v) => v.id))];

/** A page's accessibility test: WCAG 2.1 A/AA, what the survey saw fail left out by name. */
export function accessibilityTestOf(p: SurveyedPage, label: string, date: string): SuiteTestJson {
  const known = knownViolations(p);
  return {
    name: `Page ${label} is accessible`,
    kind: 'accessibility',
    description: known.length
      ? `${p.path}: WCAG 2.1 A/AA; fails on a serious or critical violation. Left out as known when the crawl ran (${date}): ${known.join(', ')}.`
      : `${p.path}: WCAG 2.1 A/AA; fails on a serious or critical violation.`,
    options: { pages: [p.path], failOnImpact: FAIL_ON_IMPACT, ...(known.length ? { disableRules: known } : {}) },
  };
}

/** A top page's Lighthouse test, on a desktop, with a loose threshold. */
export function lighthouseTestOf(p: SurveyedPage, label: string): SuiteTestJson {
  return {
    name: `Page ${label} Lighthouse`,
    kind: 'lighthouse',
    description: `${p.path}${p.path === '/' ? ', the home page' : `, linked from ${p.inbound} page(s)`}: its Lighthouse scores on a desktop.`,
    options: { pages: [p.path], formFactor: 'desktop' },
    thresholds: { minAccessibility: 50 },
  };
}

/** A top page's visual test, masking what changed between the survey's two visits; null when no mask held it still. */
export function visualTestOf(p: SurveyedPage, label: string): SuiteTestJson | null {
  if (p.look?.unstable) return null;
  const masks = p.look?.masks.map((m) => m.selector) ?? [];
  const screen = p.look && !p.look.fullPage ? ' Its screen only: its height changed between two visits.' : '';
  const base = `${p.path} on a desktop and a phone, compared with its approved baselines (the first run proposes them).${screen}`;
  return {
    name: `Page ${label} looks the same`,
    kind: 'visual',
    description: `${base}${maskedText(p, 500 - base.length)}`,
    options: { pages: [p.path], devices: [...STARTER_VISUAL_DEVICES], ...(masks.length ? { mask: masks } : {}), ...(screen ? { fullPage: false } : {}) },
  };
}

/** Where a page's smoke spec goes: `specs/pages/<slug>.spec.ts`, a slug not taken yet (`taken` is updated). */
export function specPathOf(path: string, taken: Set<string>): string {
  let slug = slugOf(path);
  for (let i = 2; taken.has(slug); i++) slug = `${slugOf(path)}-${i}`;
  taken.add(slug);
  return `specs/pages/${slug}.spec.ts`;
}

/** The smoke tests' helper (with the pages that have a test of their own) and the readiness it waits for. */
export function helperFiles(covered: string[]): [string, Buffer][] {
  return [
    [PAGE_CHECKS_FILE, Buffer.from(SMOKE_HELPER(covered))],
    ['specs/page-ready.ts', Buffer.from(pageReadySource())],
  ];
}
export const PAGE_CHECKS_FILE = 'specs/page-checks.ts';

/**
 * Writes the starter suite: per page a smoke test (a Playwright spec) and an accessibility test; Lighthouse and
 * visual tests of the top pages; the security checks and a passive scan; a light load test of the home page and
 * the data calls it makes. Every test is marked as the proposal's own (proposed-marker.ts), its page named.
 * `login`: the current suite's login, kept when the crawl ran logged in.
 */
export function writeStarterSuite(given: SiteSurvey, options: { login?: LoginDeclaration; visual: boolean; clientName: string; date: string }): StarterSuite {
  const survey = parseSurvey(given);
  const { pages, leftOut } = pagesToTest(survey);
  if (pages.length === 0) throw new Error(`the crawl found no page to test on ${survey.baseUrl}${leftOut.length ? ` (${leftOut.map((p) => `${p.path} ${p.reason}`).join('; ')})` : ''}`);
  const files: SuiteFiles = new Map();
  const top = topPages(pages);
  const https = survey.baseUrl.startsWith('https:');
  const slugs = new Set<string>();
  const pageOf = new Map<SuiteTestJson, string>();
  const ofPage = (p: SurveyedPage, test: SuiteTestJson) => {
    pageOf.set(test, p.path);
    return test;
  };

  const smoke: SuiteTestJson[] = [];
  const accessibility: SuiteTestJson[] = [];
  for (const [file, content] of helperFiles(pages.map((p) => p.path))) files.set(file, content);
  const { names: labelOf, titles } = pageNames(pages);
  const turnedOff: { path: string; off: CheckOff[] }[] = [];
  for (const p of pages) {
    const label = labelOf.get(p)!;
    const spec = specPathOf(p.path, slugs);
    const written = smokeTestOf(p, label, titles.get(p)!, spec, options.date);
    if (written.off.length) turnedOff.push({ path: p.path, off: written.off });
    files.set(spec, written.file);
    smoke.push(ofPage(p, written.test));
    accessibility.push(ofPage(p, accessibilityTestOf(p, label, options.date)));
  }

  const performance: SuiteTestJson[] = top.map((p) => ofPage(p, lighthouseTestOf(p, labelOf.get(p)!)));
  const load = starterLoadTest(survey);
  performance.push(load.test);

  // Over HTTP a hash route is its document: each document once.
  const documents = (list: SurveyedPage[]) => [...new Set(list.map((p) => documentPath(p.path)))];
  const security: SuiteTestJson[] = [
    {
      name: 'Security checks',
      kind: 'security-checks',
      description: 'Headers and cookies of the top pages.',
      options: { pages: documents(top), requireHttps: https },
    },
    {
      name: 'Passive security scan',
      kind: 'security-scan',
      description: 'Passive checks on the pages the crawl found (no attacks: turn `active` on for wapiti).',
      options: { pages: documents(pages).slice(0, 20), crawl: false, active: false },
      thresholds: { maxHigh: 0 },
    },
  ];

  // A page that no mask held still between two visits gets no visual test: it would fail on the site as it is.
  const visual: SuiteTestJson[] = options.visual ? top.flatMap((p) => {
    const test = visualTestOf(p, labelOf.get(p)!);
    return test ? [ofPage(p, test)] : [];
  }) : [];

  const mark = (tests: SuiteTestJson[]) => tests.map((t) => markProposed(t, files, pageOf.get(t) ?? null, options.date));
  const groups = [
    { name: 'Pages', tests: mark(smoke) },
    { name: 'Accessibility', tests: mark(accessibility) },
    { name: 'Performance', tests: mark(performance) },
    ...(visual.length ? [{ name: 'Visual', tests: mark(visual) }] : []),
    { name: 'Security', tests: mark(security) },
  ];
  const manifest = {
    version: 1,
    name: `${options.clientName}: starter suite`,
    description: `Proposed from a crawl of ${survey.baseUrl} on ${options.date} (${pages.length} pages${survey.loggedIn ? ', logged in' : ''}). Review, trial-run and edit it, then make it current.`,
    ...(options.login && survey.loggedIn ? { login: options.login } : {}),
    groups,
  };
  files.set('suite.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
  files.set('README.md', Buffer.from(readme(survey, pages, leftOut, options.date, options.visual ? top : [])));
  const notes = [...load.notes, ...offNotes(turnedOff), ...(options.visual ? lookNotes(top) : [])];
  return { files, tests: groups.flatMap((g) => g.tests.map((t) => ({ name: t.name, kind: t.kind, group: g.name }))), leftOut, notes };
}

/** The survey parsed with its schema (it came from a runner and a client's pages); what fails is said by field, quoting nothing. */
export function parseSurvey(given: SiteSurvey): SiteSurvey {
  const parsed = SiteSurvey.safeParse(given);
  if (!parsed.success) throw new Error(`the survey is not a valid survey (${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'the survey'}: ${i.code}`).join('; ')})`);
  return parsed.data;
}

/** A check in the words of a description or a note. */
export const CHECK_WORDS: Record<CheckOff['check'], string> = { consoleErrors: 'console errors', mainLandmark: 'the main landmark', brokenLinks: 'broken links and images' };
/** Pages named in a note at most; the README lists them all. */
const NOTED_PAGES = 5;

/** The proposal's note of the smoke tests' checks turned off, and what the survey saw on each page (printable ASCII). */
export function offNotes(turnedOff: readonly { path: string; off: CheckOff[] }[]): string[] {
  if (turnedOff.length === 0) return [];
  const each = turnedOff.slice(0, NOTED_PAGES).map((t) => `${ascii(t.path, 60)}: ${t.off.map((o) => o.noted).join(', ')}`);
  const more = turnedOff.length > NOTED_PAGES ? `; and ${turnedOff.length - NOTED_PAGES} more page(s)` : '';
  return [`The survey saw checks fail on ${turnedOff.length} page(s); their smoke tests turn those checks off and each run's report says why, instead of failing on each run (fix them, then delete the line in the spec): ${each.join('; ')}${more}.`];
}

/** The proposal's notes of what the visual tests mask, or why a page has none (printable ASCII). */
export function lookNotes(top: readonly SurveyedPage[]): string[] {
  const notes: string[] = [];
  for (const p of top) {
    const path = ascii(p.path, 60);
    if (p.look?.unstable) notes.push(`No visual test of ${path}: ${ascii(p.look.unstable, 300)}.`);
    else if (p.look?.masks.length) notes.push(`The visual test of ${path} masks ${p.look.masks.map((m) => m.selector).join(', ')}: ${p.look.masks.every((m) => m.why === 'between visits') ? 'they' : 'they or some'} changed between two visits of the survey.`);
    else if (!p.look) notes.push(`The visual test of ${path} masks nothing: the survey could not look at it twice.`);
  }
  return notes;
}

/** A selector in Markdown: a code span, or escaped text when it holds a backtick. */
const mdCode = (text: string) => (/[`\n]/.test(text) ? markdownText(text, 300) : `\`${text}\``);

/** The README's account of the visual tests: what each masks and why, or why a page has none. */
function lookSection(top: readonly SurveyedPage[]): string {
  const lines = top.flatMap((p) => {
    const path = markdownText(p.path, 2_000);
    if (p.look?.unstable) return [`- ${path}: no visual test, ${markdownText(p.look.unstable, 1_000)}.`];
    const screen = p.look && !p.look.fullPage ? ' Its screen only (`fullPage: false`): its height changed between two visits.' : '';
    const masks = (p.look?.masks ?? []).map((m) => `- masked: ${mdCode(m.selector)} on ${path} (it changed ${m.why === 'between visits' ? 'between two visits' : 'while the page was shown'})`);
    return [...masks, ...(screen ? [`- ${path}:${screen}`] : [])];
  });
  if (lines.length === 0) return '';
  return `\nVisual tests: the survey visited each page twice on each device; what changed is masked (painted over in every shot), so an unchanged site does not fail.\n\n${lines.join('\n')}\n`;
}

function readme(survey: SiteSurvey, pages: SurveyedPage[], leftOut: StarterSuite['leftOut'], date: string, shot: readonly SurveyedPage[]): string {
  const md = (text: string) => markdownText(text, 2_000);
  const rows = pages.map((p) => `| ${md(p.path)} | ${whole(p.status)} | ${whole(p.loadMs)} | ${whole(p.inbound)} | ${whole(p.forms)} | ${p.main ? 'yes' : 'no'} |`);
  return `# Starter suite

Proposed from a crawl of ${md(survey.baseUrl)} on ${md(date)}${survey.loggedIn ? ' (logged in with the suite\u2019s login)' : ''}: ${whole(pages.length)} page(s) in ${whole(Math.round(survey.crawlMs / 1000))} s${survey.budgetReached ? ' (the crawl\u2019s time ran out: some pages may be missing)' : ''}.
Every test is plain suite JSON (suite.json) or a Playwright spec (specs/): edit them as any suite.

| Page | Status | Load (ms) | Linked from | Forms | Main landmark |
| --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
${lookSection(shot)}${leftOut.length ? `\nLeft out:\n\n${leftOut.map((p) => `- ${md(p.path)}: ${md(p.reason)}`).join('\n')}\n` : ''}${survey.refused.length ? `\nRefused by the target policy (add an origin to the client's targets to test it): ${whole(survey.refused.length)} address(es), e.g. ${survey.refused.slice(0, 3).map(md).join(', ')}\n` : ''}`;
}
