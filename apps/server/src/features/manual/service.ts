import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  formatUtc,
  MANUAL_CLAIM_MIN_MINUTES,
  MANUAL_EVIDENCE_PER_STEP,
  type ManualCaseListResponse,
  type ManualStepRequest,
  type ManualSubmitRequest,
  type ManualWorkDetailResponse,
  type ManualWorkItem,
} from '@fullstop/contracts';
import { type ManualExecution, type ManualOptions, manualInput, manualResult, platformLabel, testsOf } from '@fullstop/engine';
import { artifactKey } from '../../lib/artifact-store/index.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors.ts';
import { attemptFolder, runTestDir, runTestKey } from '../../lib/run-paths.ts';
import type { ManualStepRow } from '../../db/schema/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { finishRunTest, getRunTest, isTerminal, markRunRunning, testEventOf, updateRunTest } from '../runs/index.ts';
import { currentSuite, suiteOfRun } from '../suites/index.ts';
import { claimWork, expireOverdue, findWork, heldBy, type ManualWorkRow, type ManualWorkView, releaseWork, submitWork, workOfRunTest, writeSteps } from './repository.ts';

// A manual case's work, from claim to verdict (issue 41). Its result is made like a runner's (manualResult) and ends
// the test through finishRunTest, so reports, JUnit, History, Insights and alerts read it like any other test.

/** Every manual case keeps its evidence in its run test's first attempt folder (it has no other attempt). */
const ATTEMPT = 1;

/** Who is acting: an operator's user id (or the operator token) and the name the report gives the tester. */
export interface Tester {
  id: string;
  name: string;
}

/** The runs' finish needs the engine's whole set (reports, events, listeners). */
export type ManualDeps = EngineDeps;

const claimMinutes = (estimate: number) => Math.max(MANUAL_CLAIM_MIN_MINUTES, estimate * 2);

function itemOf(w: ManualWorkView, me: Tester | null, now: Date): ManualWorkItem {
  const live = w.status === 'claimed' && w.claimExpiresAt !== null && w.claimExpiresAt > now;
  return {
    id: w.id,
    clientId: w.clientId,
    clientName: w.clientName,
    runId: w.runId,
    runTestId: w.runTestId,
    testName: w.testName,
    group: w.groupName,
    platform: platformLabel(w.platform),
    // A claim that ran out is waiting again, whatever the row still says.
    status: w.status === 'claimed' && !live ? 'waiting' : w.status,
    dueAt: w.dueAt.toISOString(),
    estimateMinutes: w.estimateMinutes,
    stepCount: w.steps.length,
    claimedBy: live ? w.claimedByName : null,
    claimedByMe: live && me !== null && w.claimedBy === me.id,
    claimExpiresAt: live ? w.claimExpiresAt!.toISOString() : null,
    createdAt: w.createdAt.toISOString(),
  };
}

/** The case as the run's suite version wrote it (the version a run was queued with never changes). */
async function caseOf(deps: ManualDeps, runId: string, testName: string): Promise<ManualOptions & { references: string[] }> {
  const suite = await suiteOfRun(deps.db, runId);
  const def = suite ? testsOf(suite.manifest, suite.dir).find((t) => t.name === testName) : undefined;
  if (!def || def.kind !== 'manual') throw new NotFoundError(`The manual case "${testName}" is no longer in its suite version`);
  return manualInput.parse({ options: def.options, thresholds: {} }).options;
}

async function detailOf(deps: ManualDeps, w: ManualWorkView, me: Tester | null): Promise<ManualWorkDetailResponse> {
  const c = await caseOf(deps, w.runId, w.testName);
  return {
    ...itemOf(w, me, new Date()),
    goal: c.goal,
    preconditions: c.preconditions,
    testData: c.testData,
    references: c.references,
    asked: w.platform,
    used: w.used ?? null,
    steps: c.steps.map((s, i) => {
      const found = w.steps[i] ?? { verdict: null, note: null, evidence: [] };
      return { action: s.action, expected: s.expected, wcag: s.wcag ?? [], verdict: found.verdict, note: found.note, evidence: found.evidence.map(({ id, name, contentType, size }) => ({ id, name, contentType, size })) };
    }),
  };
}

