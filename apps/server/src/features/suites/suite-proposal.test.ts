import vm from 'node:vm';
import { validateSuite, validators } from '@fullstop/engine';
import { TEST_NAME_PATTERN } from '@fullstop/engine/suite';
import { AXE_IMPACTS, CALL_METHODS, type SiteSurvey, type SurveyedCall, type SurveyedPage } from '@fullstop/engine/survey';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { commonTitleSuffix, pageLabel, readableTitles } from './page-names.ts';
import { homeDataCalls, LIGHT_PACE, loadP95Limit } from './starter-load.ts';
import { patchSummary } from '@fullstop/contracts';
import { isProposalsOwn } from './proposed-marker.ts';
import { commentText, jsString, markdownText, pagesToTest, specTestName, topPages, writeStarterSuite } from './suite-proposal.ts';
import { pagesToAskAbout, updateSuite } from './suite-update.ts';

const page = (path: string, over: Partial<SurveyedPage> = {}): SurveyedPage => ({
  path,
  finalPath: path,
  status: 200,
  html: true,
  loadMs: 120,
  title: '',
  heading: '',
  links: [],
  inbound: 1,
  forms: 0,
  images: 1,
  main: true,
  consoleErrors: [],
  axe: [],
  broken: [],
  calls: [],
  ...over,
});

const call = (path: string, over: Partial<SurveyedCall> = {}): SurveyedCall => ({ method: 'GET', path, query: [], status: 200, ms: 30, ...over });

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
    const written = writeStarterSuite(
      survey([page('/', { title: 'Shop' }), page('/pricing', { inbound: 3, title: 'Pricing | Shop' }), page('/missing', { status: 404 }), page('/feed.xml', { html: false })]),
      { visual: true, clientName: 'Shop', date: '2026-11-26' },
    );
    const { tests } = validateSuite(written.files, validators);
    expect(tests.map((t) => t.name)).toEqual([
      'Page Shop (home) loads cleanly',
      'Page Pricing (pricing) loads cleanly',
      'Page Shop (home) is accessible',
      'Page Pricing (pricing) is accessible',
      'Page Shop (home) Lighthouse',
      'Page Pricing (pricing) Lighthouse',
      'Home page under light load',
      'Page Shop (home) looks the same',
      'Page Pricing (pricing) looks the same',
      'Security checks',
      'Passive security scan',
    ]);
    expect(written.leftOut).toEqual([
      { path: '/missing', reason: 'answered 404' },
      { path: '/feed.xml', reason: 'not an HTML page' },
    ]);
    expect(text(written.files, 'specs/pages/pricing.spec.ts')).toContain('test("Page Pricing (/pricing) loads cleanly", async ({ page }) => {\n  await expectPageLoadsCleanly(page, "/pricing");\n});');
    expect(text(written.files, 'specs/page-checks.ts')).toContain('export const PAGES_WITH_THEIR_OWN_TEST: string[] = [\n  "/",\n  "/pricing"\n];');
    expect(text(written.files, 'README.md')).toContain('- /missing: answered 404');
  });

  it('turns off a check the survey already saw failing, saying why in the spec, the run’s report and the proposal; leaves out known axe violations', () => {
    const written = writeStarterSuite(
      survey([page('/', { consoleErrors: ["TypeError: Cannot read properties of undefined (reading 'id')", 'widget failed'], main: false, axe: [{ id: 'color-contrast', impact: 'serious' }, { id: 'region', impact: 'moderate' }] })]),
      { visual: false, clientName: 'Shop', date: '2026-11-26' },
    );
    const spec = text(written.files, 'specs/pages/home.spec.ts');
    expect(spec).toContain(`test("Page / loads cleanly", async ({ page }) => {
  await expectPageLoadsCleanly(page, "/", {
    off: {
      consoleErrors: "console errors on load when the survey ran (2026-11-26): \\"TypeError: Cannot read properties of undefined (reading 'id')\\" and 1 more. Reported to you in the proposal, not failed on each run: delete this line once they are fixed.",
      mainLandmark: "no visible main landmark (<main> or role=\\"main\\") when the survey ran (2026-11-26). Reported to you in the proposal, not failed on each run: delete this line once the page has one.",
    },
  });
});`);
    // The proposal reports what it turned off, page by page.
    expect(written.notes).toContainEqual(
      "The survey saw checks fail on 1 page(s); their smoke tests turn those checks off and each run's report says why, instead of failing on each run (fix them, then delete the line in the spec): /: console errors (TypeError: Cannot read properties of undefined (reading 'id')), no main landmark.",
    );
    // Each run says it in a step of the test, as the helper writes it.
    const helper = text(written.files, 'specs/page-checks.ts');
    expect(helper).toContain('await test.step(`${CHECK_NAMES[check]} not checked: ${why}`, async () => undefined);');
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
    // The title is in a comment and, in the names' alphabet, in the test's name (a string literal): never code.
    expect(spec).toContain('test("Page Shop require child_process (/) loads cleanly"');
    const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, spec);
    const identifiers: string[] = [];
    for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
      if (token === ts.SyntaxKind.Identifier) identifiers.push(scanner.getTokenText());
    }
    expect(identifiers.filter((id) => ['require', 'child_process', 'execSync', 'process'].includes(id))).toEqual([]);
  });
});


