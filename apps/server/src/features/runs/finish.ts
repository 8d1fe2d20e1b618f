import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Artifact, Finding, RunnerResult, RunnerSummary } from '@fullstop/engine';
import { offeredFormats, type RunReport, writeReports } from '@fullstop/engine';
import type { RunTotals } from '@fullstop/contracts';
import type { EngineDeps } from '../engine/index.ts';
import { falsePositiveMatcher } from '../findings/index.ts';
import { findClient } from '../accounts/index.ts';
import { attemptsOf } from './attempt-repository.ts';
import { detectFlaky } from '../flaky/index.ts';
import { anyHealed, proposeHealsOfRun } from '../healing/index.ts';
import { earlierAttemptArtifacts, fetchEarlierAttempts } from '../flaky/index.ts';
import { isTerminal, runEventOf, testEventOf, ZERO_TOTALS } from './mappers.ts';
import { publishFolder, REPORTS_FOLDER, runTestDir, runTestKey } from '../../lib/run-paths.ts';
import { queueMoved } from './queue-moves.ts';
import { writeRunReportOf } from './run-report.ts';
import { findClientRun, finishRun, getRunTest, runTestsOf, type RunTestRow, updateRunTest } from './run-repository.ts';

type Outcome = { status: 'passed' | 'failed' | 'error'; result: RunnerResult | null; error: string | null; attempt: number };

/**
 * Ends a run test for good: writes its reports (json, html, junit, zip; no browser: the pdf, listed when
 * enabled, is printed on its first download), stores the outcome, then ends the run when this was its last test.
 * Safe to call twice: only the first call that finds it unfinished writes.
 * Called by the worker that ran the test (or the reaper), never while a request waits.
 */
export async function finishRunTest(
  deps: EngineDeps,
  rt: RunTestRow,
  outcome: Outcome,
): Promise<void> {
  const current = await getRunTest(deps.db, rt.id);
  if (!current || isTerminal(current.status)) return;
  const finishedAt = new Date();
  const dir = runTestDir(deps.paths, rt.clientId, rt.runId, rt.id);
  const outDir = path.join(dir, REPORTS_FOLDER);
  const totals = outcome.result?.totals ?? ZERO_TOTALS;
  const durationMs = Math.round(outcome.result?.durationMs ?? finishedAt.getTime() - (current.startedAt ?? finishedAt).getTime());
  let formats: string[] = [];
  try {
    await fetchEarlierAttempts(deps.artifacts, runTestKey(rt.clientId, rt.runId, rt.id), dir, outcome.attempt);
    const report = await buildReport(deps, current, {
      status: outcome.status,
      summary: outcome.result?.summary ?? null,
      error: outcome.error,
      totals,
      durationMs,
      finishedAt,
      artifacts: [
        ...(await earlierAttemptArtifacts(dir, outcome.attempt)),
        ...(outcome.result?.artifacts ?? []).map((a) => ({ ...a, path: `attempt-${outcome.attempt}/${a.path}` })),
      ],
    });
    await mkdir(outDir, { recursive: true, mode: 0o700 });
    formats = offeredFormats(await writeReports(report, { runDir: dir, outDir }), { pdf: deps.config.reportPdf });
  } catch (err) {
    deps.log.error({ err, runTestId: rt.id }, 'writing reports failed');
  }
  // Before the row says "finished": whoever reads it then finds the reports in the store.
  await publishFolder(deps, runTestKey(rt.clientId, rt.runId, rt.id), dir);
  const updated = await updateRunTest(
    deps.db,
    rt.id,
    {
      status: outcome.status,
      totals: outcome.result ? totals : null,
      summary: outcome.result?.summary ?? null,
      durationMs,
      error: outcome.error,
      progress: null,
      reportDir: formats.length ? outDir : null,
      reportFormats: formats.length ? formats : null,
      finishedAt,
      updatedAt: finishedAt,
    },
    { notFinished: true },
  );
  if (!updated) return;
  // Flaky detection (issue 10) here rather than in a listener: it must hold in whichever process finished the test.
  try {
    await detectFlaky(deps.db, deps.log, updated);
  } catch (err) {
    deps.log.error({ err, runTestId: rt.id }, 'flaky detection failed');
  }
  deps.bus.emit(rt.clientId, { type: 'test', data: testEventOf(updated) });
  queueMoved(deps);
  deps.onResultsChanged(rt.clientId);
  await finishRunIfDone(deps, rt.runId);
}

