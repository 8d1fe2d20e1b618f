import path from 'node:path';
import type { Finding, RunnerResult, RunnerSummary, TestKind } from '@fullstop/engine';
import { type RunReport, writeReports } from '@fullstop/engine';
import type { RunTotals } from '@fullstop/contracts';
import { and, asc, eq, inArray, notInArray } from 'drizzle-orm';
import { clients, engineAttempts, engineRuns, engineRunTests } from '../../../db/schema/index.ts';
import type { EngineDeps } from '../deps.ts';
import { falsePositiveMatcher } from '../alerts/false-positives.ts';
import { isTerminal, runEventOf, TERMINAL_STATUSES, testEventOf } from './mappers.ts';
import { REPORTS_FOLDER, runTestDir } from './run-paths.ts';

type RunTestRow = typeof engineRunTests.$inferSelect;

const ZERO: RunTotals = { totalTests: 0, passedTests: 0, failedTests: 0, skippedTests: 0 };

/**
 * Ends a run test for good: writes its reports (json, html, junit, zip), stores the outcome, then ends the run
 * when this was its last test. Safe to call twice: only the first call that finds it unfinished writes.
 */
export async function finishRunTest(
  deps: EngineDeps,
  rt: RunTestRow,
  outcome: { status: 'passed' | 'failed' | 'error'; result: RunnerResult | null; error: string | null; attempt: number },
): Promise<void> {
  const [current] = await deps.db.select().from(engineRunTests).where(eq(engineRunTests.id, rt.id)).limit(1);
  if (!current || isTerminal(current.status)) return;
  const finishedAt = new Date();
  const dir = runTestDir(deps.paths, rt.clientId, rt.runId, rt.id);
  const outDir = path.join(dir, REPORTS_FOLDER);
  const totals = outcome.result?.totals ?? ZERO;
  const durationMs = Math.round(outcome.result?.durationMs ?? finishedAt.getTime() - (current.startedAt ?? finishedAt).getTime());
  let formats: string[] = [];
  try {
    const report = await buildReport(deps, current, outcome, totals, durationMs, finishedAt);
    const { mkdir } = await import('node:fs/promises');
    await mkdir(outDir, { recursive: true });
    formats = Object.keys(await writeReports(report, { runDir: dir, outDir }));
  } catch (err) {
    deps.log.error({ err, runTestId: rt.id }, 'writing reports failed');
  }
  const [updated] = await deps.db
    .update(engineRunTests)
    .set({
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
    })
    .where(and(eq(engineRunTests.id, rt.id), notInArray(engineRunTests.status, [...TERMINAL_STATUSES])))
    .returning();
  if (!updated) return;
  deps.bus.emit(rt.clientId, { type: 'test', data: testEventOf(updated) });
  deps.onResultsChanged(rt.clientId);
  await finishRunIfDone(deps, rt.runId);
}

/** When every test of the run has ended: the run's totals and status (error > failed > passed). */
export async function finishRunIfDone(deps: EngineDeps, runId: string): Promise<void> {
  const tests = await deps.db.select().from(engineRunTests).where(eq(engineRunTests.runId, runId));
  if (tests.length === 0 || !tests.every((t) => isTerminal(t.status))) return;
  const totals = tests.reduce<RunTotals>(
    (acc, t) => ({
      totalTests: acc.totalTests + (t.totals?.totalTests ?? 0),
      passedTests: acc.passedTests + (t.totals?.passedTests ?? 0),
      failedTests: acc.failedTests + (t.totals?.failedTests ?? 0),
      skippedTests: acc.skippedTests + (t.totals?.skippedTests ?? 0),
    }),
    { ...ZERO },
  );
  const statuses = new Set(tests.map((t) => t.status));
  const status = statuses.has('error') ? 'error' : statuses.has('failed') ? 'failed' : statuses.has('cancelled') ? 'cancelled' : 'passed';
  const [run] = await deps.db
    .update(engineRuns)
    .set({ status, totals, finishedAt: new Date() })
    .where(and(eq(engineRuns.id, runId), inArray(engineRuns.status, ['queued', 'running'])))
    .returning();
  if (run) deps.bus.emit(run.clientId, { type: 'run', data: runEventOf(run) });
}

async function buildReport(
  deps: EngineDeps,
  rt: RunTestRow,
  outcome: { status: 'passed' | 'failed' | 'error'; result: RunnerResult | null; error: string | null; attempt: number },
  totals: RunTotals,
  durationMs: number,
  finishedAt: Date,
): Promise<RunReport> {
  const [client] = await deps.db.select({ name: clients.name, website: clients.website }).from(clients).where(eq(clients.id, rt.clientId)).limit(1);
  const attempts = await deps.db
    .select()
    .from(engineAttempts)
    .where(eq(engineAttempts.runTestId, rt.id))
    .orderBy(asc(engineAttempts.attempt));
  let summary: RunnerSummary | null = outcome.result?.summary ?? null;
  let falsePositives: Finding[] | undefined;
  if (summary && summary.kind === 'security-scan') {
    const isFalse = await falsePositiveMatcher(deps.db, rt.clientId);
    falsePositives = summary.findings.filter(isFalse);
    summary = { ...summary, findings: summary.findings.filter((f) => !isFalse(f)) };
  }
  const prefix = `attempt-${outcome.attempt}/`;
  return {
    clientName: client?.name ?? rt.clientId,
    testName: rt.testName,
    group: rt.groupName,
    kind: rt.kind as TestKind,
    runId: rt.runId,
    status: outcome.status,
    totals,
    durationMs,
    startedAt: (rt.startedAt ?? rt.createdAt).toISOString(),
    finishedAt: finishedAt.toISOString(),
    target: client?.website ?? '',
    summary,
    error: outcome.error,
    artifacts: (outcome.result?.artifacts ?? []).map((a) => ({ ...a, path: prefix + a.path })),
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