/** The work, 404 when there is none or its test already ended (cancelled, or not run in time). */
async function openOne(deps: ManualDeps, id: string): Promise<ManualWorkView> {
  const w = await findWork(deps.db, id);
  if (!w) throw new NotFoundError('Manual work not found');
  return w;
}

function assertHeld(w: ManualWorkView, me: Tester, now: Date): void {
  if (isTerminal(w.testStatus as never) || w.status === 'submitted' || w.status === 'not-run') throw new ConflictError(`This manual work has ended (${w.status === 'not-run' ? 'not run by its due time' : w.status === 'submitted' ? 'submitted' : `its test is ${w.testStatus}`})`);
  const live = w.status === 'claimed' && w.claimExpiresAt !== null && w.claimExpiresAt > now;
  if (!live || w.claimedBy !== me.id) throw new ConflictError(live ? `${w.claimedByName ?? 'Another operator'} holds this manual work` : 'Claim this manual work first: your claim ended or you never held it');
}

export function listWork(me: Tester, open: ManualWorkView[]): { items: ManualWorkItem[]; holding: string | null } {
  const now = new Date();
  const items = open.map((w) => itemOf(w, me, now));
  return { items, holding: items.find((i) => i.claimedByMe)?.id ?? null };
}

export async function workDetail(deps: ManualDeps, id: string, me: Tester): Promise<ManualWorkDetailResponse> {
  return detailOf(deps, await openOne(deps, id), me);
}

/** Claims the work: one at a time per operator, until twice its estimate (at least 30 min) passes without a word. */
export async function claim(deps: ManualDeps, id: string, me: Tester): Promise<ManualWorkDetailResponse> {
  const now = new Date();
  const w = await openOne(deps, id);
  if (isTerminal(w.testStatus as never) || w.status === 'submitted' || w.status === 'not-run') throw new ConflictError('This manual work has ended: it cannot be claimed');
  const held = await heldBy(deps.db, me.id, now);
  if (held && held.id !== id) throw new ConflictError('You already hold other manual work: submit it or give it back before you claim more');
  const expires = new Date(now.getTime() + claimMinutes(w.estimateMinutes) * 60_000);
  const claimed = await claimWork(deps.db, id, me, now, expires);
  if (!claimed) {
    throw new ConflictError(`${w.claimedByName ?? 'Another operator'} holds this manual work until ${w.claimExpiresAt ? formatUtc(w.claimExpiresAt.toISOString()) : 'they give it back'}`);
  }
  // Its test is running from its first claim: the run is under way.
  const running = await updateRunTest(deps.db, w.runTestId, { status: 'running', attempts: ATTEMPT, startedAt: now, updatedAt: now }, { statusIn: ['queued'] });
  if (running) {
    await markRunRunning(deps.db, w.runId);
    deps.bus.emit(w.clientId, { type: 'test', data: testEventOf(running) });
  }
  return detailOf(deps, { ...w, ...claimed }, me);
}

export async function release(deps: ManualDeps, id: string, me: Tester): Promise<void> {
  const w = await openOne(deps, id);
  if (!(await releaseWork(deps.db, w.id, me.id))) throw new ConflictError('You do not hold this manual work');
}

async function changeSteps(deps: ManualDeps, id: string, me: Tester, change: (w: ManualWorkView, steps: ManualStepRow[]) => ManualStepRow[] | Promise<ManualStepRow[]>): Promise<ManualWorkDetailResponse> {
  const now = new Date();
  const w = await openOne(deps, id);
  assertHeld(w, me, now);
  const steps = await change(w, structuredClone(w.steps));
  const written = await writeSteps(deps.db, id, me.id, steps, now, new Date(now.getTime() + claimMinutes(w.estimateMinutes) * 60_000));
  if (!written) throw new ConflictError('Claim this manual work first: your claim ended');
  return detailOf(deps, { ...w, ...written }, me);
}

function stepAt(steps: ManualStepRow[], step: number): ManualStepRow {
  const s = steps[step - 1];
  if (!s) throw new NotFoundError(`This case has ${steps.length} step${steps.length === 1 ? '' : 's'}: there is no step ${step}`);
  return s;
}