describe('the visual tests: what two visits of the survey saw change is masked', () => {
  const visualOf = (written: ReturnType<typeof writeStarterSuite>) => {
    const manifest = JSON.parse(text(written.files, 'suite.json')) as { groups: { name: string; tests: { name: string; description: string; options: Record<string, unknown> }[] }[] };
    return manifest.groups.find((g) => g.name === 'Visual')?.tests ?? [];
  };

  it('masks what changed, says so in the test, the README and the proposal; a page no mask held still gets no visual test', () => {
    const pages = [
      page('/', { title: 'Home', look: { masks: [{ selector: '.published-ago', why: 'between visits' }, { selector: '[data-testid="visits"]', why: 'between visits' }], fullPage: true } }),
      page('/posts', { title: 'Posts', inbound: 5, look: { masks: [], fullPage: false } }),
      page('/live', { title: 'Live', inbound: 4, look: { masks: [], fullPage: true, unstable: 'on a desktop, it changed between two visits in 1280 × 900 px at 0, 80, where no element smaller than a third of the page holds the change' } }),
    ];
    const written = writeStarterSuite(survey(pages), { visual: true, clientName: 'Shop', date: '2026-11-26' });
    validateSuite(written.files, validators);
    const visual = visualOf(written);
    expect(visual.map((t) => [t.name, t.options])).toEqual([
      ['Page Home (home) looks the same', { pages: ['/'], devices: ['desktop', 'phone'], mask: ['.published-ago', '[data-testid="visits"]'] }],
      ['Page Posts (posts) looks the same', { pages: ['/posts'], devices: ['desktop', 'phone'], fullPage: false }],
    ]);
    expect(visual[0]!.description).toBe(
      '/ on a desktop and a phone, compared with its approved baselines (the first run proposes them). Masked, as they changed between two visits when the survey ran: .published-ago, [data-testid="visits"].',
    );
    expect(visual[1]!.description).toContain('Its screen only: its height changed between two visits.');
    const readme = text(written.files, 'README.md');
    expect(readme).toContain('- masked: `.published-ago` on / (it changed between two visits)');
    expect(readme).toContain('- /live: no visual test, on a desktop, it changed between two visits in 1280 × 900 px at 0, 80');
    expect(written.notes).toEqual([
      expect.stringContaining('The load test'),
      'The visual test of / masks .published-ago, [data-testid="visits"]: they changed between two visits of the survey.',
      'No visual test of /live: on a desktop, it changed between two visits in 1280 ? 900 px at 0, 80, where no element smaller than a third of the page holds the change.',
    ]);
    // Lighthouse still takes the three top pages.
    expect(written.tests.filter((t) => t.kind === 'lighthouse')).toHaveLength(3);
  });

  it('keeps a description within 500 characters however many masks', () => {
    const masks = Array.from({ length: 10 }, (_, i) => ({ selector: `.a-very-long-class-name-for-a-changing-thing-number-${'x'.repeat(i + 1)} [data-testid="${'y'.repeat(60)}"]`, why: 'between visits' as const }));
    const written = writeStarterSuite(survey([page('/', { look: { masks, fullPage: false } })]), { visual: true, clientName: 'Shop', date: '2026-11-26' });
    validateSuite(written.files, validators);
    const [test] = visualOf(written);
    expect(test!.description.length).toBeLessThanOrEqual(500);
    expect(test!.description).toMatch(/\.\.\. \(README\.md\)\.$/);
    expect(test!.options.mask).toHaveLength(10);
  });
});

describe('hash routes are pages', () => {
  it('names them by their route, tests each on its own, and fetches their document once for the security kinds', () => {
    const pages = [page('/', { title: 'App' }), page('/#/about', { title: 'App', heading: 'About us', inbound: 3 }), page('/#/pet', { title: 'App', heading: 'Pets', inbound: 2 })];
    const written = writeStarterSuite(survey(pages), { visual: true, clientName: 'Shop', date: '2026-11-26' });
    const { tests } = validateSuite(written.files, validators);
    expect(tests.filter((t) => t.kind === 'accessibility').map((t) => [t.name, t.options.pages])).toEqual([
      ['Page App (home) is accessible', ['/']],
      ['Page About us (about) is accessible', ['/#/about']],
      ['Page Pets (pet) is accessible', ['/#/pet']],
    ]);
    expect(text(written.files, 'specs/pages/about.spec.ts')).toContain('test("Page About us (/#/about) loads cleanly", async ({ page }) => {\n  await expectPageLoadsCleanly(page, "/#/about");');
    expect(tests.filter((t) => t.kind === 'visual').map((t) => t.options.pages)).toEqual([['/'], ['/#/about'], ['/#/pet']]);
    expect(tests.find((t) => t.kind === 'security-checks')!.options.pages).toEqual(['/']);
    expect(tests.find((t) => t.kind === 'security-scan')!.options.pages).toEqual(['/']);
  });
});

describe('test names from the pages’ titles', () => {
  const namesOf = (pages: SurveyedPage[]) =>
    writeStarterSuite(survey(pages), { visual: false, clientName: 'Shop', date: '2026-11-26' })
      .tests.filter((t) => t.kind === 'browser')
      .map((t) => t.name);

  it('takes the title without the site’s common suffix, the path beside it', () => {
    const pages = [page('/', { title: 'Home | Starter site' }), page('/pricing', { title: 'Pricing | Starter site' }), page('/blog/post-1', { title: '  First   post | Starter site ' })];
    expect(commonTitleSuffix(pages.map((p) => p.title))).toBe(' | Starter site');
    expect(namesOf(pages)).toEqual(['Page Home (home) loads cleanly', 'Page Pricing (pricing) loads cleanly', 'Page First post (blog - post-1) loads cleanly']);
    const written = writeStarterSuite(survey(pages), { visual: false, clientName: 'Shop', date: '2026-11-26' });
    expect(text(written.files, 'specs/pages/blog-post-1.spec.ts')).toContain('test("Page First post (/blog/post-1) loads cleanly", async ({ page }) => {');
  });

  it('keeps a suffix that not every page shares; a page titled with the site’s name alone shares it', () => {
    expect(commonTitleSuffix(['Pricing | Shop', 'About | Other'])).toBe('');
    expect(commonTitleSuffix(['Shop', 'Pricing | Shop', 'About - Us | Shop'])).toBe(' | Shop');
    expect(commonTitleSuffix(['Pricing | Shop'])).toBe('');
    expect(namesOf([page('/', { title: 'Pricing | Shop' }), page('/about', { title: 'About | Other' })])).toEqual(['Page Pricing Shop (home) loads cleanly', 'Page About Other (about) loads cleanly']);
  });

  it('takes the first heading when every page has the same title (an app that never sets it), the path alone when neither reads', () => {
    const pages = [
      page('/', { title: 'My App', heading: 'Dashboard' }),
      page('/settings', { title: 'My App', heading: ' Your\n settings ' }),
      page('/help', { title: 'My App' }),
      page('/ja', { title: '価格', heading: '価格' }),
      page('/cafe', { title: 'Café & Crème: what’s new?' }),
    ];
    expect([...readableTitles(pages).values()]).toEqual(['Dashboard', 'Your settings', 'My App', '', 'Cafe Creme whats new']);
    expect(namesOf(pages)).toEqual([
      'Page Dashboard (home) loads cleanly',
      'Page Your settings (settings) loads cleanly',
      'Page My App (help) loads cleanly',
      'Page ja loads cleanly',
      'Page Cafe Creme whats new (cafe) loads cleanly',
    ]);
  });

  it('keeps names unique and within the names’ limits, long titles and paths cut', () => {
    const long = 'An extraordinarily long page title that goes on and on well past any limit';
    const pages = [page('/a x', { title: long }), page('/a?x', { title: long }), page(`/${'deep/'.repeat(30)}end`, { title: `${'W'.repeat(200)} | x` })];
    const { tests } = validateSuite(writeStarterSuite(survey(pages), { visual: true, clientName: 'Shop', date: '2026-11-26' }).files, validators);
    const names = tests.map((t) => t.name);
    expect(names.filter((n) => n.endsWith(' loads cleanly'))).toEqual([
      'Page An extraordinarily long page (a x) loads cleanly',
      'Page An extraordinarily long page (a x) (2) loads cleanly',
      `Page ${'W'.repeat(32)} (${pageLabel(pages[2]!.path, 39)}) loads cleanly`,
    ]);
    for (const name of names) expect(name).toMatch(TEST_NAME_PATTERN);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
  });
});

