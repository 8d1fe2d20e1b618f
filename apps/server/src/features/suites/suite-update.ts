import type { SuiteFiles } from '@fullstop/engine';
import { pagesToTest, type SiteSurvey, type SurveyedPage, topPages } from '@fullstop/engine/survey';
import type { SuiteProposalPatch } from '@fullstop/contracts';
import { pageNames } from './page-names.ts';
import { filesOf, isProposalsOwn, type TestJson, markProposed, proposedPage } from './proposed-marker.ts';
import {
  accessibilityTestOf,
  ascii,
  checksOff,
  helperFiles,
  jsonLiteral,
  knownViolations,
  lighthouseTestOf,
  lookNotes,
  offNotes,
  PAGE_CHECKS_FILE,
  parseSurvey,
  type ProposedTest,
  smokeTestOf,
  specPathOf,
  type StarterSuite,
  type SuiteTestJson,
  visualTestOf,
} from './suite-proposal.ts';

/**
 * A re-crawl's proposal for a client that has a current suite (decision 0102): the current suite's files and manifest,
 * plus tests for the pages it does not test yet, minus the proposal's own tests of pages that are gone. A pure
 * function of the current files, the survey and which pages answered 404 or 410 twice (proposal-service.ts asks).
 *
 * - **Added**: a page the survey tested that no test of the suite names (a marked test's page, or a hand-written
 *   accessibility, Lighthouse or visual test's `pages`) gets its smoke spec and its accessibility test, as a first
 *   proposal writes them; and its Lighthouse and visual tests when it is one of the survey's top pages and the
 *   suite keeps that kind of proposed page test (a marked one; an operator who removed them all wants none).
 * - **Removed**: a marked test of a page that is gone, while it is the proposal's own (unedited: proposed-marker.ts),
 *   with its spec when no test left names it. A test edited since is kept, and the notes say so.
 * - **Kept as they are**: everything else, hand-written or proposed; a page the survey now sees differently (a new
 *   console error, a new serious axe violation) is said in the notes, its tests unchanged.
 * - Files: the new specs, and the smoke helper's `PAGES_WITH_THEIR_OWN_TEST` gains the new pages and loses the gone
 *   ones (only that line, when it is as the generator wrote it). suite.json is written again (2-space JSON) only when
 *   a test is added or removed. README.md stays as it was.
 */

export interface SuiteUpdate extends StarterSuite {
  patch: Omit<SuiteProposalPatch, 'base'>;
}

interface ManifestJson {
  groups: { name: string; tests: TestJson[] }[];
  login?: unknown;
  [key: string]: unknown;
}

/** The kinds of test that test the pages their `pages` option names, one each (a suite-wide scan names many). */
const PAGE_KINDS = new Set(['accessibility', 'lighthouse', 'visual']);
/** Where a new test of each kind goes when the suite has no proposed test of that kind: the first proposal's groups. */
const DEFAULT_GROUPS: Record<string, string> = { browser: 'Pages', accessibility: 'Accessibility', lighthouse: 'Performance', visual: 'Visual' };
/** The generator's names of a page's tests: "Page <page's name> loads cleanly" and so on. */
const PAGE_TEST_NAME = /^Page (.+) (?:loads cleanly|is accessible|Lighthouse|looks the same)$/i;
/** The smoke helper's list of pages with a test of their own, as the generator writes it. */
const COVERED_LIST = /(export const PAGES_WITH_THEIR_OWN_TEST: string\[\] = )(\[[\s\S]*?\]);\n/;

const manifestOf = (files: SuiteFiles): ManifestJson => {
  const raw = files.get('suite.json');
  if (!raw) throw new Error('the current suite has no suite.json');
  return JSON.parse(raw.toString('utf8')) as ManifestJson;
};

const pagesOption = (t: TestJson): string[] => {
  const pages = t.options?.pages;
  return Array.isArray(pages) ? pages.filter((p): p is string => typeof p === 'string') : [];
};

