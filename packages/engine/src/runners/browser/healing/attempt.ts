/**
 * The runner's side of healing (decision 0101): before Playwright starts, the setup its workers read and the
 * fingerprints they heal with (checked here, copied into the attempt's folder); after it ends, the workers' records
 * joined to Playwright's report: `fingerprints.json` from passing attempts only, `heals.json`, and each case's heals.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type CaseHeal, callSiteKey, type FingerprintsFile, fingerprintsFile, type Heal, type HealingMode, type HealsFile, MAX_CALL_SITES, MAX_HEALS } from '@fullstop/contracts/healing';
import { readAttemptFile, readAttemptJson } from '../../../lib/attempt-file.ts';
import type { Artifact } from '../../../types.ts';
import type { BrowserPaths } from '../config.ts';
import type { PlaywrightJsonReport } from '../json-report.ts';
import { cellStepsKey } from '../steps-reporter.ts';
import { HEALING_SETUP_ENV, type HealingSetup, type RecordTest, workerRecord, type WorkerRecord } from './setup.ts';

/** The fingerprints the server gives, at most (200 call sites of 2 KB, and room). */
const MAX_INPUT_BYTES = 1024 * 1024;
/** A worker's records file, at most. */
const MAX_RECORDS_BYTES = 4 * 1024 * 1024;
const SCREENSHOT_NAME = /^heal-[\w-]+\.png$/;

/** Heals by case, keyed as the steps are (steps-reporter.ts): a case's key → its attempts' heals, by retry. */
export type RecordedHeals = Record<string, CaseHeal[][]>;

/**
 * Writes the hook's setup and the fingerprints it heals with; the environment the Playwright process needs.
 * Fingerprints that cannot be read or are not valid heal nothing (said in the log), as none would.
 */
export async function prepareHealing(p: {
  paths: BrowserPaths;
  suiteDir: string;
  mode: HealingMode;
  fingerprints: string | undefined;
  log: (message: string, data?: Record<string, unknown>) => void;
}): Promise<Record<string, string>> {
  await mkdir(p.paths.healing, { recursive: true });
  let known: string | null = null;
  if (p.fingerprints && p.mode !== 'off') {
    try {
      const data: FingerprintsFile = await readAttemptJson(p.fingerprints, fingerprintsFile, { maxBytes: MAX_INPUT_BYTES });
      known = path.join(p.paths.healing, 'known.json');
      await writeFile(known, JSON.stringify(data));
    } catch (error) {
      p.log('healing: the fingerprints given cannot be used, nothing heals', { error: String(error).slice(0, 300) });
    }
  }
  const setup: HealingSetup = { suiteDir: p.suiteDir, outDir: p.paths.healing, mode: p.mode, fingerprints: known };
  const file = path.join(p.paths.healing, 'setup.json');
  await writeFile(file, JSON.stringify(setup));
  return { [HEALING_SETUP_ENV]: file };
}

/** Every valid record the workers wrote; a torn line, a file too large or a link is left out. */
async function workerRecords(dir: string): Promise<WorkerRecord[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => /^worker-[\w-]+\.jsonl$/.test(n)).sort();
  const records: WorkerRecord[] = [];
  for (const name of names) {
    const text = await readAttemptFile(path.join(dir, name), { maxBytes: MAX_RECORDS_BYTES })
      .then((b) => b.toString('utf8'))
      .catch(() => '');
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const parsed = workerRecord.safeParse(JSON.parse(line));
        if (parsed.success) records.push(parsed.data);
      } catch {
        // A line cut short by a worker that was killed.
      }
    }
  }
  return records;
}

/** Each attempt of each case in Playwright's report: its key (as steps-reporter keys it), retry and status. */
function attemptsOf(report: PlaywrightJsonReport, cells: boolean): Map<string, Map<number, string>> {
  const out = new Map<string, Map<number, string>>();
  const walk = (suite: NonNullable<PlaywrightJsonReport['suites']>[number]) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const key = cells ? cellStepsKey(test.projectName ?? '', spec.file ?? '', spec.line ?? 0, spec.column ?? 0) : spec.id;
        if (!key) continue;
        const attempts = out.get(key) ?? new Map<number, string>();
        for (const [index, result] of test.results.entries()) attempts.set(result.retry ?? index, result.status ?? '');
        out.set(key, attempts);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return out;
}

const keyOf = (t: RecordTest, cells: boolean) => (cells ? cellStepsKey(t.project, t.file, t.line, t.column) : t.id);

export interface HealingOutcome {
  heals: RecordedHeals;
  artifacts: Artifact[];
  /** How many call sites were fingerprinted and how many heals there were, for the log. */
  sites: number;
  healed: number;
}

/** Joins the workers' records to the report and writes the attempt's `fingerprints.json` and `heals.json`. */
export async function collectHealing(p: { paths: BrowserPaths; report: PlaywrightJsonReport; cells: boolean; runDir: string }): Promise<HealingOutcome> {
  const records = await workerRecords(p.paths.healing);
  const attempts = attemptsOf(p.report, p.cells);
  const statusOf = (t: RecordTest) => attempts.get(keyOf(t, p.cells))?.get(t.retry);

  const sites = new Map<string, FingerprintsFile['sites'][number]>();
  for (const r of records) {
    if (r.type !== 'fingerprint' || statusOf(r.test) !== 'passed' || sites.size >= MAX_CALL_SITES) continue;
    const key = callSiteKey(r.site);
    if (!sites.has(key)) sites.set(key, { site: r.site, fingerprint: r.fingerprint });
  }
  const fingerprints: FingerprintsFile = { version: 1, sites: [...sites.values()] };
  await writeFile(p.paths.fingerprints, `${JSON.stringify(fingerprints, null, 2)}\n`);

  const rel = (f: string) => path.relative(p.runDir, f).split(path.sep).join('/');
  const heals: Heal[] = [];
  const byCase: RecordedHeals = {};
  const shots: Artifact[] = [];
  for (const r of records) {
    if (r.type !== 'heal' || heals.length >= MAX_HEALS || statusOf(r.test) === undefined) continue;
    const shot = r.heal.screenshot && SCREENSHOT_NAME.test(r.heal.screenshot) ? rel(path.join(p.paths.healing, r.heal.screenshot)) : undefined;
    const caseHeal: CaseHeal = { ...r.heal, screenshot: shot };
    if (!shot) delete caseHeal.screenshot;
    heals.push({ ...caseHeal, test: r.test.title, ...(p.cells ? { cell: r.test.project.slice(0, 100) } : {}), mode: r.mode, candidates: r.candidates, fingerprint: r.fingerprint });
    ((byCase[keyOf(r.test, p.cells)] ??= [])[r.test.retry] ??= []).push(caseHeal);
    if (shot) shots.push({ path: shot, kind: 'screenshot', contentType: 'image/png', label: `Healed: ${r.test.title} (${caseHeal.oldLocator} → ${caseHeal.newLocator})`.slice(0, 300) });
  }
  const healsFile: HealsFile = { version: 1, heals };
  await writeFile(p.paths.heals, `${JSON.stringify(healsFile, null, 2)}\n`);
  return {
    heals: byCase,
    artifacts: [
      { path: rel(p.paths.fingerprints), kind: 'json', contentType: 'application/json', label: 'Locator fingerprints' },
      { path: rel(p.paths.heals), kind: 'json', contentType: 'application/json', label: 'Healed locators' },
      ...shots,
    ],
    sites: sites.size,
    healed: heals.length,
  };
}
