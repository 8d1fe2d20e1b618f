import { z } from 'zod';
import { idString, pageCounts } from './common.ts';
import { reportFileParams, securityAlert } from './reports.ts';
import { isoDateTime, text } from './text.ts';
import { queuePlace, runStatus, runSummary, runTestOutcome, testFlaky } from './tests.ts';
import { runManualWaiting } from './manual.ts';

// Run history, comparison between runs, the latest result of each test and the insight trends: what the portal's
// History, run detail, Tests and Insights pages read beyond the spec's calls.

/** Who or what started a run: the portal's buttons, the API with the client's key, a CI job, a schedule, an operator. */
export const runTrigger = z.enum(['portal', 'api', 'ci', 'schedule', 'operator']);
export type RunTrigger = z.infer<typeof runTrigger>;

/** A run started with the client's API key from a CI job says so with this header (value `ci`); `fullstop run` does. */
export const RUN_TRIGGER_HEADER = 'x-fullstop-trigger';

/** The group and name under which the report of a whole "Run all" is listed on the Reports page. */
export const RUN_REPORT_GROUP = 'Full runs';
export const RUN_REPORT_NAME = 'Run all tests';

/** One run in the history: the run summary plus who started it, how, and how long it took. */
export const runHistoryEntry = runSummary.extend({
  trigger: runTrigger,
  /** A person's name or email for portal and operator runs; null for the API, CI and schedules. */
  requestedBy: z.string().nullable(),
  /** From the run's creation to its end; null while it runs. */
  durationMs: z.number().nullable(),
  testCount: z.number().int(),
});
export type RunHistoryEntry = z.infer<typeof runHistoryEntry>;

/** GET /test/history: newest first, `page` counts from 1; `status` and `test` narrow the list. */
export const runHistoryPageQuery = z.object({
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, { error: 'page must be at least 1' }).max(10_000).default(1),
  pageSize: z.coerce
    .number({ error: 'pageSize must be a number' })
    .int()
    .min(1, { error: 'pageSize must be at least 1' })
    .max(100, { error: 'pageSize must be at most 100' })
    .default(20),
  status: runStatus.optional(),
  /** Only runs that included this test. */
  test: text('test').min(1).max(100, { error: 'test must be at most 100 characters' }).optional(),
  before: isoDateTime('before').optional(),
});
export type RunHistoryPageQuery = z.infer<typeof runHistoryPageQuery>;

export const runHistoryPage = z.object({
  runs: z.array(runHistoryEntry),
  ...pageCounts.shape,
});
export type RunHistoryPage = z.infer<typeof runHistoryPage>;

/** A security alert in a comparison: enough to name it and find it. */
export const alertRef = securityAlert.pick({ ruleId: true, name: true, risk: true, url: true }).extend({
  testName: z.string(),
  /** The parameter or cookie concerned; with ruleId and url, what makes two alerts the same. */
  param: z.string().nullable(),
});
export type AlertRef = z.infer<typeof alertRef>;

/** What changed since the previous finished run that covered the same tests. */
export const runComparison = z.object({
  previousRunId: z.string().nullable(),
  previousRunAt: z.string().nullable(),
  newlyFailing: z.array(z.string()),
  fixed: z.array(z.string()),
  stillFailing: z.array(z.string()),
  newAlerts: z.array(alertRef),
  resolvedAlerts: z.array(alertRef),
});
export type RunComparison = z.infer<typeof runComparison>;

/**
 * One case of a browser test that ran on several engines or devices (issue 26): `cell` is `<engine>/<device>`
 * (more parts may follow, split on '/'), and `name` is the case's name without the ` [cell]` the runner added.
 */
export const runTestCase = z.object({
  name: z.string(),
  status: z.enum(['passed', 'failed', 'skipped']),
  cell: z.string().optional(),
  error: z.string().nullable(),
});
export type RunTestCase = z.infer<typeof runTestCase>;

/**
 * The latest finished result of one test, for the Tests page, the dashboard home and Insights; `error` says why a
 * test that ended `error` could not run (e.g. the engine it needs is not installed), null otherwise.
 */
