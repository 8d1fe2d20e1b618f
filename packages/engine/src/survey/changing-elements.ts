/**
 * What a visual test of a page must mask, found by looking at the page twice (issue 38): a relative date ("Published
 * 3 minutes ago"), a counter, a carousel or an avatar differs from one visit to the next, and would fail "looks the
 * same" on an unchanged site. For each device of the starter suite's visual tests, the page is loaded twice, each
 * time in a fresh context (as two runs load it), waited for until ready, stilled and captured as the visual kind
 * captures it (runners/visual/shooter.ts) until two captures in a row are alike; then the two visits are compared.
 *
 * Each area that changed (within a visit or between the two) is given to the element that holds it
 * (mask-selectors.ts), and the visits are captured again with those masks, until they are alike (at most
 * MAX_ROUNDS): a mask whose box changed size (a date that got longer) leaves its neighbours moved, which the next
 * round masks too. A page whose height changed between the visits is compared by its screen only (`fullPage` off).
 * A page with an area no element smaller than a third of it holds, or more than SURVEY_LIMITS.masks elements that
 * change, is unstable: the proposal writes no visual test of it, and says why.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { VisualRegion } from '@fullstop/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { prepareReady, waitForReady } from '../lib/page-ready.ts';
import { errorMessage } from '../lib/result.ts';
import { deviceUse } from '../runners/browser/devices.ts';
import type { Device } from '../runners/browser/matrix.ts';
import { compareImages } from '../runners/visual/compare.ts';
import { DEFAULT_COLOR_THRESHOLD, DEFAULT_MAX_CAPTURES, PAGE_LOAD_TIMEOUT_MS } from '../runners/visual/options.ts';
import { SETTLE_PAUSE_MS } from '../runners/visual/settle.ts';
import { STILL_CONTEXT, stillPage, type StillPage } from '../runners/visual/shooter.ts';
import { ELEMENTS_SCRIPT, ELEMENTS_SCRIPT_ARGS, maskFor, type MaskChoice, parseElements, Snapshot, withoutNested } from './mask-selectors.ts';
import { type MASK_REASONS, SURVEY_LIMITS, type SurveyedLook } from './survey-types.ts';

/** Captures of both visits with the masks found so far, compared, at most this many times. */
export const MAX_ROUNDS = 4;
/** Times a device's two visits are made when they fail (a page closed under them), before the page goes without its look. */
export const LOOK_ATTEMPTS = 2;
/** Reading a page's elements (its own world: a hostile page may hang it). */
const ELEMENTS_TIMEOUT_MS = 5_000;

type Why = (typeof MASK_REASONS)[number];
type Log = (message: string, data?: Record<string, unknown>) => void;

interface Visit {
  page: Page;
  context: BrowserContext;
  still: StillPage;
}

const where = (r: VisualRegion) => `${r.width} × ${r.height} px at ${r.x}, ${r.y}`;

