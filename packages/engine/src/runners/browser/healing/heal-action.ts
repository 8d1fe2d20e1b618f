/**
 * One heal (decision 0101): the page's candidates weighed against the fingerprint of the element a passing run
 * found at this call site; a clear winner gets a locator of its own (the kinds a person would write, best first),
 * checked to find that element and no other; the page is shot with the element outlined.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ElementFingerprint, HealCandidate } from '@fullstop/contracts/healing';
import { waitForReady } from '../../../lib/page-ready.ts';
import { candidatesFromPage } from './ingest.ts';
import { CANDIDATE_SELECTOR, CANDIDATES_OF, IS_CANDIDATE, MAX_CANDIDATES, PAGE_LIMITS, pageFunction } from './in-page.ts';
import { internal, type InternalFrame, type InternalLocator } from './playwright-internals.ts';
import { candidatesOf, changeInWords, decide, describeElement } from './score.ts';
import { outlined } from './outline.ts';

export interface FoundHeal {
  healed: true;
  locator: InternalLocator;
  newLocator: string;
  score: number;
  runnerUp: number | null;
  candidates: HealCandidate[];
  change: string;
  /** The screenshot's file name in the healing folder; unset when none could be taken. */
  screenshot?: string;
}
export type HealOutcome = FoundHeal | { healed: false; why: string | null };

/** The locator as the spec's source has it: `page.getByRole('button', { name: 'Send' })`. */
export function sourceOf(locator: InternalLocator): string {
  return `${locator._frame.parentFrame() ? 'frame' : 'page'}.${locator.toString()}`.slice(0, 600);
}

/** A CSS identifier, escaped as CSS.escape does for the characters that matter in an id. */
function cssIdent(s: string): string {
  return s.replace(/^(\d)/, '\\3$1 ').replace(/[^\w-]/g, (c) => `\\${c}`);
}

/** The locators a person would write for the element, best first: test id, role and name, label, text, id. */
function locatorsFor(frame: InternalFrame, f: ElementFingerprint): InternalLocator[] {
  const out: InternalLocator[] = [];
  if (f.testId) out.push(frame.getByTestId(f.testId));
  if (f.role && f.name) out.push(frame.getByRole(f.role, { name: f.name, exact: true }));
  if (f.label) out.push(frame.getByLabel(f.label, { exact: true }));
  if (f.text) out.push(frame.getByText(f.text, { exact: true }));
  if (f.id) out.push(frame.locator(`#${cssIdent(f.id)}`));
  return out;
}

let shots = 0;

/**
 * Looks for the element `fingerprint` describes on the locator's page now. `healed: false` with a reason (for the
 * failure's message), or null when the locator's element is there after all (not a locator problem: an element
 * not ready, which healing must not hide).
 */
export async function findHeal(locator: InternalLocator, fingerprint: ElementFingerprint, outDir: string, readyMs: number): Promise<HealOutcome> {
  const frame = locator._frame;
  // A locator into an iframe: its candidates are in another document, not weighed here.
  if (locator._selector.includes('internal:control=enter-frame')) return { healed: false, why: 'the locator goes into a frame, which healing does not search' };
  // Judged on a page that is ready (decision 0089), never on one still rendering: on a busy machine the element a
  // late data call brings is waited for, not healed around with whatever resembles it meanwhile.
  if (readyMs > 0) await internal(frame, () => waitForReady(frame.page(), { maxMs: readyMs })).catch(() => undefined);
  const count = await internal(frame, () => locator.count()).catch(() => -1);
  if (count === 1) return { healed: false, why: null };
  const raw = await internal(frame, () => frame.evaluate(pageFunction(CANDIDATES_OF), { ...PAGE_LIMITS, selector: CANDIDATE_SELECTOR, max: MAX_CANDIDATES })).catch(() => null);
  const decision = decide(
    fingerprint,
    candidatesFromPage(raw, MAX_CANDIDATES).map((c) => ({ item: c.at, fingerprint: c.fingerprint })),
  );
  if (!decision.healed) return { healed: false, why: decision.why };
  const { winner, runnerUp } = decision;
  let found: InternalLocator | undefined;
  for (const candidate of locatorsFor(frame, winner.fingerprint)) {
    const alone = await internal(frame, () => frame.$$eval(candidate._selector, pageFunction(IS_CANDIDATE), { selector: CANDIDATE_SELECTOR, at: winner.item })).catch(() => false);
    if (alone === true) {
      found = candidate;
      break;
    }
  }
  if (!found) return { healed: false, why: `the best candidate, ${describeElement(winner.fingerprint)} (${winner.score.toFixed(2)}), has no locator that finds it alone` };
  const screenshot = await shoot(found, outDir).catch(() => undefined);
  return {
    healed: true,
    locator: found,
    newLocator: sourceOf(found),
    score: winner.score,
    runnerUp: runnerUp?.score ?? null,
    candidates: candidatesOf(decision.top),
    change: changeInWords(fingerprint, winner.fingerprint),
    ...(screenshot ? { screenshot } : {}),
  };
}

/** The page now, the element outlined, in the healing folder; its file name. */
async function shoot(locator: InternalLocator, outDir: string): Promise<string> {
  const frame = locator._frame;
  const box = await internal(frame, () => locator.boundingBox());
  const png = await internal(frame, () => frame.page().screenshot({ scale: 'css', timeout: 5_000 }));
  const name = `heal-${process.env.TEST_WORKER_INDEX ?? 'x'}-${process.pid}-${++shots}.png`;
  writeFileSync(path.join(outDir, name), box ? outlined(png, box) : png);
  return name;
}