/** When every test of the run has ended: the run's totals and status (error > failed > passed). */
export async function finishRunIfDone(deps: EngineDeps, runId: string): Promise<void> {
  const tests = await runTestsOf(deps.db, runId);
  if (tests.length === 0 || !tests.every((t) => isTerminal(t.status))) return;
  const totals = tests.reduce<RunTotals>(
    (acc, t) => ({
      totalTests: acc.totalTests + (t.totals?.totalTests ?? 0),
      passedTests: acc.passedTests + (t.totals?.passedTests ?? 0),
      failedTests: acc.failedTests + (t.totals?.failedTests ?? 0),
      skippedTests: acc.skippedTests + (t.totals?.skippedTests ?? 0),
    }),
    { ...ZERO_TOTALS },
  );
  const statuses = new Set(tests.map((t) => t.status));
  const status = statuses.has('error') ? 'error' : statuses.has('failed') ? 'failed' : statuses.has('cancelled') ? 'cancelled' : 'passed';
  const finishedAt = new Date();
  // The run report before the row says "ended": whoever sees the run ended (an event, `?wait=true`, another process
  // reading the row) finds its report in the store. Two processes ending the last tests together may both write
  // it; the later write replaces the earlier, whole.
  const pending = await findClientRun(deps.db, tests[0]!.clientId, runId);
  if (pending?.scope === 'all' && !isTerminal(pending.status)) await writeRunReportOf(deps, { ...pending, status, totals, finishedAt }, tests, buildReport);
  // Its healed locators as one proposed suite version (decision 0101), there when the run says it ended; never fails it.
  if (pending && !isTerminal(pending.status) && anyHealed(tests)) {
    await proposeHealsOfRun(deps, runId).catch((err: unknown) => deps.log.error({ err, runId }, 'proposing the healed locators failed'));
  }
  const run = await finishRun(deps.db, runId, { status, totals, finishedAt });
  if (!run) return;
  deps.bus.emit(run.clientId, { type: 'run', data: runEventOf(run) });
  if (run.scope === 'all') deps.onResultsChanged(run.clientId);
  for (const listener of deps.runFinished) {
    try {
      await listener(run);
    } catch (err) {
      deps.log.error({ err, runId }, 'a run-finished listener failed');
    }
  }
}

/** What one test's report is made of beyond its row. */
export interface ReportInput {
  status: RunReport['status'];
  summary: RunnerSummary | null;
  error: string | null;
  totals: RunTotals;
  durationMs: number;
  finishedAt: Date;
  artifacts: Artifact[];
}

/** One test's RunReport: its row, its client, its attempts, and false positives set apart (security scans). */
export async function buildReport(deps: EngineDeps, rt: RunTestRow, input: ReportInput): Promise<RunReport> {
  const client = await findClient(deps.db, rt.clientId);
  const attempts = await attemptsOf(deps.db, rt.id);
  let summary: RunnerSummary | null = input.summary;
  let falsePositives: Finding[] | undefined;
  if (summary && summary.kind === 'security-scan') {
    const isFalse = await falsePositiveMatcher(deps.db, rt.clientId);
    falsePositives = summary.findings.filter(isFalse);
    summary = { ...summary, findings: summary.findings.filter((f) => !isFalse(f)) };
  }
  return {
    clientName: client?.name ?? rt.clientId,
    testName: rt.testName,
    group: rt.groupName,
    kind: rt.kind,
    runId: rt.runId,
    status: input.status,
    totals: input.totals,
    durationMs: input.durationMs,
    startedAt: (rt.startedAt ?? rt.createdAt).toISOString(),
    finishedAt: input.finishedAt.toISOString(),
    target: client?.website ?? '',
    summary,
    error: input.error,
    artifacts: input.artifacts,
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      status: a.status,
      startedAt: a.startedAt.toISOString(),
      finishedAt: a.finishedAt?.toISOString() ?? null,
      error: a.error,
      logPath: a.logPath,
    })),
    ...(falsePositives ? { falsePositives } : {}),
  };
}
