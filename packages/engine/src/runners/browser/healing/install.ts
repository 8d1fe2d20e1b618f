/**
 * The healing hook's work in a test worker (decision 0101), loaded by hook.ts: it wraps the Locator's actions (and
 * its assertions, for fingerprints only).
 *
 * - Fingerprints: the first time a test passes a call site of the suite's files (file, line, column, locator), the
 *   element is fingerprinted in Playwright's utility world (in-page.ts FINGERPRINT_ENGINE; before the action when the
 *   element is there, else after it, never waiting for it), and the worker writes a record. A call site a
 *   passing test of this worker has recorded is not measured again; the runner keeps the records of passing tests
 *   only.
 * - Heals: at a call site the last passing run fingerprinted, the action first gets a short part of its time
 *   (HEAL_AFTER_*); when its locator then finds nothing or several elements, the page's candidates are weighed
 *   (heal-action.ts). A clear winner is acted on with a locator of its own, and the test fails ("healed: …") or
 *   passes marked healed; otherwise the action goes on with the rest of its time, and if it fails its message says
 *   why nothing healed.
 */
import { appendFileSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallSite, ElementFingerprint, FingerprintsFile } from '@fullstop/contracts/healing';
import { callSiteKey, MAX_CALL_SITES, MAX_HEALS } from '@fullstop/contracts/healing-limits';
import { selectors, test, type TestInfo } from '@playwright/test';
import { READY_MAX_MS } from '../../../lib/page-ready.ts';
import type { FoundHeal } from './heal-action.ts';
import { fingerprintFromPage } from './ingest.ts';
import { FINGERPRINT_ENGINE, FINGERPRINT_ENGINE_SOURCE, FINGERPRINT_NONE, fingerprintSelector } from './in-page.ts';
import { failSoftly, internal, type InternalLocator, type LocatorMethod, playwrightInternals, testTimeLeft } from './playwright-internals.ts';
import { workerRecordsFile } from './setup-env.ts';
// Types only: the schemas are the runner's (zod is no part of a worker's load, see setup.ts).
import type { HealingSetup, RecordTest, WorkerRecord } from './setup.ts';

/** The part of an action's time its own locator has before a heal is tried, and its bounds. */
export const HEAL_AFTER_FRACTION = 0.1;
export const HEAL_AFTER_MIN_MS = 1_000;
export const HEAL_AFTER_MAX_MS = 3_000;
/** An action that would wait for the test's own timeout ends this much before it, to fail with its own reason. */
const TEST_DEADLINE_MARGIN_MS = 500;
const STACK_FRAMES = 40;
/** How long reading a fingerprint may take once the element is known to be there (or known to be none). */
const FINGERPRINT_READ_MS = 250;

/**
 * The fingerprint (as the page's JSON, unparsed) of the one element `locator` finds, in one evaluation of Playwright's
 * utility world, as an internal call (no step, no trace).
 *
 * An action's waits for no element: the locator's element, or an empty answer where the locator finds none
 * (`<html>` that has none, FINGERPRINT_NONE), so it is taken before the action when the element is there (as the action
 * found it) and otherwise after it; one that is gone by then is no fingerprint. The action itself waits for its
 * element: a wait here added its time to every step whose element renders late (250 ms each, before), and a query
 * first, then the read, cost two round trips through the shared browser (13.7 CPU-ms a call site, against 7).
 * `found`: the element a passing assertion has just found (the read alone). Exported for the healing bench, which
 * times what it costs.
 */
export function readFingerprint(locator: InternalLocator, { found = false }: { found?: boolean } = {}): Promise<string | null> {
  const frame = locator._frame;
  return internal(frame, async () => {
    const element = frame.locator(fingerprintSelector(locator._selector));
    const read = (l: InternalLocator) => l.textContent({ timeout: FINGERPRINT_READ_MS });
    if (found) return read(element);
    const none = frame.locator('html', { hasNot: frame.locator(locator._selector) }).locator(FINGERPRINT_NONE);
    // A locator the composed query refuses (one that enters a frame): a query that waits for nothing, then the read.
    return read(element.or(none)).catch(async () => ((await element.count()) === 1 ? read(element) : null));
  });
}

