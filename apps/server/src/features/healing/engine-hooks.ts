import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type FingerprintsFile, fingerprintsFile, MAX_HEALS, type ProposedHeal } from '@fullstop/contracts';
import { readSuiteFolder } from '@fullstop/engine';
import { AttemptFileError, readAttemptJson } from '@fullstop/engine/attempt-file';
import type { EngineDeps } from '../engine/index.ts';
import { importSuite, localSuite } from '../suites/index.ts';
import { healedCasesOf } from './heals-of.ts';
import { healKey, isWritableLocator, replaceOnLine } from './patch.ts';
import { claimProposal, completeProposal, deleteProposal, fingerprintsOf, knownHealKeys, runForProposal, upsertFingerprints } from './repository.ts';

// What a run needs of this feature (decision 0101, "The server's half"): before a browser attempt, the fingerprints of
// its suite version and test in a file; after it, the fingerprints it recorded kept; once the run ends, its heals
// proposed as a suite version. The runs feature calls these and nothing else.

/** The fingerprints the runner writes (200 call sites of 2 KB, and room): what the engine itself reads at most. */
const FINGERPRINTS_MAX_BYTES = 1024 * 1024;
/** Where an attempt's fingerprints file lies relative to its folder (the browser runner's BrowserPaths). */
const ATTEMPT_FINGERPRINTS = path.join('browser', 'fingerprints.json');

type HookDeps = Pick<EngineDeps, 'db' | 'paths' | 'log'>;
interface TestOfVersion {
  clientId: string;
  suiteId: string;
  testName: string;
}

/**
 * The stored fingerprints of this browser test of this suite version as a `fingerprints.json` for
 * `RunContext.healingFingerprints` (the sandbox copies it where the runner user reads it); null when none is stored
 * (a first run: nothing heals). The caller removes the file after the attempt.
 */
export async function prepareHealingFingerprints(deps: HookDeps, test: TestOfVersion, attemptId: string): Promise<string | null> {
  const sites = await fingerprintsOf(deps.db, test.suiteId, test.testName);
  if (sites.length === 0) return null;
  const file = path.join(deps.paths.incoming, `healing-fingerprints-${attemptId}.json`);
  const body: FingerprintsFile = { version: 1, sites };
  await writeFile(file, JSON.stringify(body), { mode: 0o600 });
  return file;
}

export async function removeHealingFingerprints(file: string): Promise<void> {
  await rm(file, { force: true });
}

/**
 * Keeps the fingerprints a browser attempt recorded (its passing tests' call sites only), read as another user's file
 * (no link, at most 1 MB, the contract's schema). A file missing or not valid keeps nothing and says so in the log.
 */
export async function recordFingerprints(deps: HookDeps, test: TestOfVersion, attemptDir: string): Promise<number> {
  let data: FingerprintsFile;
  try {
    data = await readAttemptJson(path.join(attemptDir, ATTEMPT_FINGERPRINTS), fingerprintsFile, { maxBytes: FINGERPRINTS_MAX_BYTES });
  } catch (err) {
    if (!(err instanceof AttemptFileError)) throw err;
    if (err.problem !== 'missing') deps.log.warn({ ...test, problem: err.problem, detail: err.detail }, 'the fingerprints of a browser attempt could not be read');
    return 0;
  }
  await upsertFingerprints(deps.db, test, data.sites);
  return data.sites.length;
}

/** Short ids in words: "run 3f2a9c1b". */
export const shortId = (id: string) => id.replace(/-/g, '').slice(0, 8);
/** What importedBy says of a version a run's heals proposed (the Suites page lists it). */
export const HEALING_IMPORTER = (runId: string) => `healing (run ${shortId(runId)})`;

/**
 * A run that ended with healed cases proposes one suite version (not current) with each heal written into its spec,
 * and one record of it. A heal already proposed (waiting, accepted or rejected: the same call site, locators and page
 * state) is not proposed again; a heal that cannot be written says why and is kept for the operator to read. Safe to
 * call twice and from two processes: the first to claim the run makes the proposal.
 */
export async function proposeHealsOfRun(deps: EngineDeps, runId: string): Promise<void> {
  const run = await runForProposal(deps.db, runId);
  if (!run) return;
  const seen = new Set<string>();
  let heals: ProposedHeal[] = [];
  for (const t of run.tests) {
    for (const c of healedCasesOf(t.summary)) {
      for (const h of c.healed) {
        const key = healKey(h);
        if (seen.has(key)) continue;
        seen.add(key);
        heals.push({ ...h, runTestId: t.id, attempt: Math.max(1, t.attempts), testName: t.testName, caseName: c.name, patched: false, why: null, key });
      }
    }
  }
  if (heals.length === 0) return;
  const known = await knownHealKeys(deps.db, run.clientId, heals.map((h) => h.key));
  heals = heals.filter((h) => !known.has(h.key)).slice(0, MAX_HEALS);
  if (heals.length === 0) return;

  const claimed = await claimProposal(deps.db, { clientId: run.clientId, runId, runTestId: heals[0]!.runTestId, fromSuiteId: run.suite.id, heals });
  if (!claimed) return;
  try {
    const suite = await localSuite(deps, run.suite);
    const files = await readSuiteFolder(suite.dir);
    const patchedSites = new Map<string, string>();
    for (const h of heals) {
      const where = `${h.site.file}:${h.site.line}:${h.site.column}`;
      const text = files.get(h.site.file);
      if (patchedSites.has(where)) {
        h.why = patchedSites.get(where) === h.newLocator ? 'the same change as another heal of this call site' : 'another heal of this call site, to another element, is proposed';
        h.patched = patchedSites.get(where) === h.newLocator;
      } else if (!isWritableLocator(h.newLocator)) {
        h.why = 'the new locator is not a plain Playwright locator call, so it is not written into a spec: change the spec by hand';
      } else if (text === undefined) {
        h.why = `the suite version has no file ${h.site.file}`;
      } else {
        const edit = replaceOnLine(text.toString('utf8'), h.site.file, h.site.line, h.oldLocator, h.newLocator);
        if (edit.ok) {
          files.set(h.site.file, Buffer.from(edit.text, 'utf8'));
          h.patched = true;
          patchedSites.set(where, h.newLocator);
        } else {
          h.why = edit.why;
        }
      }
    }
    if (!heals.some((h) => h.patched)) {
      await completeProposal(deps.db, claimed.id, { proposedSuiteId: null, heals });
      return;
    }
    const imported = await importSuite(deps, run.clientId, files, HEALING_IMPORTER(runId), { makeCurrent: false });
    await completeProposal(deps.db, claimed.id, { proposedSuiteId: imported.suiteId, heals });
    deps.log.info({ clientId: run.clientId, runId, version: imported.version, heals: heals.length }, 'healed locators proposed as a suite version');
  } catch (err) {
    // Nothing half-made stays: the next run that heals the same way proposes it again.
    await deleteProposal(deps.db, claimed.id).catch(() => undefined);
    throw err;
  }
}