export function saveStep(deps: ManualDeps, id: string, step: number, body: ManualStepRequest, me: Tester): Promise<ManualWorkDetailResponse> {
  return changeSteps(deps, id, me, (_w, steps) => {
    const s = stepAt(steps, step);
    s.verdict = body.verdict;
    s.note = body.note?.trim() ? body.note.trim() : null;
    return steps;
  });
}

/** Where a step's evidence goes in the store: the run test's first attempt folder, `manual/<platform>-<step>/`. */
export function evidenceFolder(w: Pick<ManualWorkRow, 'clientId' | 'runTestId' | 'platformIndex'> & { runId: string }, step: number): string {
  return artifactKey('runs', w.clientId, w.runId, w.runTestId, attemptFolder(ATTEMPT), 'manual', `${w.platformIndex + 1}-${step}`);
}

/** Adds a stored file to a step; `store` puts it in the folder it is given and answers its key (undone when the step cannot be written). */
export function addEvidence(
  deps: ManualDeps,
  id: string,
  step: number,
  me: Tester,
  store: (folder: string) => Promise<{ key: string; name: string; contentType: string; size: number }>,
): Promise<ManualWorkDetailResponse> {
  let stored: { key: string } | null = null;
  return changeSteps(deps, id, me, async (w, steps) => {
    const s = stepAt(steps, step);
    if (s.evidence.length >= MANUAL_EVIDENCE_PER_STEP) throw new ValidationError(`A step may carry at most ${MANUAL_EVIDENCE_PER_STEP} files: remove one first`, 'file');
    const file = await store(evidenceFolder(w, step));
    stored = file;
    const prefix = `${runTestKey(w.clientId, w.runId, w.runTestId)}/${attemptFolder(ATTEMPT)}/`;
    s.evidence.push({ id: path.posix.basename(file.key).slice(0, 36), name: file.name, contentType: file.contentType, size: file.size, path: file.key.slice(prefix.length) });
    return steps;
  }).catch(async (err: unknown) => {
    if (stored) await deps.artifacts.delete(stored.key).catch(() => {});
    throw err;
  });
}

/** The store key of one piece of evidence, for its download. */
export async function evidenceKey(deps: ManualDeps, id: string, step: number, evidenceId: string): Promise<{ key: string; name: string; contentType: string }> {
  const w = await openOne(deps, id);
  const e = stepAt(w.steps, step).evidence.find((x) => x.id === evidenceId);
  if (!e) throw new NotFoundError('Evidence not found');
  return { key: `${runTestKey(w.clientId, w.runId, w.runTestId)}/${attemptFolder(ATTEMPT)}/${e.path}`, name: e.name, contentType: e.contentType };
}

export async function removeEvidence(deps: ManualDeps, id: string, step: number, evidenceId: string, me: Tester): Promise<ManualWorkDetailResponse> {
  const { key } = await evidenceKey(deps, id, step, evidenceId);
  const detail = await changeSteps(deps, id, me, (_w, steps) => {
    const s = stepAt(steps, step);
    s.evidence = s.evidence.filter((x) => x.id !== evidenceId);
    return steps;
  });
  await deps.artifacts.delete(key).catch(() => {});
  return detail;
}

/** A piece of work's verdict from its steps: failed, else blocked, else passed. */
export function verdictOf(steps: readonly Pick<ManualStepRow, 'verdict'>[]): 'passed' | 'failed' | 'blocked' {
  if (steps.some((s) => s.verdict === 'failed')) return 'failed';
  if (steps.some((s) => s.verdict === 'blocked')) return 'blocked';
  return 'passed';
}

/** The first step without a verdict before any failed or blocked one (1-based), or null when the work can be submitted. */
export function missingVerdict(steps: readonly Pick<ManualStepRow, 'verdict'>[]): number | null {
  for (let i = 0; i < steps.length; i++) {
    const v = steps[i]!.verdict;
    if (v === 'failed' || v === 'blocked') return null;
    if (v === null) return i + 1;
  }
  return null;
}

