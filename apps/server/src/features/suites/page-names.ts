import type { SurveyedPage } from '@fullstop/engine/survey';

/**
 * How a starter suite names a page in its tests: its title (or first heading) as the survey measured it, with the
 * path beside it, "Pricing (pricing)". Test names travel in URLs and file names, so they keep to letters, digits,
 * spaces and `. _ - ( )` (TEST_NAME_PATTERN, at most 100 characters): the path is written in that alphabet too, `/`
 * as "home", `/blog/post-1` as "blog - post-1". A page's Playwright test (a string literal, not a suite name) says
 * its exact path: "Page Pricing (/pricing) loads cleanly".
 */

/** The most a page's part of a test name holds: "Page " + it + " (100)" + " looks the same" stays within 100. */
const PAGE_NAME_CHARS = 74;
/** A title's share of it (cut at a word); the path's label has the rest. */
const TITLE_CHARS = 32;
/** A path's label alone (a page without a usable title). */
const LABEL_CHARS = 60;

/** What separates a page's own title from the site's name: "Pricing | Starter site", "Pricing - Shop". */
const SEPARATOR = / (?:\||-|–|—|·|•|::|»|\/|:) /g;

/** `text` in the names' alphabet: accents dropped, other characters spaces, spaces collapsed; may be empty. */
function nameText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/['’]/g, '')
    .replace(/[^A-Za-z0-9._ -]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[^A-Za-z0-9]+/, '');
}

/**
 * A page as test names say its path (letters, digits, spaces and . _ - ( ) only): `/` is "home", `/blog/post-1`
 * "blog - post-1"; the test's description carries the exact path.
 */
export function pageLabel(path: string, max = LABEL_CHARS): string {
  const label = path
    .replace(/^\/+|\/+$/g, '')
    .split('/')
    .map((s) => s.replace(/[^A-Za-z0-9._() -]+/g, ' ').trim())
    .filter(Boolean)
    .join(' - ')
    .slice(0, max)
    .trim();
  return label || 'home';
}

/** `text` cut to `max` characters at a word's end where there is one. */
function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1);
  const space = cut.lastIndexOf(' ');
  return (space > max / 2 ? cut.slice(0, space) : cut.slice(0, max)).replace(/[\s.-]+$/, '');
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The site's name as the end of every title, with its separator (" | Starter site"), when all pages' titles end
 * with it (a page titled with the site's name alone, often the home page, counts as sharing it); '' when they do not.
 */
export function commonTitleSuffix(titles: string[]): string {
  const all = titles.map(oneLine).filter(Boolean);
  if (all.length < 2) return '';
  const candidates = new Set<string>();
  for (const title of all) for (const m of title.matchAll(SEPARATOR)) if (m.index > 0) candidates.add(title.slice(m.index));
  let best = '';
  for (const suffix of candidates) {
    const site = suffix.replace(new RegExp(`^${SEPARATOR.source}`), '');
    const ending = all.filter((t) => t.endsWith(suffix) && t.length > suffix.length).length;
    if (ending >= 1 && all.every((t) => (t.endsWith(suffix) && t.length > suffix.length) || t === site) && suffix.length > best.length) best = suffix;
  }
  return best;
}

/**
 * Each page's readable title for test names (in the names' alphabet, at most TITLE_CHARS), or '' when it has none:
 * its title without the site's common suffix, unless another page has the same one (an app that titles every page
 * alike), then its first heading; either, shared or not, before nothing.
 */
export function readableTitles(pages: SurveyedPage[]): Map<SurveyedPage, string> {
  const suffix = commonTitleSuffix(pages.map((p) => p.title));
  const own = (p: SurveyedPage) => {
    const title = oneLine(p.title);
    return nameText(suffix && title.endsWith(suffix) ? title.slice(0, -suffix.length) : title);
  };
  const titles = pages.map(own);
  const headings = pages.map((p) => nameText(oneLine(p.heading)));
  const count = (list: string[]) => (text: string) => list.filter((t) => t.toLowerCase() === text.toLowerCase()).length;
  const titleCount = count(titles);
  const headingCount = count(headings);
  return new Map(
    pages.map((p, i) => {
      const title = titles[i]!;
      const heading = headings[i]!;
      const chosen = [title && titleCount(title) === 1 ? title : '', heading && headingCount(heading) === 1 ? heading : '', title, heading].find(Boolean) ?? '';
      return [p, cutAtWord(chosen, TITLE_CHARS)];
    }),
  );
}

/** A page's part of its tests' names: "Pricing (pricing)", or its path's label alone when it has no readable title. */
function pageName(title: string, path: string): string {
  if (!title) return pageLabel(path);
  return `${title} (${pageLabel(path, PAGE_NAME_CHARS - title.length - 3)})`;
}

/**
 * Each page's part of its tests' names, unique (case aside): a second "Blog (blog)" is "Blog (blog) (2)". `only`: name
 * these of the pages (a re-crawl names the new pages, its titles read from all of them, the site's name found
 * across them); `taken`: names already used (the current suite's), lower case.
 */
export function pageNames(
  pages: SurveyedPage[],
  options: { only?: readonly SurveyedPage[]; taken?: ReadonlySet<string> } = {},
): { names: Map<SurveyedPage, string>; titles: Map<SurveyedPage, string> } {
  const titles = readableTitles(pages);
  const taken = new Set<string>(options.taken);
  const names = new Map<SurveyedPage, string>();
  for (const p of options.only ?? pages) {
    const base = pageName(titles.get(p)!, p.path);
    let name = base;
    for (let i = 2; taken.has(name.toLowerCase()); i++) name = `${base} (${i})`;
    taken.add(name.toLowerCase());
    names.set(p, name);
  }
  return { names, titles };
}