/**
 * What a heal needs (scoring, the page's candidates, the screenshot and PNG drawing), loaded at the first heal: a
 * passing attempt, the case the cost goal is about, never loads it.
 */
const healModule = () => import('./heal-action.ts');

/** The actions a heal may redo, by the place of their options argument. `pressSequentially`, `setChecked` and `clear` go through these. */
const ACTIONS: Record<string, number> = { click: 0, dblclick: 0, tap: 0, hover: 0, focus: 0, check: 0, uncheck: 0, fill: 1, press: 1, type: 1, selectOption: 1, setInputFiles: 1 };
/** Assertions that pass with no element to fingerprint. */
const NO_ELEMENT_EXPECTATIONS = new Set(['to.have.count', 'to.be.hidden', 'to.be.attached']);

interface TestNow {
  info: TestInfo;
  ref: RecordTest;
  sites: Set<string>;
}

async function installHealing(setup: HealingSetup): Promise<void> {
  const pw = playwrightInternals();
  // Before the first page: a context takes the engines registered when it is made.
  await selectors.register(FINGERPRINT_ENGINE, { content: FINGERPRINT_ENGINE_SOURCE }, { contentScript: true });
  // Our frames are Playwright's for a step's location and an error's stack: the spec's line, not the hook's.
  pw.setBoxedStackPrefixes([pw.playwrightDir, path.dirname(fileURLToPath(import.meta.url))]);
  const roots = [...new Set([setup.suiteDir, realpathSync(setup.suiteDir)])];
  const known = new Map<string, ElementFingerprint>();
  if (setup.fingerprints && setup.mode !== 'off') {
    // The runner's own copy, written after it parsed the server's file with the contract (prepareHealing).
    for (const entry of (JSON.parse(readFileSync(setup.fingerprints, 'utf8')) as FingerprintsFile).sites) known.set(callSiteKey(entry.site), entry.fingerprint);
  }
  const recordsFile = path.join(setup.outDir, workerRecordsFile(process.env.TEST_WORKER_INDEX ?? '', process.pid));
  const settled = new Set<string>();
  let current: TestNow | null = null;
  let recorded = 0;
  let heals = 0;

  // Unparsed: the runner parses each line with the contract when it reads the file (attempt.ts), and leaves out one that is not valid.
  const write = (record: WorkerRecord) => appendFileSync(recordsFile, `${JSON.stringify(record)}\n`);

  /** The running test; a new one settles the sites its predecessor passed through when it passed. */
  const testNow = (): TestNow | null => {
    let info: TestInfo;
    try {
      info = test.info();
    } catch {
      return null;
    }
    if (current?.info === info) return current;
    if (current && current.info.status === 'passed') for (const site of current.sites) settled.add(site);
    const file = relativeToSuite(info.file);
    current = {
      info,
      sites: new Set(),
      ref: { id: info.testId, retry: info.retry, project: info.project.name, file: file ?? '', line: info.line, column: info.column, title: info.titlePath.filter(Boolean).join(' › ').slice(0, 600) || 'test' },
    };
    return current;
  };

  function relativeToSuite(file: string): string | null {
    for (const root of roots) if (file.startsWith(root + path.sep)) return path.relative(root, file).split(path.sep).join('/');
    return null;
  }

  /** The first place in the suite's files on the stack: where the spec (or its helper) called. */
  function siteOf(locator: InternalLocator): CallSite | null {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = STACK_FRAMES;
    const stack = new Error().stack ?? '';
    Error.stackTraceLimit = limit;
    for (const line of stack.split('\n').slice(1)) {
      const m = /\(?((?:file:\/\/)?\/[^()]*?):(\d+):(\d+)\)?\s*$/.exec(line);
      if (!m) continue;
      const file = relativeToSuite(m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!);
      if (file === null || file.length > 300) continue;
      return { file, line: Number(m[2]), column: Number(m[3]), locator: locator.toString().slice(0, 500) || 'locator' };
    }
    return null;
  }

  const fingerprintOf = (locator: InternalLocator, options: { found?: boolean } = {}) =>
    readFingerprint(locator, options)
      .then((json) => fingerprintFromPage(json ? JSON.parse(json) : null))
      .catch(() => null);

  /** Whether the site is still to be fingerprinted in this test. */
  const wanted = (now: TestNow, key: string) => !settled.has(key) && !now.sites.has(key) && recorded < MAX_CALL_SITES;

  function keep(now: TestNow, site: CallSite, key: string, fingerprint: ElementFingerprint | null): void {
    if (!fingerprint || !wanted(now, key)) return;
    now.sites.add(key);
    recorded++;
    write({ type: 'fingerprint', test: now.ref, site, fingerprint });
  }

  function healed(now: TestNow, site: CallSite, oldLocator: string, fingerprint: ElementFingerprint, heal: FoundHeal): void {
    const runnerUp = heal.runnerUp === null ? 'no other candidate' : `runner-up ${heal.runnerUp.toFixed(2)}`;
    const words = `${oldLocator} → ${heal.newLocator} (score ${heal.score.toFixed(2)}, ${runnerUp}): ${heal.change}, at ${site.file}:${site.line}`;
    now.info.annotations.push({ type: 'healed', description: words });
    if (setup.mode === 'fail') {
      const error = new Error(`healed: ${words}`);
      // The report points at the spec's line, not at this file.
      error.stack = `Error: ${error.message}\n    at ${path.join(setup.suiteDir, ...site.file.split('/'))}:${site.line}:${site.column}`;
      failSoftly(now.info, error);
    }
    if (heals++ >= MAX_HEALS) return;
    write({
      type: 'heal',
      test: now.ref,
      mode: setup.mode === 'pass' ? 'pass' : 'fail',
      heal: {
        site,
        oldLocator,
        newLocator: heal.newLocator,
        score: heal.score,
        runnerUp: heal.runnerUp,
        change: heal.change.slice(0, 600),
        ...(heal.screenshot ? { screenshot: heal.screenshot } : {}),
      },
      candidates: heal.candidates,
      fingerprint,
    });
  }

  const proto = pw.locatorPrototype;
  for (const [name, optionsAt] of Object.entries(ACTIONS)) {
    const original = proto[name] as LocatorMethod | undefined;
    if (typeof original !== 'function') continue;
    proto[name] = async function healingAction(this: InternalLocator, ...args: unknown[]): Promise<unknown> {
      const now = testNow();
      const site = now ? siteOf(this) : null;
      if (!now || !site) return invoke(original, name, this, args);
      const key = callSiteKey(site);
      const before = wanted(now, key) ? await fingerprintOf(this) : null;
      const fingerprint = known.get(key);
      if (!fingerprint) {
        const value = await invoke(original, name, this, args);
        keep(now, site, key, before ?? (wanted(now, key) ? await fingerprintOf(this) : null));
        return value;
      }
      const withTimeout = (timeout: number) => {
        const copy = [...args];
        while (copy.length < optionsAt) copy.push(undefined);
        copy[optionsAt] = { ...((args[optionsAt] as object | undefined) ?? {}), timeout };
        return copy;
      };
      const actionTimeout = this._frame._timeout((args[optionsAt] as { timeout?: number } | undefined) ?? {});
      const left = testTimeLeft(now.info, pw.monotonicTime);
      const budget = actionTimeout > 0 ? actionTimeout : (left ?? HEAL_AFTER_MAX_MS * 10);
      const first = Math.round(Math.min(HEAL_AFTER_MAX_MS, Math.max(HEAL_AFTER_MIN_MS, budget * HEAL_AFTER_FRACTION)));
      const started = pw.monotonicTime();
      try {
        // Its own step: a case's steps show every action, the first try of a healed one as it failed.
        const value = await invoke(original, name, this, withTimeout(first));
        keep(now, site, key, before ?? (await fingerprintOf(this)));
        return value;
      } catch (error) {
        if (!healable(error)) throw error;
      }
      const rest = () => {
        if (actionTimeout > 0) return Math.max(1, Math.round(actionTimeout - (pw.monotonicTime() - started)));
        const remaining = testTimeLeft(now.info, pw.monotonicTime);
        return remaining === null ? 0 : Math.max(1, Math.round(remaining - TEST_DEADLINE_MARGIN_MS));
      };
      // The page gets up to half of what is left (or READY_MAX_MS with no deadline) to be ready before it is judged.
      const readyMs = rest() === 0 ? READY_MAX_MS : Math.min(READY_MAX_MS, Math.round(rest() / 2));
      const { findHeal, sourceOf } = await healModule();
      const heal = await findHeal(this, fingerprint, setup.outDir, readyMs).catch((error: unknown) => ({ healed: false as const, why: `the heal failed: ${String(error).slice(0, 200)}` }));
      if (heal.healed) {
        // A healed action needs no time kept to explain itself: with no timeout of its own it may use the test's.
        const value = await invoke(original, name, heal.locator, withTimeout(actionTimeout > 0 ? rest() : 0));
        healed(now, site, sourceOf(this), fingerprint, heal);
        keep(now, site, key, await fingerprintOf(heal.locator));
        return value;
      }
      try {
        const value = await invoke(original, name, this, withTimeout(rest()));
        keep(now, site, key, await fingerprintOf(this));
        return value;
      } catch (error) {
        if (heal.why && error instanceof Error && healable(error)) explain(error, heal.why);
        throw error;
      }
    };
  }

  const originalExpect = proto._expect as LocatorMethod;
  proto._expect = async function healingExpect(this: InternalLocator, expression: unknown, options: unknown): Promise<unknown> {
    const now = testNow();
    const site = now ? siteOf(this) : null;
    const result = await invoke(originalExpect, '_expect', this, [expression, options]);
    const isNot = Boolean((options as { isNot?: boolean } | undefined)?.isNot);
    if (now && site && !isNot && typeof expression === 'string' && !NO_ELEMENT_EXPECTATIONS.has(expression) && (result as { matches?: boolean } | null)?.matches === true) {
      const key = callSiteKey(site);
      if (wanted(now, key)) keep(now, site, key, await fingerprintOf(this, { found: true }));
    }
    return result;
  };
}