describe('the starter load test: the home page and the data calls it makes', () => {
  const loadTestOf = (written: ReturnType<typeof writeStarterSuite>) => {
    const manifest = JSON.parse(text(written.files, 'suite.json')) as { groups: { tests: { kind: string; description: string; options: Record<string, unknown>; thresholds: Record<string, number> }[] }[] };
    return manifest.groups.flatMap((g) => g.tests).find((t) => t.kind === 'load')!;
  };

  it('asks for the home page and its GET calls at a light pace, thresholds from the crawl’s times', () => {
    const home = page('/', {
      calls: [
        call('/api/products', { ms: 80 }),
        call('/api/search', { query: ['q', 'page'] }),
        call('/api/visits', { method: 'POST', json: { page: 'string' }, status: 204 }),
        call('/api/session/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl'),
        call('/api/keys/4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c'),
        call('/api/logout'),
        call('/api/broken', { status: 500 }),
        call('/api/slow', { ms: 300 }),
        call('/api/products', { method: 'HEAD' }),
      ],
    });
    const written = writeStarterSuite(survey([home]), { visual: false, clientName: 'Shop', date: '2026-11-26' });
    validateSuite(written.files, validators);
    const load = loadTestOf(written);
    expect(load.options).toEqual({ requests: [{ path: '/' }, { path: '/api/products' }, { path: '/api/slow' }], ...LIGHT_PACE });
    // The slowest measured: the call of 300 ms, four times.
    expect(load.thresholds).toEqual({ maxP95Ms: 1200, maxFailedRate: 1 });
    expect(load.description).toContain('The home page and the 2 data call(s) it makes');
    expect(load.description.length).toBeLessThanOrEqual(500);
    expect(homeDataCalls(survey([home])).leftOut.map((l) => `${l.call.method} ${l.call.path}: ${l.reason}`)).toEqual([
      'GET /api/search: has a query, whose values the survey does not keep',
      'POST /api/visits: POST: the load test asks, it does not send',
      'GET /api/session/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl: its path looks like it holds a secret',
      'GET /api/keys/4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c: its path looks like it holds a secret',
      'GET /api/logout: its path says it ends or changes something',
      'GET /api/broken: answered 500 when the crawl ran',
      'HEAD /api/products: HEAD: the load test asks, it does not send',
    ]);
    expect(written.notes).toEqual([expect.stringMatching(/^The load test asks for the home page and 2 of its data calls\. Left out: 7 call\(s\) of the home page \(GET \/api\/search: has a query/)]);
    expect(JSON.stringify(load)).not.toContain('eyJ');
  });

  it('keeps the document-only test when the home page makes no data call, and says so', () => {
    const written = writeStarterSuite(survey([page('/'), page('/shop', { calls: [call('/api/cart')] })]), { visual: false, clientName: 'Shop', date: '2026-11-26' });
    const load = loadTestOf(written);
    expect(load.options).toEqual({ requests: [{ path: '/' }], connections: 5, durationSeconds: 5 });
    expect(load.thresholds).toEqual({ maxP95Ms: 500, maxFailedRate: 1 });
    expect(written.notes).toEqual([expect.stringContaining("The load test asks for the home page's document only: the crawl saw the home page make no data call")]);
  });

  it('sets p95 from the slowest of the document’s median and the calls asked for, never under 500 ms', () => {
    expect(loadP95Limit(survey([], [200, 150, 160]), [call('/api/a', { ms: 90 })])).toBe(640);
    expect(loadP95Limit(survey([], [20]), [call('/api/a', { ms: 400 }), call('/api/b', { ms: null })])).toBe(1600);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// What a hostile website can make the survey say, and what the generated files must still be.

/** Every way text could end a `//` comment, start code or a string, or make a comment read otherwise. */
const HOSTILE_PIECES = [
  '\n', '\r', '\r\n', '\u2028', '\u2029', '\u0085', '*/', '/*', '`', '${', '}', '"', "'", '\\', '\\u2028', '\u0000', '\u0007', '\u001b',
  '\u007f', '\u202e', '\u2066', '\u200f', '\ud800', '\udfff', '\ud83d\ude00', '</script>', '<!--', '-->', '|', '#', '[x](javascript:1)',
  ';globalThis.pwned=1;', 'test("pwned", () => {});', '//', ' ', 'a', 'Z', '0',
];

/** A small seeded PRNG (mulberry32): the same surveys on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Parses `source` as a TypeScript module: its statements, its comments (kind and text) and the parser's complaints. */
function parse(source: string) {
  const file = ts.createSourceFile('generated.spec.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const comments: { kind: ts.SyntaxKind; text: string }[] = [];
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, source);
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia) comments.push({ kind: token, text: scanner.getTokenText() });
  }
  const diagnostics = (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  return { file, comments, diagnostics };
}

const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

describe('commentText: what a page says, in a // comment', () => {
  const cases = [...HOSTILE_PIECES, HOSTILE_PIECES.join(''), `x${HOSTILE_PIECES.join('x')}x`, 'Shop\u2028require("child_process").execSync("id")\r\nprocess.exit(1)\u2029x'];

  it('stays one comment on one line, whatever the text, for TypeScript’s parser and for V8', () => {
    for (const text of cases) {
      const comment = `// ${commentText(text)}`;
      const { file, comments, diagnostics } = parse(`${comment}\nconst after = 1;\n`);
      expect(diagnostics, JSON.stringify(text)).toEqual([]);
      expect(comments, JSON.stringify(text)).toEqual([{ kind: ts.SyntaxKind.SingleLineCommentTrivia, text: comment }]);
      expect(file.statements.map((s) => ts.SyntaxKind[s.kind])).toEqual(['FirstStatement']);
      expect(commentText(text)).not.toMatch(LINE_TERMINATOR);
      // V8 itself: code after a terminator would run and count.
      expect(vm.runInNewContext(`let ran = 0;\n// ${commentText(`${text}\u2028ran++;\nran++;\rran++;\u2029ran++`)}\nran`), JSON.stringify(text)).toBe(0);
    }
  });

  it('turns control, bidirectional and half characters into spaces, cuts at `max` and never a character in two', () => {
    expect(commentText('a\u0000b\u001bc\u007fd\u0085e\u202ef\u2066g')).toBe('a b c d e f g');
    expect(commentText('\ud800x\udfff')).toBe(' x ');
    expect(commentText('ab\ud83d\ude00', 3)).toBe('ab');
    expect(commentText('ab\ud83d\ude00', 4)).toBe('ab\ud83d\ude00');
    expect(commentText('x'.repeat(500))).toHaveLength(200);
  });

  it('string literals are JSON’s, ASCII only; README cells escape | and Markdown', () => {
    expect(jsString('/pricing')).toBe('"/pricing"');
    expect(jsString('/a\u2028b"\\\u00e9')).toBe('"/a\\u2028b\\"\\\\\\u00e9"');
    expect(vm.runInNewContext(jsString('/a\u2028b\ud800"`${x}`'))).toBe('/a\u2028b\ud800"`${x}`');
    expect(markdownText('a|b\nc`<d>*_[e]\\')).toBe('a\\|b c\\`\\<d\\>\\*\\_\\[e\\]\\\\');
  });
});

/** A random string of hostile pieces and plain characters, at most `max` characters. */
const hostileText = (random: () => number, max = 120) => {
  let text = '';
  for (let n = Math.floor(random() * 12); n > 0; n--) text += HOSTILE_PIECES[Math.floor(random() * HOSTILE_PIECES.length)];
  return text.slice(0, max);
};
const hostileCount = (random: () => number) => [0, 1, 7, 1_000_000, Number.MAX_SAFE_INTEGER][Math.floor(random() * 5)]!;
const pick = <T,>(random: () => number, items: readonly T[]) => items[Math.floor(random() * items.length)]!;
const several = <T,>(random: () => number, max: number, make: () => T) => Array.from({ length: Math.floor(random() * (max + 1)) }, make);

/** A call a hostile page made: its path, query keys and body's keys are the page's words; GET most often, as the load test takes. */
const hostileCall = (random: () => number): SurveyedCall => ({
  method: random() < 0.6 ? 'GET' : pick(random, CALL_METHODS),
  path: pick(random, [`/${hostileText(random)}`, `/api/${hostileText(random, 40)}`, '/api/items', '/']),
  query: random() < 0.7 ? [] : several(random, 3, () => `k${hostileText(random, 90)}`),
  ...(random() < 0.3 ? { json: { [`k${hostileText(random, 90)}`]: 'string' as const, [`x${hostileText(random, 90)}`]: 'number' as const } } : {}),
  status: pick(random, [200, 200, 204, 304, 404, 500, null]),
  ms: random() < 0.2 ? null : hostileCount(random),
});

/** What two visits found, as a hostile runner could write it: selectors of any printable ASCII, any reason (a PRNG of its own). */
const looks = prng(0x100c5);
const hostileLook = (random: () => number): NonNullable<SurveyedPage['look']> => ({
  masks: several(random, 3, () => ({ selector: `.${hostileText(random, 150)}`.replace(/[^\x20-\x7e]/g, 'x').trim() || '.x', why: random() < 0.5 ? ('between visits' as const) : ('while shown' as const) })),
  fullPage: random() < 0.7,
  ...(random() < 0.2 ? { unstable: hostileText(random, 300) } : {}),
});

function hostileSurvey(random: () => number): SiteSurvey {
  const pages = several(random, 6, (): SurveyedPage => {
    const path = random() < 0.3 ? '/' : `/${hostileText(random)}`;
    return {
      path,
      finalPath: random() < 0.8 ? path : `/${hostileText(random)}`,
      status: pick(random, [200, 200, 200, 204, 301, 404, 500, null]),
      html: random() < 0.9,
      loadMs: random() < 0.2 ? null : hostileCount(random),
      title: hostileText(random, 300),
      heading: hostileText(random, 200),
      links: several(random, 3, () => `/${hostileText(random)}`),
      inbound: hostileCount(random),
      forms: hostileCount(random),
      images: hostileCount(random),
      main: random() < 0.5,
      consoleErrors: several(random, 3, () => hostileText(random, 300)),
      axe: several(random, 3, () => ({ id: `rule-${hostileText(random, 80)}`, impact: pick(random, AXE_IMPACTS) })),
      broken: several(random, 3, () => `404 ${hostileText(random)}`),
      calls: several(random, 4, () => hostileCall(random)),
      ...(looks() < 0.5 ? { look: hostileLook(looks) } : {}),
      ...(random() < 0.1 ? { error: hostileText(random) } : {}),
    };
  });
  return {
    baseUrl: random() < 0.5 ? 'https://shop.example/' : `https://shop.example/${hostileText(random)}`,
    loggedIn: random() < 0.3,
    pages,
    homeResponseMs: several(random, 5, () => hostileCount(random)),
    refused: several(random, 3, () => `https://other.example/${hostileText(random)}`),
    errors: several(random, 2, () => ({ url: `https://shop.example/${hostileText(random)}`, error: hostileText(random) })),
    budgetReached: random() < 0.5,
    crawlMs: hostileCount(random),
  };
}

/** A node's text, or the reason it is not what `check` expects. */
const kindOf = (node: ts.Node | undefined) => (node ? ts.SyntaxKind[node.kind] : 'nothing');

/** Asserts the smoke spec is exactly: two imports, one test(name, async ({ page }) => { await expectPageLoadsCleanly(page, path, {…: false}?) }). */
function expectSmokeSpec(source: string, intended: { name: string; path: string; off: string[]; notes: number }) {
  const { file, comments, diagnostics } = parse(source);
  expect(diagnostics).toEqual([]);
  const [first, second, call, ...rest] = file.statements;
  expect(rest.map(kindOf)).toEqual([]);
  const imported = (s: ts.Statement | undefined) => {
    if (!s || !ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier)) throw new Error(`expected an import, found ${kindOf(s)}`);
    const bindings = s.importClause?.namedBindings;
    return { from: s.moduleSpecifier.text, names: bindings && ts.isNamedImports(bindings) ? bindings.elements.map((e) => e.name.text) : null, default: s.importClause?.name?.text };
  };
  expect(imported(first)).toEqual({ from: '@playwright/test', names: ['test'], default: undefined });
  expect(imported(second)).toEqual({ from: '../page-checks', names: ['expectPageLoadsCleanly'], default: undefined });

  if (!call || !ts.isExpressionStatement(call) || !ts.isCallExpression(call.expression)) throw new Error(`expected test(…), found ${kindOf(call)}`);
  const test = call.expression;
  expect(ts.isIdentifier(test.expression) && test.expression.text).toBe('test');
  expect(test.arguments).toHaveLength(2);
  const [name, callback] = test.arguments;
  expect(name && ts.isStringLiteral(name) && name.text).toBe(intended.name);
  if (!callback || !ts.isArrowFunction(callback) || !ts.isBlock(callback.body)) throw new Error(`expected an arrow function, found ${kindOf(callback)}`);
  expect(callback.modifiers?.map(kindOf)).toEqual(['AsyncKeyword']);
  expect(callback.parameters.map((p) => p.name.getText(file))).toEqual(['{ page }']);
  expect(callback.body.statements).toHaveLength(1);
  const body = callback.body.statements[0]!;
  if (!ts.isExpressionStatement(body) || !ts.isAwaitExpression(body.expression) || !ts.isCallExpression(body.expression.expression)) throw new Error(`expected await …(), found ${kindOf(body)}`);
  const check = body.expression.expression;
  expect(ts.isIdentifier(check.expression) && check.expression.text).toBe('expectPageLoadsCleanly');
  const [page, path, options, ...more] = check.arguments;
  expect(more).toEqual([]);
  expect(page && ts.isIdentifier(page) && page.text).toBe('page');
  expect(path && ts.isStringLiteral(path) && path.text).toBe(intended.path);
  if (intended.off.length === 0) expect(options).toBeUndefined();
  else {
    // { off: { check: "why", ... } }: each reason a string literal, nothing else.
    if (!options || !ts.isObjectLiteralExpression(options)) throw new Error(`expected the options, found ${kindOf(options)}`);
    const [off, ...others] = options.properties;
    expect(others.map(kindOf)).toEqual([]);
    if (!off || !ts.isPropertyAssignment(off) || !ts.isIdentifier(off.name) || off.name.text !== 'off' || !ts.isObjectLiteralExpression(off.initializer)) throw new Error(`expected off: {…}, found ${kindOf(off)}`);
    expect(off.initializer.properties.map((p) => (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && ts.isStringLiteral(p.initializer) ? p.name.text : kindOf(p)))).toEqual(intended.off);
  }

  // The comments: one line each, the figures' line and, with checks off, the line saying where their reasons are.
  expect(comments.map((c) => c.kind)).toEqual(Array(1 + intended.notes).fill(ts.SyntaxKind.SingleLineCommentTrivia));
  for (const c of comments) expect(c.text).not.toMatch(LINE_TERMINATOR);
}

describe('writeStarterSuite on hostile surveys', () => {
  it('writes specs whose code is exactly the intended one, whatever the pages said (300 seeded surveys)', () => {
    const random = prng(0x5eed37);
    let written = 0;
    let loadsWithCalls = 0;
    for (let i = 0; i < 300; i++) {
      const hostile = hostileSurvey(random);
      const { pages } = pagesToTest(hostile);
      if (pages.length === 0) {
        expect(() => writeStarterSuite(hostile, { visual: true, clientName: 'Shop', date: '2026-11-26' })).toThrow(/^the crawl found no page to test/);
        continue;
      }
      written++;
      const suite = writeStarterSuite(hostile, { visual: i % 2 === 0, clientName: 'Shop', date: '2026-11-26' });
      const titles = readableTitles(pages);
      const specs = [...suite.files.keys()].filter((f) => f.startsWith('specs/pages/'));
      expect(specs).toHaveLength(pages.length);
      expect(specs.every((f) => /^specs\/pages\/[a-z0-9-]+\.spec\.ts$/.test(f))).toBe(true);
      for (const [n, p] of pages.entries()) {
        const off = [...(p.consoleErrors.length ? ['consoleErrors'] : []), ...(p.main ? [] : ['mainLandmark']), ...(p.broken.length ? ['brokenLinks'] : [])];
        try {
          expectSmokeSpec(text(suite.files, specs[n]!), { name: specTestName(titles.get(p)!, p.path), path: p.path, off, notes: off.length ? 1 : 0 });
        } catch (error) {
          throw new Error(`survey ${i}, ${specs[n]}:\n${text(suite.files, specs[n]!)}\n${(error as Error).message}`);
        }
      }

      // The helper: its list of pages is an array of string literals, the pages' paths.
      const helper = parse(text(suite.files, 'specs/page-checks.ts'));
      expect(helper.diagnostics).toEqual([]);
      const list = helper.file.statements.flatMap((s) => (ts.isVariableStatement(s) ? s.declarationList.declarations : [])).find((d) => d.name.getText(helper.file) === 'PAGES_WITH_THEIR_OWN_TEST');
      if (!list?.initializer || !ts.isArrayLiteralExpression(list.initializer)) throw new Error('PAGES_WITH_THEIR_OWN_TEST is not an array literal');
      expect(list.initializer.elements.map((e) => (ts.isStringLiteral(e) ? e.text : kindOf(e)))).toEqual(pages.map((p) => p.path));

      // suite.json is JSON, every name within the names' alphabet and unique; README.md has one table row per page, of six cells.
      const manifest = JSON.parse(text(suite.files, 'suite.json')) as { groups: { tests: { name: string; kind: string; options: { requests?: { path: string }[] } }[] }[] };
      const names = manifest.groups.flatMap((g) => g.tests.map((t) => t.name));
      expect(names).toEqual(suite.tests.map((t) => t.name));
      for (const name of names) expect(name).toMatch(TEST_NAME_PATTERN);
      expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
      // The load test asks for the home page and the home page's own GET calls that answered, printable paths only.
      const load = manifest.groups.flatMap((g) => g.tests).find((t) => t.kind === 'load')!;
      const homeCalls = hostile.pages.find((p) => p.path === '/')?.calls ?? [];
      for (const { path } of load.options.requests!.slice(1)) {
        expect(path).toMatch(/^\/[\x21-\x7e]*$/);
        expect(homeCalls.some((c) => c.path === path && c.method === 'GET' && c.query.length === 0 && c.status !== null && c.status < 400)).toBe(true);
      }
      expect(load.options.requests![0]).toEqual({ path: '/' });
      if (load.options.requests!.length > 1) loadsWithCalls++;
      // And the suite is one the server imports (names, options and thresholds by each kind's schema).
      validateSuite(suite.files, validators);
      // Notes are shown in the console and the CLI: printable ASCII only.
      for (const note of suite.notes) expect(note).toMatch(/^[\x20-\x7e]*$/);
      const readme = text(suite.files, 'README.md').split('\n');
      const header = readme.indexOf('| --- | --- | --- | --- | --- | --- |');
      const rows = readme.slice(header + 1, readme.indexOf('', header));
      expect(rows).toHaveLength(pages.length);
      for (const row of rows) expect(row.split(/(?<!\\)\|/)).toHaveLength(8);
      expect(readme.join('\n')).not.toMatch(/[\r\u2028\u2029]/);
    }
    // Most surveys had pages to test: the checks above ran.
    expect(written).toBeGreaterThan(200);
    expect(loadsWithCalls).toBeGreaterThan(20);
  });

  it('refuses a survey that is not one, saying where, quoting nothing of it', () => {
    const good = survey([page('/')]);
    const hostile: [string, unknown][] = [
      ['pages.0.forms', { ...good.pages[0], forms: '0\u2028;globalThis.pwned=1//' }],
      ['pages.0.forms', { ...good.pages[0], forms: -1 }],
      ['pages.0.forms', { ...good.pages[0], forms: 1.5 }],
      ['pages.0.inbound', { ...good.pages[0], inbound: Number.NaN }],
      ['pages.0.inbound', { ...good.pages[0], inbound: Number.POSITIVE_INFINITY }],
      ['pages.0.title', { ...good.pages[0], title: { toString: 'pwned' } }],
      ['pages.0.title', { ...good.pages[0], title: 'pwned'.repeat(1000) }],
      ['pages.0.axe.0.impact', { ...good.pages[0], axe: [{ id: 'region', impact: 'pwned' }] }],
      ['pages.0.path', { ...good.pages[0], path: 'pwned' }],
      ['pages.0', { ...good.pages[0], pwned: true }],
      ['pages.0.consoleErrors', { ...good.pages[0], consoleErrors: Array(21).fill('pwned') }],
    ];
    for (const [where, bad] of hostile) {
      const refused = (() => {
        try {
          writeStarterSuite({ ...good, pages: [bad] } as SiteSurvey, { visual: false, clientName: 'Shop', date: '2026-11-26' });
        } catch (error) {
          return (error as Error).message;
        }
        return 'written';
      })();
      expect(refused, where).toMatch(/^the survey is not a valid survey \(/);
      expect(refused, where).toContain(`${where}: `);
      expect(refused, where).not.toContain('pwned');
    }
    expect(() => writeStarterSuite({ ...good, crawlMs: -5 }, { visual: false, clientName: 'Shop', date: '2026-11-26' })).toThrow('the survey is not a valid survey (crawlMs: too_small)');
  });
});

describe('a re-crawl proposes a patch of the current suite', () => {
  const at = (date: string) => ({ visual: true, clientName: 'Shop', date });
  const GONE = '/old-pricing answered 404 twice, at 12:01:03 and 12:01:08 UTC';
  type Test = { name: string; kind: string; options: Record<string, unknown>; proposed?: { page?: string; sha256?: string } };
  type Manifest = { groups: { name: string; tests: Test[] }[] };
  const manifestOf = (files: Map<string, Buffer>) => JSON.parse(text(files, 'suite.json')) as Manifest;
  const testsOf = (files: Map<string, Buffer>) => manifestOf(files).groups.flatMap((g) => g.tests);
  const named = (files: Map<string, Buffer>, name: string) => testsOf(files).find((t) => t.name === name)!;

  /** v1 as proposed on 2026-11-20, then edited by an operator: a hand-written test, a spec and a test's options edited. */
  function currentSuite() {
    const v1 = writeStarterSuite(
      survey([page('/', { title: 'Shop' }), page('/pricing', { title: 'Pricing | Shop', inbound: 5 }), page('/blog', { title: 'Blog | Shop', inbound: 4 }), page('/old-pricing', { title: 'Old pricing | Shop' }), page('/notes', { title: 'Notes | Shop' })]),
      at('2026-11-20'),
    ).files;
    const files = new Map(v1);
    const manifest = manifestOf(files);
    // Hand-written: a group of its own, with a spec of its own; and a visual test of two pages.
    manifest.groups.push({ name: 'Smoke', tests: [{ name: 'Health', kind: 'browser', options: { specs: ['specs/health.spec.ts'] } }] });
    manifest.groups.find((g) => g.name === 'Visual')!.tests.push({ name: 'Pages look the same', kind: 'visual', options: { pages: ['/', '/pricing'], devices: ['desktop'] } });
    files.set('specs/health.spec.ts', Buffer.from("import { test } from '@playwright/test';\n\ntest('health', async ({ request }) => {\n  await request.get('/health');\n});\n"));
    // Edited: the old pricing page's accessibility test (its options) and the notes page's spec.
    const a11y = manifest.groups.flatMap((g) => g.tests).find((t) => t.name === 'Page Old pricing (old-pricing) is accessible')!;
    a11y.options = { ...a11y.options, failOnImpact: 'critical' };
    files.set('specs/pages/notes.spec.ts', Buffer.from(`${text(files, 'specs/pages/notes.spec.ts')}// Checked by hand too: the notes load from the API.\n`));
    files.set('suite.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    return files;
  }
  /** The site now: /careers and /jobs are new (/jobs the most linked), /old-pricing and /notes are gone, /pricing logs an error. */
  const now = survey([
    page('/', { title: 'Shop' }),
    page('/pricing', { title: 'Pricing | Shop', inbound: 5, consoleErrors: ['Stripe failed to load'] }),
    page('/blog', { title: 'Blog | Shop', inbound: 4 }),
    page('/careers', { title: 'Careers | Shop', inbound: 0 }),
    page('/jobs', { title: 'Jobs | Shop', inbound: 9 }),
  ]);
  const gone = new Map([
    ['/old-pricing', GONE],
    ['/notes', '/notes answered 410 twice, at 12:01:03 and 12:01:08 UTC'],
  ]);

  it('marks every test a proposal writes with its page and a fingerprint; an edit makes a test hand-written', () => {
    const v1 = writeStarterSuite(survey([page('/', { title: 'Shop' }), page('/pricing', { title: 'Pricing | Shop' })]), at('2026-11-20')).files;
    const smoke = named(v1, 'Page Pricing (pricing) loads cleanly');
    expect(smoke.proposed).toEqual({ page: '/pricing', on: '2026-11-20', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(named(v1, 'Security checks').proposed).toEqual({ on: '2026-11-20', sha256: expect.any(String) });
    expect(isProposalsOwn(smoke, v1)).toBe(true);
    expect(isProposalsOwn({ ...smoke, options: { ...smoke.options, testTimeoutMs: 90000 } }, v1)).toBe(false);
    const edited = new Map(v1).set('specs/pages/pricing.spec.ts', Buffer.from(`${text(v1, 'specs/pages/pricing.spec.ts')}\n`));
    expect(isProposalsOwn(smoke, edited)).toBe(false);
    // Laid out otherwise, the same test is still the proposal's own.
    expect(isProposalsOwn(Object.fromEntries(Object.entries(smoke).reverse()) as typeof smoke, v1)).toBe(true);
  });

  it('adds the new pages’ tests, removes the gone page’s own, keeps every other test and file as it was', () => {
    const current = currentSuite();
    const before = testsOf(current);
    const update = updateSuite(current, now, { visual: true, date: '2026-11-29', gone });
    const after = manifestOf(update.files);

    // Added: smoke and accessibility for each new page; Lighthouse and visual for /jobs, now a top page.
    expect(update.patch.added).toEqual([
      { name: 'Page Careers (careers) loads cleanly', kind: 'browser', page: '/careers' },
      { name: 'Page Careers (careers) is accessible', kind: 'accessibility', page: '/careers' },
      { name: 'Page Jobs (jobs) loads cleanly', kind: 'browser', page: '/jobs' },
      { name: 'Page Jobs (jobs) is accessible', kind: 'accessibility', page: '/jobs' },
      { name: 'Page Jobs (jobs) Lighthouse', kind: 'lighthouse', page: '/jobs' },
      { name: 'Page Jobs (jobs) looks the same', kind: 'visual', page: '/jobs' },
    ]);
    // Removed: only the gone pages' tests as proposed; the edited ones stay.
    expect(update.patch.removed).toEqual([
      { name: 'Page Old pricing (old-pricing) loads cleanly', kind: 'browser', page: '/old-pricing', evidence: GONE },
      { name: 'Page Notes (notes) is accessible', kind: 'accessibility', page: '/notes', evidence: '/notes answered 410 twice, at 12:01:03 and 12:01:08 UTC' },
    ]);
    expect(update.patch.kept).toBe(before.length - 2);
    expect(update.notes.join('\n')).toContain('Kept, as they were edited since they were proposed, though their page is gone: "Page Notes (notes) loads cleanly" (/notes), "Page Old pricing (old-pricing) is accessible" (/old-pricing).');

    // Every test kept is exactly as it was, in its group and order; the new ones follow in their groups.
    const removedNames = update.patch.removed.map((r) => r.name);
    const addedNames = update.patch.added.map((a) => a.name);
    for (const g of manifestOf(current).groups) {
      const kept = g.tests.filter((t) => !removedNames.includes(t.name));
      expect(after.groups.find((h) => h.name === g.name)!.tests.slice(0, kept.length), g.name).toEqual(kept);
    }
    expect(after.groups.map((g) => g.name)).toEqual(manifestOf(current).groups.map((g) => g.name));
    expect(after.groups.find((g) => g.name === 'Pages')!.tests.slice(-2).map((t) => t.name)).toEqual(['Page Careers (careers) loads cleanly', 'Page Jobs (jobs) loads cleanly']);
    expect(after.groups.find((g) => g.name === 'Visual')!.tests.at(-1)!.name).toBe('Page Jobs (jobs) looks the same');
    expect(testsOf(update.files).map((t) => t.name).sort()).toEqual([...before.map((t) => t.name).filter((n) => !removedNames.includes(n)), ...addedNames].sort());
    for (const name of addedNames) expect(named(update.files, name).proposed).toMatchObject({ on: '2026-11-29' });

    // Files: the removed spec goes, the new specs come, the helper's list changes; nothing else, byte for byte.
    const changed = [...new Set([...current.keys(), ...update.files.keys()])].filter((f) => !current.get(f)?.equals(update.files.get(f) ?? Buffer.alloc(0)) || !update.files.has(f));
    expect(changed.sort()).toEqual(['specs/page-checks.ts', 'specs/pages/careers.spec.ts', 'specs/pages/jobs.spec.ts', 'specs/pages/old-pricing.spec.ts', 'suite.json']);
    expect(update.files.has('specs/pages/old-pricing.spec.ts')).toBe(false);
    expect(update.files.get('specs/health.spec.ts')).toEqual(current.get('specs/health.spec.ts'));
    expect(update.files.get('specs/pages/notes.spec.ts')).toEqual(current.get('specs/pages/notes.spec.ts'));
    expect(text(update.files, 'specs/page-checks.ts')).toBe(
      text(current, 'specs/page-checks.ts').replace('[\n  "/",\n  "/pricing",\n  "/blog",\n  "/old-pricing",\n  "/notes"\n]', '[\n  "/",\n  "/pricing",\n  "/blog",\n  "/careers",\n  "/jobs"\n]'),
    );
    expect(text(update.files, 'specs/pages/jobs.spec.ts')).toContain('test("Page Jobs (/jobs) loads cleanly", async ({ page }) => {');
    // The server imports it.
    validateSuite(update.files, validators);
  });

  it('says what the survey sees differently on a tested page, without changing its test', () => {
    const current = currentSuite();
    const update = updateSuite(current, now, { visual: true, date: '2026-11-29', gone });
    expect(named(update.files, 'Page Pricing (pricing) loads cleanly')).toEqual(named(current, 'Page Pricing (pricing) loads cleanly'));
    expect(update.notes.join('\n')).toContain('/pricing: console errors on load ("Stripe failed to load"), which "Page Pricing (pricing) loads cleanly" checks');
  });

  it('proposes nothing twice: the same survey again adds and removes nothing, and changes no file', () => {
    const first = updateSuite(currentSuite(), now, { visual: true, date: '2026-11-29', gone });
    const again = updateSuite(first.files, now, { visual: true, date: '2026-11-30', gone });
    expect(again.patch).toEqual({ added: [], removed: [], kept: testsOf(first.files).length });
    expect([...again.files.keys()].sort()).toEqual([...first.files.keys()].sort());
    for (const [f, content] of first.files) expect(again.files.get(f), f).toEqual(content);
    expect(patchSummary({ ...again.patch })).toBe(`Nothing to add or remove: keeps ${testsOf(first.files).length} tests as they are.`);
  });

  it('removes nothing the survey found loading, nor a page not said to be gone', () => {
    const current = currentSuite();
    const update = updateSuite(current, now, { visual: true, date: '2026-11-29', gone: new Map([['/pricing', 'said gone, but the survey loaded it']]) });
    expect(update.patch.removed).toEqual([]);
    expect(pagesToAskAbout(current, now).ask.sort()).toEqual(['/notes', '/old-pricing']);
  });

  it('asks about a page behind the suite’s login only when the crawl saw it answer 404 or 410', () => {
    const current = currentSuite();
    const manifest = manifestOf(current) as Manifest & { login?: unknown };
    manifest.login = { type: 'form', url: '/login', fields: [{ selector: '#email', value: 'qa@example.com' }], submit: 'button' };
    const withLogin = new Map(current).set('suite.json', Buffer.from(JSON.stringify(manifest)));
    const seen = survey([...now.pages, page('/old-pricing', { status: 404 })]);
    expect(pagesToAskAbout(withLogin, seen)).toEqual({ ask: ['/old-pricing'], notAsked: ['/notes'] });
  });

  it('adds to a hand-written suite without a helper: writes the helper, and no Lighthouse or visual test', () => {
    const files = new Map([['suite.json', Buffer.from(JSON.stringify({ version: 1, groups: [{ name: 'API', tests: [{ name: 'Home answers', kind: 'api', options: { requests: [{ name: 'home', path: '/' }] } }] }] }))]]);
    const update = updateSuite(files, now, { visual: true, date: '2026-11-29', gone: new Map() });
    expect(new Set(update.patch.added.map((a) => a.kind))).toEqual(new Set(['browser', 'accessibility']));
    expect(update.patch.kept).toBe(1);
    expect(text(update.files, 'specs/page-checks.ts')).toContain('export const PAGES_WITH_THEIR_OWN_TEST: string[] = [\n  "/",\n  "/pricing",\n  "/blog",\n  "/careers",\n  "/jobs"\n];');
    expect(update.files.has('specs/page-ready.ts')).toBe(true);
    expect(manifestOf(update.files).groups.map((g) => g.name)).toEqual(['API', 'Pages', 'Accessibility']);
    validateSuite(update.files, validators);
  });

  it('says the patch in one sentence', () => {
    expect(
      patchSummary({
        added: [
          { name: 'Page Careers (careers) loads cleanly', kind: 'browser', page: '/careers' },
          { name: 'Page Careers (careers) is accessible', kind: 'accessibility', page: '/careers' },
        ],
        removed: [{ name: 'Page Old pricing (old-pricing) loads cleanly', kind: 'browser', page: '/old-pricing', evidence: GONE }],
        kept: 14,
      }),
    ).toBe(`Adds 2 tests for /careers, removes 'Page Old pricing (old-pricing) loads cleanly' (${GONE}); keeps 14 tests as they are.`);
  });
});
