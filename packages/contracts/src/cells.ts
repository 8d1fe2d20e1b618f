// A browser test's cells (engine × device × network, docs/decisions/0078), in words: the engine's report and the
// portal say them the same way. A cell is `<engine>/<device>[/<network>]`, read part by part. A cloud cell (a real
// browser on the client's device cloud, decision 0100) is `cloud/<browser>@<device>[ (<os>)]`: its "engine" part is
// `cloud`, its second part the browser on the device.

/** The product names of the engines and the networks; a device reads as it is named ("phone"). */
const PART_TITLES: readonly Readonly<Record<string, string>>[] = [
  { chromium: 'Chromium', firefox: 'Firefox', webkit: 'WebKit', cloud: 'Cloud' },
  {},
  { none: 'unshaped', offline: 'offline', 'slow-3g': 'slow 3G', 'fast-3g': 'fast 3G', '4g': '4G', cable: 'cable' },
];

type CellStatus = 'passed' | 'failed' | 'skipped';

const partsOf = (cell: string) => cell.split('/');
const partTitle = (part: string, index: number) => (index === 1 && part.includes('@') ? cloudPartTitle(part) : (PART_TITLES[index]?.[part] ?? part));

/** A cell for a column head: "Firefox · phone", "Chromium · desktop · slow 3G". */
export function cellLabel(cell: string, separator = ' · '): string {
  return partsOf(cell).map(partTitle).join(separator);
}

/**
 * Where something fails, given its status in each cell: when the failing cells are exactly one engine's (or one
 * device's, one network's) of those that ran, "fails on Firefox only"; one cell, "fails on Firefox on phone only";
 * else the failing cells listed. Null when nothing fails, or every cell that ran does.
 */
export function failingWhere(statuses: Readonly<Record<string, CellStatus>>): string | null {
  const ran = Object.keys(statuses).filter((c) => statuses[c] !== 'skipped');
  const failed = ran.filter((c) => statuses[c] === 'failed');
  if (failed.length === 0 || failed.length === ran.length) return null;
  const depth = Math.max(...ran.map((c) => partsOf(c).length));
  for (let i = 0; i < depth; i++) {
    const part = (c: string) => partsOf(c)[i] ?? '';
    const values = new Set(failed.map(part));
    if (values.size !== 1 || new Set(ran.map(part)).size < 2) continue;
    const [value] = [...values] as [string];
    // Each cloud cell is a browser of its own: one of them is named, never "the cloud cells" (the others may not have run it).
    if (i === 0 && value === CLOUD_ENGINE && failed.length === 1) continue;
    if (ran.filter((c) => part(c) === value).length === failed.length) return `fails on ${i === 0 && value === CLOUD_ENGINE ? 'the cloud cells' : partTitle(value, i)} only`;
  }
  if (failed.length === 1) return `fails on ${cellLabel(failed[0]!, ' on ')} only`;
  return `fails on ${failed.map((c) => cellLabel(c)).join(', ')}`;
}

/** A case's name in one cell, as the runner names it (JUnit, history, evidence): "shop.spec.ts › buys [firefox/phone]". */
export function caseInCell(name: string, cell: string | undefined): string {
  return cell ? `${name} [${cell}]` : name;
}

/** A case's name without the ` [cell]` caseInCell added. */
export function caseWithoutCell(name: string, cell: string | undefined): string {
  const suffix = caseInCell('', cell);
  return suffix && name.endsWith(suffix) ? name.slice(0, -suffix.length) : name;
}

/** What each engine runs of a browser test (decision 0079): Playwright drives Chromium and Firefox; WebKit has no Playwright. */
const ENGINE_RUNS: Readonly<Record<string, { specs: boolean; why?: string }>> = {
  chromium: { specs: true },
  firefox: { specs: true },
  webkit: { specs: false, why: 'Playwright cannot drive WebKitGTK, so no spec files' },
  cloud: { specs: false, why: 'Playwright spec files run on BrowserStack’s desktop browsers only' },
};

/** What a page check checks, in words (the suite's validation and the report say it). */
export const PAGE_CHECK_WORDS = 'page loads, console errors after load, broken links, key elements, a screenshot, axe';

/**
 * A page check's steps as the runner titles them (by their start), with their words, in PAGE_CHECK_WORDS' order.
 * A test may turn some off (`pageChecks`), so the report names the checks its cases' steps show.
 */
const PAGE_CHECK_STEPS: readonly (readonly [prefix: string, words: string])[] = [
  ['load ', 'page loads'],
  ['no console errors after load', 'console errors after load'],
  ['links and images', 'broken links'],
  ['key elements', 'key elements'],
  ['', 'a screenshot'],
  ['axe', 'axe'],
];