/** The pages the current suite tests: those its marked tests were proposed for, and those its own page tests name. */
export function pagesTestedBy(files: SuiteFiles): Set<string> {
  const tested = new Set<string>();
  for (const g of manifestOf(files).groups) {
    for (const t of g.tests) {
      const page = proposedPage(t);
      if (page) tested.add(page);
      else if (PAGE_KINDS.has(t.kind)) for (const p of pagesOption(t)) tested.add(p);
    }
  }
  return tested;
}

/**
 * The pages to ask about before writing the patch: those the current suite's marked tests were proposed for that the
 * survey did not find loading (not reached, or left out): each may be gone. A suite that logs in is another matter: a
 * page behind its login answers a visitor logged out as it likes (a 404, often), so only a page the crawl itself
 * reached and saw answer 404 or 410 is asked about; the others are `notAsked`, and kept.
 */
export function pagesToAskAbout(files: SuiteFiles, survey: SiteSurvey): { ask: string[]; notAsked: string[] } {
  const found = new Set(pagesToTest(survey).pages.map((p) => p.path));
  const manifest = manifestOf(files);
  const marked = new Set<string>();
  for (const g of manifest.groups) {
    for (const t of g.tests) {
      const page = proposedPage(t);
      if (page && !found.has(page)) marked.add(page);
    }
  }
  if (!manifest.login) return { ask: [...marked], notAsked: [] };
  const seenGone = new Set(survey.pages.filter((p) => p.status === 404 || p.status === 410).map((p) => p.path));
  return { ask: [...marked].filter((p) => seenGone.has(p)), notAsked: [...marked].filter((p) => !seenGone.has(p)) };
}

/**
 * The current suite patched with what the survey found (see above). `gone`: the pages that answered 404 or 410 twice,
 * each with what it answered and when ("/old-pricing answered 404 twice, at 12:01:03 and 12:01:08").
 */