async function visit(browser: Browser, url: string, device: Device, fullPage: boolean, signal: AbortSignal): Promise<Visit> {
  const context = await browser.newContext({ ...deviceUse(device, 'chromium'), ...STILL_CONTEXT, acceptDownloads: false, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    await prepareReady(page);
    await page.goto(url, { waitUntil: 'load', timeout: PAGE_LOAD_TIMEOUT_MS });
    await waitForReady(page, { signal });
    return { page, context, still: await stillPage(page, fullPage) };
  } catch (error) {
    await context.close().catch(() => undefined);
    throw error;
  }
}

/** Captures of a visit, SETTLE_PAUSE_MS apart, until two in a row are alike (the visual kind's): the last, and where the others changed. */
async function holdStill(v: Visit, signal: AbortSignal): Promise<{ png: Buffer; changed: VisualRegion[] }> {
  const changed: VisualRegion[] = [];
  let last = await v.still.capture([]);
  for (let i = 1; i < DEFAULT_MAX_CAPTURES; i++) {
    await sleep(SETTLE_PAUSE_MS, undefined, { signal });
    const next = await v.still.capture([]);
    const areas = compareImages(last, next, DEFAULT_COLOR_THRESHOLD).changedAreas();
    last = next;
    if (areas.length === 0) break;
    changed.push(...areas);
  }
  return { png: last, changed };
}

async function elementsOf(page: Page): Promise<Snapshot | null> {
  let timer: NodeJS.Timeout | undefined;
  const answer = await Promise.race([
    page.evaluate(`(${ELEMENTS_SCRIPT})(${JSON.stringify(ELEMENTS_SCRIPT_ARGS)})`).catch(() => null),
    new Promise((resolve) => {
      timer = setTimeout(() => resolve(null), ELEMENTS_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  const elements = parseElements(answer);
  return elements ? new Snapshot(elements) : null;
}

interface LookState {
  /** The masks found so far, on every device, and why each. */
  masks: Map<string, { why: Why; choice: MaskChoice }>;
  fullPage: boolean;
}

/** One device: the masks it needs added to `state` (and `fullPage` off once its height changed); why it is unstable, or null. */
async function lookOnDevice(browser: Browser, url: string, device: Device, state: LookState, signal: AbortSignal): Promise<string | null> {
  const visits: Visit[] = [];
  try {
    visits.push(await visit(browser, url, device, state.fullPage, signal));
    visits.push(await visit(browser, url, device, state.fullPage, signal));
    const [a, b] = visits as [Visit, Visit];
    const held = [await holdStill(a, signal), await holdStill(b, signal)] as const;
    // What changed while one visit held still is masked too, as the visual kind would never see it settle.
    const within = [...held[0].changed.map((region) => ({ region, only: 'a' as const })), ...held[1].changed.map((region) => ({ region, only: 'b' as const }))];
    const capture = async (): Promise<[Buffer, Buffer]> => {
      const masks = [...state.masks.keys()];
      return [await a.still.capture(masks.map((s) => a.page.locator(s))), await b.still.capture(masks.map((s) => b.page.locator(s)))];
    };
    // The held captures have no mask: another device's masks are painted in fresh ones.
    let shots: [Buffer, Buffer] = state.masks.size === 0 ? [held[0].png, held[1].png] : await capture();
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (round > 0) shots = await capture();
      let cmp = compareImages(shots[0], shots[1], DEFAULT_COLOR_THRESHOLD);
      if (cmp.sizeChanged && state.fullPage) {
        // Its height changed between two visits: its visual test compares the screen only, and so does this.
        state.fullPage = false;
        a.still = await stillPage(a.page, false);
        b.still = await stillPage(b.page, false);
        shots = await capture();
        cmp = compareImages(shots[0], shots[1], DEFAULT_COLOR_THRESHOLD);
      }
      const areas = [...cmp.changedAreas().map((region) => ({ region, only: null })), ...(round === 0 ? within : [])];
      if (areas.length === 0) {
        await keepOutermost(state, a.page);
        return null;
      }
      const [snapA, snapB] = [await elementsOf(a.page), await elementsOf(b.page)];
      if (!snapA || !snapB) return `it changed between two visits (${where(areas[0]!.region)}), and its elements could not be read to mask it`;
      let added = 0;
      for (const { region, only } of areas) {
        const choice = only === null ? maskFor(region, snapA, snapB) : maskFor(region, only === 'a' ? snapA : snapB, null);
        const why: Why = only === null ? 'between visits' : 'while shown';
        if (!choice) return `it changed ${only === null ? 'between two visits' : 'while it was shown'} in ${where(region)}, where no element smaller than a third of the page holds the change`;
        if (state.masks.has(choice.selector)) continue;
        state.masks.set(choice.selector, { why, choice });
        added++;
      }
      if (state.masks.size > SURVEY_LIMITS.masks) return `more than ${SURVEY_LIMITS.masks} of its elements changed between two visits`;
      if (added === 0) return `it still changed between two visits with ${state.masks.size} element(s) masked, in ${where(areas[0]!.region)}`;
    }
    return `it still changed between two visits after ${MAX_ROUNDS} rounds of masks`;
  } finally {
    for (const v of visits) await v.context.close().catch(() => undefined);
  }
}

/** Drops the masks that lie inside another's boxes (mask-selectors.ts `withoutNested`), as the page shows them now. */
async function keepOutermost(state: LookState, page: Page): Promise<void> {
  if (state.masks.size < 2) return;
  const snap = await elementsOf(page);
  if (!snap) return;
  const kept = new Set(withoutNested([...state.masks.values()].map((m) => m.choice), snap).map((c) => c.selector));
  for (const selector of [...state.masks.keys()]) if (!kept.has(selector)) state.masks.delete(selector);
}

/**
 * Looks at a page twice on each device (a fresh context a visit) and answers what its visual test must mask, whether
 * it keeps its height, or why it cannot be held still. Null when it could not be loaded (the survey's log says why):
 * its visual test is then proposed without masks.
 */
export async function lookTwice(browser: Browser, url: string, options: { devices: readonly Device[]; signal: AbortSignal; log: Log }): Promise<SurveyedLook | null> {
  const state: LookState = { masks: new Map(), fullPage: true };
  for (const device of options.devices) {
    let unstable: string | null = null;
    for (let attempt = 1; ; attempt++) {
      if (options.signal.aborted) return null;
      // A look works on a copy, kept once it ended: a look cut short leaves nothing of it in the next one.
      const trial: LookState = { masks: new Map(state.masks), fullPage: state.fullPage };
      try {
        unstable = await lookOnDevice(browser, url, device, trial, options.signal);
        Object.assign(state, trial);
        break;
      } catch (error) {
        const failure = { url: new URL(url).pathname, device, attempt, error: errorMessage(error) };
        if (attempt === LOOK_ATTEMPTS || options.signal.aborted) {
          options.log('a page proposed for a visual test could not be visited twice', failure);
          return null;
        }
        // A page closed under the look (its renderer gone on a loaded machine) says nothing of the page: it is looked at once more.
        options.log('a look at a page proposed for a visual test failed: looking once more', failure);
      }
    }
    if (unstable) return { masks: [], fullPage: state.fullPage, unstable: `on a ${device}, ${unstable}`.slice(0, SURVEY_LIMITS.errorChars) };
  }
  const masks = [...state.masks].map(([selector, { why }]) => ({ selector, why }));
  return { masks: masks.filter((m) => m.selector.length <= SURVEY_LIMITS.selectorChars && /^[\x20-\x7e]+$/.test(m.selector)), fullPage: state.fullPage };
}