export const testLatestResult = runTestOutcome.extend({
  durationMs: z.number().nullable(),
  finishedAt: z.string().nullable(),
  runId: z.string(),
  /** Formats of this test's latest report (open with GET /report/fetch/{testName}/{format}). */
  reportFormats: z.array(z.string()),
  /** Flagged flaky (issue 10); absent from older servers. */
  flaky: testFlaky.nullable().optional(),
  /** Its cases, only when they ran in cells (engines × devices); absent for every other test, as before. */
  cases: z.array(runTestCase).optional(),
});
export type TestLatestResult = z.infer<typeof testLatestResult>;

/** GET /test/latest: one entry per test of the current suite that has run at least once. */
export const testLatestResponse = z.object({ tests: z.array(testLatestResult) });
export type TestLatestResponse = z.infer<typeof testLatestResponse>;

const trendPoint = z.object({ runId: z.string(), at: z.string() });

/**
 * GET /insight/trends: for each insight card, the date of the run its figures come from and up to the last 20
 * runs of its kind, oldest first. The spec's GET /insight/fetch/all stays exactly as it is.
 */
export const insightTrends = z.object({
  load: z
    .object({
      runAt: z.string(),
      points: z.array(trendPoint.extend({ p95Ms: z.number(), averageMs: z.number(), failedRate: z.number() })),
    })
    .optional(),
  zap: z
    .object({
      runAt: z.string(),
      points: z.array(
        trendPoint.extend({ High: z.number().int(), Medium: z.number().int(), Low: z.number().int(), Informational: z.number().int() }),
      ),
    })
    .optional(),
  'frontend-report': z.object({ runAt: z.string(), points: z.array(trendPoint.extend({ passRate: z.number() })) }).optional(),
  'security-report': z.object({ runAt: z.string(), points: z.array(trendPoint.extend({ passRate: z.number() })) }).optional(),
});
export type InsightTrends = z.infer<typeof insightTrends>;

export const TREND_RUNS = 20;

/** GET /test/history/{runId}: the run detail with who started it, each test's evidence and reports, and the comparison. */
export const runHistoryDetail = runHistoryEntry.extend({
  tests: z.array(
    runTestOutcome.extend({
      durationMs: z.number().nullable(),
      attempts: z.number().int(),
      maxAttempts: z.number().int(),
      startedAt: z.string().nullable(),
      finishedAt: z.string().nullable(),
      /** Formats of this run's own report of the test (GET /test/history/{runId}/tests/{runTestId}/report/{format}). */
      reportFormats: z.array(z.string()),
      /** Evidence files (traces, screenshots) this test left, for GET .../evidence. */
      evidenceCount: z.number().int(),
      /** Flagged flaky now (issue 10); absent from older servers. */
      flaky: testFlaky.nullable().optional(),
      /** Its cases, only when they ran in cells (engines × devices); absent for every other test, as before. */
      cases: z.array(runTestCase).optional(),
      /** While it waits: its place in the queue and about when it starts (issue 39); absent from older servers. */
      queue: queuePlace.nullable().optional(),
    }),
  ),
  /** Formats of the whole run's report, when the run covered every test. */
  runReportFormats: z.array(z.string()),
  comparison: runComparison,
  /** Its manual cases still waiting for a tester (issue 41); null when none waits, absent from older servers. */
  manual: runManualWaiting.nullable().optional(),
  /** A deploy's run (afterDeploy=true): GET /test/runs/{runId}/after-deploy says what followed it (issue 42). */
  afterDeploy: z.boolean().optional(),
});
export type RunHistoryDetail = z.infer<typeof runHistoryDetail>;

export const historyRunParams = z.object({ runId: idString });
/** POST /test/history/{runId}/tests/{runTestId}/report/{format}/link: that run's own report of the test. */
export const historyReportParams = z.object({ runId: idString, runTestId: idString, format: reportFileParams.shape.format });
/** POST /test/history/{runId}/report/{format}/link: the report of a whole run (Run all), html or pdf. */
export const historyRunReportParams = z.object({ runId: idString, format: reportFileParams.shape.format });

/** How a run's scope is stored: 'all', one test's name, or this prefix and a group's name (scheduled group runs). */
export const GROUP_SCOPE_PREFIX = 'group:';

/** A run's scope in words: "All tests", "Group Checkout", or the test's name. */
export function runScopeLabel(scope: string): string {
  if (scope === 'all') return 'All tests';
  if (scope.startsWith(GROUP_SCOPE_PREFIX)) return `Group ${scope.slice(GROUP_SCOPE_PREFIX.length)}`;
  return scope;
}