/** The words of the checks a test's page checks ran, from its cases' steps; PAGE_CHECK_WORDS when no step says. */
function pageCheckWordsOf(cases: readonly { name: string; steps?: readonly { title: string }[] | undefined }[]): string {
  const titles = cases.filter((c) => isPageCheckCase(c.name)).flatMap((c) => (c.steps ?? []).map((s) => s.title));
  if (titles.length === 0) return PAGE_CHECK_WORDS;
  return PAGE_CHECK_STEPS.filter(([prefix]) => prefix === '' || titles.some((t) => t.startsWith(prefix)))
    .map(([, words]) => words)
    .join(', ');
}

/** A page check's case, as the runner names it before its cell: "page check › /pricing". */
export function pageCheckCase(pagePath: string): string {
  return `page check › ${pagePath}`;
}
export const isPageCheckCase = (name: string): boolean => name.startsWith('page check › ');

/** Whether an engine runs a browser test's spec files (WebKit does not: its cells run the page checks only). */
export const engineRunsSpecs = (engine: string): boolean => ENGINE_RUNS[engine]?.specs ?? true;

/**
 * What each engine among a test's cases ran, a line per engine in the order of its cells: "Chromium: spec files
 * and page checks", "WebKit: page checks only (page loads, …): Playwright cannot drive WebKitGTK, so no spec files".
 * Empty for a test whose cases have no cell.
 */
export function engineChecks(cases: readonly { name: string; cell?: string | undefined; steps?: readonly { title: string }[] | undefined }[]): string[] {
  const words = pageCheckWordsOf(cases);
  const ran = new Map<string, { specs: boolean; pages: boolean }>();
  for (const c of cases) {
    if (!c.cell) continue;
    const engine = partsOf(c.cell)[0] ?? '';
    const seen = ran.get(engine) ?? { specs: false, pages: false };
    if (isPageCheckCase(c.name)) seen.pages = true;
    else seen.specs = true;
    ran.set(engine, seen);
  }
  return [...ran].map(([engine, seen]) => {
    const title = partTitle(engine, 0);
    const why = ENGINE_RUNS[engine]?.why;
    if (seen.specs && seen.pages) return `${title}: spec files and page checks`;
    if (seen.specs) return `${title}: spec files`;
    return `${title}: page checks only (${words})${why ? `: ${why}` : ''}`;
  });
}

// Cloud cells (issue 44, decision 0100): a real browser on a device of the client's device cloud (BrowserStack, Sauce
// Labs, AWS Device Farm), named in a browser test's `devices` beside desktop, phone and tablet.

/** A cloud cell's "engine" part: its cells run the page checks over the provider's WebDriver hub. */
export const CLOUD_ENGINE = 'cloud';
/** The browsers a cloud cell may name, as the suite names them. */
export const CLOUD_BROWSERS = ['chrome', 'safari', 'edge', 'firefox'] as const;
export type CloudBrowser = (typeof CLOUD_BROWSERS)[number];
const BROWSER_TITLES: Readonly<Record<CloudBrowser, string>> = { chrome: 'Chrome', safari: 'Safari', edge: 'Edge', firefox: 'Firefox' };
export const cloudBrowserTitle = (browser: string): string => BROWSER_TITLES[browser as CloudBrowser] ?? browser;

/** A device of the client's cloud in a browser test's `devices`: `{ cloud: 'iPhone 15', os: 'iOS 18', browser: 'safari' }`. */
export interface CloudDevice {
  cloud: string;
  os?: string | undefined;
  browser: CloudBrowser;
}

/**
 * A cloud device's name and OS: letters, digits, spaces and `. _ + -`, at most 60 characters. Nothing that would
 * break a cell's name (`/`, `@`, brackets) or a file name.
 */
export const CLOUD_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._+-]{0,59}$/;

/** A cloud cell's name: `cloud/safari@iPhone 15 (iOS 18)`, `cloud/edge@Windows 11`. */
export function cloudCellName(d: CloudDevice): string {
  return `${CLOUD_ENGINE}/${d.browser}@${d.cloud}${d.os ? ` (${d.os})` : ''}`;
}
export const isCloudCell = (cell: string): boolean => partsOf(cell)[0] === CLOUD_ENGINE;

/** "Safari on iPhone 15 (iOS 18)" for the part `safari@iPhone 15 (iOS 18)`. */
function cloudPartTitle(part: string): string {
  const at = part.indexOf('@');
  return `${cloudBrowserTitle(part.slice(0, at))} on ${part.slice(at + 1)}`;
}

/**
 * Whether a cloud device is a desktop (a virtual machine with a desktop browser) rather than a real phone or tablet:
 * its name starts with Windows, macOS or OS X ("Windows 11", "macOS Sonoma").
 */
export const isDesktopCloud = (name: string): boolean => /^(windows|macos|os x)\b/i.test(name.trim());

/** What a cloud cell's table column says of its network: its traffic is the provider's, not our proxy's. */
export const CLOUD_NETWORK_WORDS = 'network: the provider’s';

/**
 * Where a browser run notes its cloud sessions (relative to the attempt's folder): `[{ index, sessionId, ended }]`.
 * The server ends, from it, a session a killed runner left open (a cloud session bills until it ends).
 */
export const CLOUD_SESSIONS_NOTE = 'browser/cloud-sessions.json';
