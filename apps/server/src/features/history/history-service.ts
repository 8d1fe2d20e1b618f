import {
  type RunHistoryDetail,
  type RunHistoryEntry,
  type RunHistoryPage,
  type RunHistoryPageQuery,
} from '@fullstop/contracts';
import type { EngineDeps } from '../engine/index.ts';
import { falsePositiveMatcher } from '../findings/index.ts';
import { listEvidence } from '../evidence/index.ts';
import { flakyFlagsOf } from '../flaky/index.ts';
import { isTerminal, manualWaitingOf, runEventOf, runTestOutcomeOf } from '../runs/index.ts';
import { queuePlacesOf } from '../queue/index.ts';
import { runReportFormatsIn, runReportKey } from '../reports/index.ts';
import { cellCasesOf } from './cell-cases.ts';
import { compareRuns } from './compare-runs.ts';
import { historyPage, historyRun, previousResults, testsOfRun, type HistoryRunRow } from './history-repository.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function entryOf(row: HistoryRunRow): RunHistoryEntry {
  return {
    ...runEventOf(row),
    trigger: row.trigger,
    requestedBy: row.requestedBy,
    durationMs: row.finishedAt ? Math.max(0, row.finishedAt.getTime() - row.createdAt.getTime()) : null,
    testCount: row.testCount,
  };
}

/** GET /test/history: one page of the client's runs, newest first. */
export async function runHistory(deps: Pick<EngineDeps, 'db'>, clientId: string, query: RunHistoryPageQuery): Promise<RunHistoryPage> {
  const { rows, total } = await historyPage(deps.db, clientId, query, { offset: (query.page - 1) * query.pageSize, limit: query.pageSize });
  return { runs: rows.map(entryOf), total, page: query.page, pageSize: query.pageSize };
}

/** GET /test/history/{runId}: the run, each test with its evidence and reports, and what changed since before. */
export async function runHistoryDetail(deps: Pick<EngineDeps, 'db' | 'artifacts' | 'config'>, clientId: string, runId: string): Promise<RunHistoryDetail | null> {
  const run = await historyRun(deps.db, clientId, runId);
  if (!run) return null;
  const tests = await testsOfRun(deps.db, runId);
  const previous = await previousResults(deps.db, clientId, [...new Set(tests.map((t) => t.testName))], run.createdAt, runId);
  const scans = tests.some((t) => t.kind === 'security-scan');
  const isFalsePositive = scans ? await falsePositiveMatcher(deps.db, clientId) : () => false;
  const flaky = await flakyFlagsOf(deps.db, clientId, [...new Set(tests.map((t) => t.testName))]);
  const places = await queuePlacesOf(deps.db, tests.filter((t) => t.status === 'queued').map((t) => t.id));
  const evidenceCounts = await Promise.all(tests.map(async (t) => (t.reportFormats ? (await listEvidence(deps.artifacts, t)).length : 0)));
  return {
    ...entryOf(run),
    tests: tests.map((t, i) => {
      const cases = cellCasesOf(t.summary);
      return {
        ...runTestOutcomeOf(t),
        durationMs: t.durationMs,
        attempts: t.attempts,
        maxAttempts: t.maxAttempts,
        startedAt: iso(t.startedAt),
        finishedAt: iso(t.finishedAt),
        reportFormats: t.reportFormats ?? [],
        evidenceCount: evidenceCounts[i] ?? 0,
        flaky: flaky.get(t.testName) ?? null,
        ...(cases ? { cases } : {}),
        queue: places.get(t.id) ?? null,
      };
    }),
    runReportFormats: run.scope === 'all' ? await runReportFormatsIn(deps.artifacts, runReportKey(clientId, runId), deps.config.reportPdf) : [],
    manual: await manualWaitingOf(deps.db, tests.filter((t) => t.kind === 'manual' && !isTerminal(t.status)).map((t) => t.id)),
    afterDeploy: run.afterDeploy,
    comparison: compareRuns(
      tests.map((t) => ({ testName: t.testName, status: t.status, summary: t.summary ?? null })),
      previous.map((p) => ({ ...p, summary: p.summary ?? null })),
      isFalsePositive,
    ),
  };
}