export async function submit(deps: ManualDeps, id: string, body: ManualSubmitRequest, me: Tester): Promise<{ verdict: string; testName: string; clientId: string }> {
  const now = new Date();
  const w = await openOne(deps, id);
  assertHeld(w, me, now);
  const missing = missingVerdict(w.steps);
  if (missing !== null) throw new ValidationError(`Step ${missing} has no verdict: pass, fail or block it (the steps after a failed or blocked one may stay unreached)`, `steps.${missing - 1}.verdict`);
  const submitted = await submitWork(deps.db, id, me, body.used, now);
  if (!submitted) throw new ConflictError('Claim this manual work first: your claim ended');
  await finishIfDone(deps, w.runTestId);
  return { verdict: verdictOf(w.steps), testName: w.testName, clientId: w.clientId };
}

/** Copies a step's evidence next to the reports when the store is remote (the reports read local files). */
async function evidenceHere(deps: ManualDeps, rt: { clientId: string; runId: string; id: string }, works: ManualWorkRow[]): Promise<void> {
  const base = runTestKey(rt.clientId, rt.runId, rt.id);
  if (deps.artifacts.localPath(base) !== null) return;
  const dir = path.join(runTestDir(deps.paths, rt.clientId, rt.runId, rt.id), attemptFolder(ATTEMPT));
  for (const e of works.flatMap((w) => w.steps.flatMap((s) => s.evidence))) {
    const file = path.join(dir, e.path);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await deps.artifacts.download(`${base}/${attemptFolder(ATTEMPT)}/${e.path}`, file);
  }
}

/** Once every platform of a case is submitted or not run: the case's result ends its test in the run. */
export async function finishIfDone(deps: ManualDeps, runTestId: string): Promise<void> {
  const works = await workOfRunTest(deps.db, runTestId);
  if (works.length === 0 || works.some((w) => w.status === 'waiting' || w.status === 'claimed')) return;
  const rt = await getRunTest(deps.db, runTestId);
  if (!rt || isTerminal(rt.status)) return;
  const c = await caseOf(deps, rt.runId, rt.testName);
  const executions: ManualExecution[] = works.map((w) => ({
    platform: platformLabel(w.platform),
    used: w.used ? platformLabel(w.used) : null,
    tester: w.testerName,
    startedAt: w.startedAt?.toISOString() ?? null,
    submittedAt: w.submittedAt?.toISOString() ?? null,
    verdict: w.status === 'not-run' ? 'not-run' : verdictOf(w.steps),
    ...(w.status === 'not-run' ? { notRunReason: `not run: no tester executed it on ${platformLabel(w.platform)} by its due time, ${formatUtc(w.dueAt.toISOString())}` } : {}),
    steps: c.steps.map((s, i) => {
      const found = w.steps[i] ?? { verdict: null, note: null, evidence: [] };
      return { action: s.action, expected: s.expected, ...(s.wcag ? { wcag: s.wcag } : {}), verdict: found.verdict, note: found.note, evidence: found.evidence.map((e) => ({ path: e.path, contentType: e.contentType, name: e.name })) };
    }),
  }));
  await evidenceHere(deps, rt, works);
  const result = manualResult(rt.testName, c, executions);
  await finishRunTest(deps, rt, { status: result.status, result, error: result.error ?? null, attempt: ATTEMPT });
}

/** Work past its due time ends as not run, and the cases it ends are finished: run by the workers' maintenance. */
export async function expireOverdueManualWork(deps: ManualDeps): Promise<number> {
  const runTestIds = await expireOverdue(deps.db, new Date());
  for (const id of runTestIds) {
    try {
      await finishIfDone(deps, id);
    } catch (err) {
      deps.log.error({ err, runTestId: id }, 'finishing a manual case past its due time failed');
    }
  }
  return runTestIds.length;
}

/** The client's current suite's manual cases, for its Tests page. */
export async function manualCasesOf(deps: ManualDeps, clientId: string): Promise<ManualCaseListResponse['cases']> {
  const suite = await currentSuite(deps.db, clientId);
  if (!suite) return [];
  return testsOf(suite.manifest, suite.dir)
    .filter((t) => t.kind === 'manual')
    .map((t) => {
      const o = manualInput.parse({ options: t.options, thresholds: {} }).options;
      return {
        testName: t.name,
        group: t.group,
        goal: o.goal,
        preconditions: o.preconditions,
        steps: o.steps.map((s) => ({ action: s.action, expected: s.expected, wcag: s.wcag ?? [] })),
        platforms: o.platforms.map(platformLabel),
        estimateMinutes: o.estimateMinutes,
      };
    });
}
