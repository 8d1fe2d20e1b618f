import { validateSuite, validators } from '@fullstop/engine';
import type { SiteSurvey, SurveyedPage } from '@fullstop/engine/survey';
import { describe, expect, it } from 'vitest';
import { commentText, loadP95Limit, pageLabel, topPages, writeStarterSuite } from './suite-proposal.ts';

const page = (path: string, over: Partial<SurveyedPage> = {}): SurveyedPage => ({
  path,
  finalPath: path,
  status: 200,
  html: true,
  loadMs: 120,
  title: `Title of ${path}`,
  heading: '',
  links: [],
  inbound: 1,
  forms: 0,
  images: 1,
  main: true,
  consoleErrors: [],
  axe: [],
  broken: [],
  ...over,
});

const survey = (pages: SurveyedPage[], homeResponseMs = [40, 12, 10, 11, 13]): SiteSurvey => ({
  baseUrl: 'https://shop.example/',
  loggedIn: false,
  pages,
  homeResponseMs,
  refused: [],
  errors: [],
  budgetReached: false,
  crawlMs: 4000,
});

const text = (files: Map<string, Buffer>, path: string) => files.get(path)?.toString('utf8') ?? '';

describe('the starter suite written from a survey', () => {
  it('names pages as test names allow, the home page as "home"', () => {
    expect(pageLabel('/')).toBe('home');
    expect(pageLabel('/blog/post-1')).toBe('blog - post-1');
    expect(pageLabel('/search?q=shoes&page=2')).toBe('search q shoes page 2');
  });

  it('takes the home page and then the most linked for Lighthouse and visual tests', () => {
    const top = topPages([page('/a', { inbound: 2 }), page('/b', { inbound: 9 }), page('/', { inbound: 0 }), page('/c', { inbound: 5 })]);
    expect(top.map((p) => p.path)).toEqual(['/', '/b', '/c']);
  });

  it('sets the load test’s p95 from the crawl’s median, never under 500 ms', () => {
    expect(loadP95Limit(survey([], [40, 12, 10, 11, 13]))).toBe(500);
    expect(loadP95Limit(survey([], [900, 300, 250, 310, 280]))).toBe(1200);
  });

  it('writes a valid suite: per page a readable spec and an accessibility test, the rest once', () => {
    const written = writeStarterSuite(survey([page('/'), page('/pricing', { inbound: 3 }), page('/missing', { status: 404 }), page('/feed.xml', { html: false })]), {
      visual: true,
      clientName: 'Shop',
      date: '2026-11-26',
    });
    const { tests } = validateSuite(written.files, validators);
    expect(tests.map((t) => t.name)).toEqual([
      'Page home loads cleanly',
      'Page pricing loads cleanly',
      'Page home is accessible',
      'Page pricing is accessible',
      'Page home Lighthouse',
      'Page pricing Lighthouse',
      'Home page under light load',
      'Page home looks the same',
      'Page pricing looks the same',
      'Security checks',
      'Passive security scan',
    ]);
    expect(written.leftOut).toEqual([
      { path: '/missing', reason: 'answered 404' },
      { path: '/feed.xml', reason: 'not an HTML page' },
    ]);
    expect(text(written.files, 'specs/pages/pricing.spec.ts')).toContain('test("Page /pricing loads cleanly", async ({ page }) => {\n  await expectPageLoadsCleanly(page, "/pricing");\n});');
    expect(text(written.files, 'specs/page-checks.ts')).toContain('export const PAGES_WITH_THEIR_OWN_TEST: string[] = [\n  "/",\n  "/pricing"\n];');
    expect(text(written.files, 'README.md')).toContain('- /missing: answered 404');
  });

  it('turns off, with a comment, a check the crawl already saw failing, and leaves out known axe violations', () => {
    const written = writeStarterSuite(
      survey([page('/', { consoleErrors: ['widget failed'], main: false, axe: [{ id: 'color-contrast', impact: 'serious' }, { id: 'region', impact: 'moderate' }] })]),
      { visual: false, clientName: 'Shop', date: '2026-11-26' },
    );
    const spec = text(written.files, 'specs/pages/home.spec.ts');
    expect(spec).toContain('// The crawl saw console errors here (widget failed): turn the check on once they are fixed.');
    expect(spec).toContain('await expectPageLoadsCleanly(page, "/", { consoleErrors: false, mainLandmark: false });');
    const manifest = JSON.parse(text(written.files, 'suite.json'));
    const accessibility = manifest.groups.find((g: { name: string }) => g.name === 'Accessibility').tests[0];
    expect(accessibility.options).toEqual({ pages: ['/'], failOnImpact: 'serious', disableRules: ['color-contrast'] });
    expect(manifest.groups.map((g: { name: string }) => g.name)).toEqual(['Pages', 'Accessibility', 'Performance', 'Security']);
  });

  it('never lets what a hostile page says end a comment and become code in the suite', () => {
    const hostile = 'Shop\u2028require("child_process").execSync("id")\r\nprocess.exit(1)\u2029x';
    expect(commentText(hostile)).toBe('Shop require("child_process").execSync("id")  process.exit(1) x');
    const written = writeStarterSuite(survey([page('/', { title: hostile, consoleErrors: [hostile] })]), { visual: false, clientName: 'Shop', date: '2026-11-26' });
    const spec = text(written.files, 'specs/pages/home.spec.ts');
    const code = spec.split(/\r\n|[\n\r\u2028\u2029]/).filter((line) => !line.startsWith('//'));
    expect(code.join('\n')).not.toContain('child_process');
  });
});