export function updateSuite(current: SuiteFiles, given: SiteSurvey, options: { visual: boolean; date: string; gone: ReadonlyMap<string, string> }): SuiteUpdate {
  const survey = parseSurvey(given);
  const { pages, leftOut } = pagesToTest(survey);
  const manifest = manifestOf(current);
  const files: SuiteFiles = new Map(current);
  const found = new Set(pages.map((p) => p.path));
  const notes: string[] = [];
  const all = manifest.groups.flatMap((g) => g.tests);
  const own = new Set(all.filter((t) => isProposalsOwn(t, current)));

  // Removed: the proposal's own tests of a page that is gone (never one the survey found loading).
  const removed: SuiteUpdate['patch']['removed'] = [];
  const editedOfGone: { name: string; page: string }[] = [];
  for (const g of manifest.groups) {
    g.tests = g.tests.filter((t) => {
      const page = proposedPage(t);
      const evidence = page !== null && !found.has(page) ? options.gone.get(page) : undefined;
      if (evidence === undefined) return true;
      if (!own.has(t)) {
        editedOfGone.push({ name: t.name, page: page! });
        return true;
      }
      removed.push({ name: t.name, kind: t.kind, page: page!, evidence });
      return false;
    });
  }
  manifest.groups = manifest.groups.filter((g) => g.tests.length > 0);
  const stillNamed = new Set(manifest.groups.flatMap((g) => g.tests.flatMap(filesOf)));
  for (const t of all) if (!manifest.groups.some((g) => g.tests.includes(t))) for (const f of filesOf(t)) if (!stillNamed.has(f)) files.delete(f);
  const gonePages = [...new Set(removed.map((r) => r.page))];

  // Added: the pages found that the suite does not test yet.
  const tested = pagesTestedBy(current);
  const fresh = pages.filter((p) => !tested.has(p.path));
  const top = new Set(topPages(pages));
  const proposedKinds = new Set(all.filter((t) => proposedPage(t) !== null).map((t) => t.kind));
  const takenNames = new Set(all.flatMap((t) => [t.name.toLowerCase(), ...(PAGE_TEST_NAME.exec(t.name)?.slice(1, 2).map((n) => n.toLowerCase()) ?? [])]));
  const { names: labelOf, titles } = pageNames(pages, { only: fresh, taken: takenNames });
  const slugs = new Set([...current.keys()].flatMap((f) => /^specs\/pages\/(.+)\.spec\.ts$/.exec(f)?.slice(1, 2) ?? []));
  const addedTests: { test: SuiteTestJson; page: SurveyedPage }[] = [];
  const turnedOff: { path: string; off: ReturnType<typeof checksOff> }[] = [];
  const looked: SurveyedPage[] = [];
  for (const p of fresh) {
    const label = labelOf.get(p)!;
    const spec = specPathOf(p.path, slugs);
    const smoke = smokeTestOf(p, label, titles.get(p)!, spec, options.date);
    files.set(spec, smoke.file);
    if (smoke.off.length) turnedOff.push({ path: p.path, off: smoke.off });
    addedTests.push({ test: smoke.test, page: p }, { test: accessibilityTestOf(p, label, options.date), page: p });
    if (top.has(p) && proposedKinds.has('lighthouse')) addedTests.push({ test: lighthouseTestOf(p, label), page: p });
    if (top.has(p) && proposedKinds.has('visual') && options.visual) {
      looked.push(p);
      const visual = visualTestOf(p, label);
      if (visual) addedTests.push({ test: visual, page: p });
    }
  }

  // The smoke helper: written when the suite has none and a spec needs it; else its list of pages gains and loses.
  const newPaths = fresh.map((p) => p.path);
  const helper = files.get(PAGE_CHECKS_FILE);
  if (!helper && fresh.length > 0) {
    for (const [file, content] of helperFiles(newPaths)) if (!files.has(file)) files.set(file, content);
  } else if (helper && (fresh.length > 0 || gonePages.length > 0)) {
    const patched = patchCoveredList(helper.toString('utf8'), newPaths, gonePages);
    if (patched === null) notes.push(`${PAGE_CHECKS_FILE} was edited: its list of pages with a test of their own (PAGES_WITH_THEIR_OWN_TEST) is not updated, so the new pages' links are checked by the pages that link to them too.`);
    else files.set(PAGE_CHECKS_FILE, Buffer.from(patched));
  }

  // Each added test in the group that holds the suite's proposed tests of its kind, else the first proposal's.
  const added: SuiteUpdate['patch']['added'] = [];
  for (const { test, page } of addedTests) {
    const marked = markProposed(test, files, page.path, options.date);
    const groupName = manifest.groups.find((g) => g.tests.some((t) => t.kind === test.kind && proposedPage(t) !== null))?.name ?? DEFAULT_GROUPS[test.kind]!;
    let group = manifest.groups.find((g) => g.name === groupName);
    if (!group) {
      group = { name: groupName, tests: [] };
      manifest.groups.push(group);
    }
    group.tests.push(marked);
    added.push({ name: test.name, kind: test.kind, page: page.path });
  }
  if (added.length > 0 || removed.length > 0) files.set('suite.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));

  notes.push(...offNotes(turnedOff), ...lookNotes(looked));
  if (editedOfGone.length) {
    notes.push(`Kept, as they were edited since they were proposed, though their page is gone: ${editedOfGone.slice(0, 5).map((t) => `"${t.name}" (${ascii(t.page, 60)})`).join(', ')}${editedOfGone.length > 5 ? ` and ${editedOfGone.length - 5} more` : ''}. Remove them by hand if they are no longer wanted.`);
  }
  const listing = manifest.groups.flatMap((g) => g.tests.filter((t) => !PAGE_KINDS.has(t.kind) && t.kind !== 'browser' && pagesOption(t).some((p) => gonePages.includes(p))).map((t) => t.name));
  if (listing.length) notes.push(`Still naming a page that is gone (suite-wide tests are kept as they are): ${listing.join(', ')}. Edit their pages if you like.`);
  notes.push(...seenDifferently(current, manifest, pages));

  const kept = manifest.groups.reduce((n, g) => n + g.tests.length, 0) - added.length;
  const tests: ProposedTest[] = manifest.groups.flatMap((g) => g.tests.map((t) => ({ name: t.name, kind: t.kind, group: g.name })));
  return { files, tests, leftOut, notes, patch: { added, removed, kept } };
}

/** The helper's list of pages with a test of their own, `add`ed to and `remove`d from; null when it is not as written. */
export function patchCoveredList(text: string, add: readonly string[], remove: readonly string[]): string | null {
  const m = COVERED_LIST.exec(text);
  if (!m) return null;
  let list: unknown;
  try {
    list = JSON.parse(m[2]!);
  } catch {
    return null;
  }
  if (!Array.isArray(list) || !list.every((p) => typeof p === 'string')) return null;
  const next = [...list.filter((p) => !remove.includes(p)), ...add.filter((p) => !list.includes(p))];
  return text.replace(COVERED_LIST, () => `${m[1]}${jsonLiteral(next)};\n`);
}

/**
 * What the survey sees now on a page whose proposed tests were written from another look: problems its smoke spec
 * does not turn off, or turns off and no longer sees, and serious axe violations its accessibility test does not
 * leave out. Said, never changed (the tests are kept as they are).
 */
function seenDifferently(current: SuiteFiles, manifest: ManifestJson, pages: readonly SurveyedPage[]): string[] {
  const byPage = new Map(pages.map((p) => [p.path, p]));
  const seen: string[] = [];
  for (const t of manifest.groups.flatMap((g) => g.tests)) {
    const page = proposedPage(t);
    const p = page === null ? undefined : byPage.get(page);
    if (!p) continue;
    if (t.kind === 'browser') {
      const spec = filesOf(t).map((f) => current.get(f)?.toString('utf8') ?? '').join('\n');
      const offNow = new Set(checksOff(p, '').map((o) => o.check));
      for (const check of ['consoleErrors', 'mainLandmark', 'brokenLinks'] as const) {
        const offInSpec = new RegExp(`\\b${check}\\s*:`).test(spec);
        if (offNow.has(check) && !offInSpec) seen.push(`${ascii(p.path, 60)}: ${CHECK_SEEN[check](p)}, which "${t.name}" checks`);
        else if (!offNow.has(check) && offInSpec) seen.push(`${ascii(p.path, 60)}: no ${CHECK_WORDS_NOW[check]} any more; "${t.name}" still turns that check off (delete the line in its spec)`);
      }
    } else if (t.kind === 'accessibility') {
      const disabled = Array.isArray(t.options?.disableRules) ? (t.options.disableRules as unknown[]) : [];
      const fresh = knownViolations(p).filter((id) => !disabled.includes(id));
      if (fresh.length) seen.push(`${ascii(p.path, 60)}: serious axe violations ${fresh.map((id) => ascii(id, 40)).join(', ')}, which "${t.name}" fails on`);
    }
  }
  if (seen.length === 0) return [];
  return [`The survey sees ${seen.length === 1 ? 'a page' : 'pages'} differently from when their tests were proposed; the tests are kept as they are: ${seen.slice(0, 8).join('; ')}${seen.length > 8 ? `; and ${seen.length - 8} more` : ''}.`];
}

const CHECK_SEEN = {
  consoleErrors: (p: SurveyedPage) => `console errors on load ("${ascii(p.consoleErrors[0] ?? '', 80)}")`,
  mainLandmark: () => 'no visible main landmark',
  brokenLinks: (p: SurveyedPage) => `broken links or images (${ascii(p.broken[0] ?? '', 80)})`,
};
const CHECK_WORDS_NOW = { consoleErrors: 'console errors', mainLandmark: 'missing main landmark', brokenLinks: 'broken links or images' };