/**
 * Calls Playwright's own method on `locator` as a method of that name: Playwright names its step and its errors after
 * the caller's frame ("locator.click: Timeout …"), which `apply` or `call` would rename ("locator.apply").
 */
function invoke(original: LocatorMethod, name: string, locator: InternalLocator, args: unknown[]): Promise<unknown> {
  const receiver = Object.create(locator, { [name]: { value: original } }) as InternalLocator & Record<string, LocatorMethod>;
  return receiver[name]!(...args);
}

/** A locator that found nothing in its time, or several elements where one was meant. */
function healable(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || /strict mode violation/.test(error.message));
}

/** Adds why nothing healed to the action's error, as the test's message shows it. */
function explain(error: Error, why: string): void {
  const before = error.message;
  error.message = `${before}\n\nnot healed: ${why}`;
  if (error.stack?.startsWith(before)) error.stack = error.message + error.stack.slice(before.length);
}

/** Installs healing in this worker from the setup file; a setup it cannot use turns healing off here, said once. */
export async function install(setupFile: string): Promise<void> {
  try {
    // The runner wrote it (prepareHealing) from a typed object; a file not of that shape turns healing off here.
    const setup = JSON.parse(readFileSync(setupFile, 'utf8')) as HealingSetup;
    if (typeof setup?.suiteDir !== 'string' || typeof setup.outDir !== 'string') throw new Error('the healing setup is not one');
    await installHealing(setup);
  } catch (error) {
    process.stderr.write(`fullstop healing is off in this worker: ${String(error).slice(0, 300)}\n`);
  }
}
