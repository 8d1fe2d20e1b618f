import { z } from 'zod';
import { idString } from './common.ts';
import { isoDateTime, text } from './text.ts';
import { runManualWaiting } from './manual.ts';

/** GET /test/fetch/all: group name to the names of its tests. */
export const testGroups = z.record(z.string(), z.array(z.string()));
export type TestGroups = z.infer<typeof testGroups>;

/** GET /test/run/all and /test/run/{testName}: queued at once, the portal shows the message. */
export const runQueuedResponse = z.object({
  message: z.string(),
  runId: z.string(),
});
export type RunQueuedResponse = z.infer<typeof runQueuedResponse>;

export const runStatus = z.enum(['queued', 'running', 'passed', 'failed', 'error', 'cancelled']);
export type RunStatus = z.infer<typeof runStatus>;

/** The status of one attempt of one test. */
export const attemptStatus = z.enum(['running', 'passed', 'failed', 'error']);
export type AttemptStatus = z.infer<typeof attemptStatus>;

export const runTotals = z.object({
  totalTests: z.number().int(),
  passedTests: z.number().int(),
  failedTests: z.number().int(),
  skippedTests: z.number().int(),
});
export type RunTotals = z.infer<typeof runTotals>;

/**
 * Where a queued test stands (issue 39): its place in the queue every client shares (1: the next to start) and
 * about how long until it starts, from the tests ahead and their kinds' recent durations. Null once it runs.
 */
export const queuePlace = z.object({ position: z.number().int().min(1), startsInSeconds: z.number().int().min(0) });
export type QueuePlace = z.infer<typeof queuePlace>;

/** One test's outcome in a run. */
const testOutcome = z.object({
  testName: z.string(),
  status: runStatus,
  totals: runTotals.nullable(),
  error: z.string().nullable(),
});

/** A test's outcome with where it stands in the suite and in the run (`runTestId` names it in the run's calls). */
export const runTestOutcome = testOutcome.extend({ runTestId: z.string(), group: z.string(), kind: z.string() });
export type RunTestOutcome = z.infer<typeof runTestOutcome>;

/** With ?wait=true: the run's outcome, so a client's CI can gate a deploy on it. */
export const runResultResponse = z.object({
  message: z.string(),
  runId: z.string(),
  status: runStatus,
  passed: z.boolean(),
  totals: runTotals,
  tests: z.array(testOutcome),
});
export type RunResultResponse = z.infer<typeof runResultResponse>;

/** `?wait=true` blocks until the run ends; `timeout` caps the wait (seconds), after which the answer says "still running". */
export const runQuery = z.object({
  wait: z
    .enum(['true', 'false', '1', '0'], { error: 'wait must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
  timeout: z.coerce.number({ error: 'timeout must be a number of seconds' }).int().min(1).max(3600).optional(),
  /** `automatedOnly=true`: leave the suite's manual cases out (a CI gate that cannot wait for a tester). */
  automatedOnly: z
    .enum(['true', 'false', '1', '0'], { error: 'automatedOnly must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
  /** `afterDeploy=true`: a deploy's run; once it ends the site is crawled again for a patch of the suite (issue 42). */
  afterDeploy: z
    .enum(['true', 'false', '1', '0'], { error: 'afterDeploy must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

export const testNameParams = z.object({
  testName: text('testName').min(1, { error: 'testName is required' }).max(100, { error: 'testName must be at most 100 characters' }),
});

/** One entry of the run history (GET /test/runs). */
export const runSummary = z.object({
  runId: z.string(),
  scope: z.string(),
  status: runStatus,
  totals: runTotals.nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type RunSummary = z.infer<typeof runSummary>;

export const runHistoryQuery = z.object({
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(200).default(20),
  before: isoDateTime('before').optional(),
});

export const runHistoryResponse = z.object({ runs: z.array(runSummary) });
export type RunHistoryResponse = z.infer<typeof runHistoryResponse>;

/**
 * Issue 10: a test flagged flaky (it passed on retry, or its result flipped at least twice in its last 10 runs on
 * one suite version), by detection or by an operator; `confirmed` once an operator confirmed it. Null: not flagged.
 */
export const testFlaky = z.object({
  reason: z.string(),
  source: z.enum(['detected', 'operator']),
  confirmed: z.boolean(),
  /** When it was flagged (detection: the last time it was found flaky). */
  since: z.string(),
});
export type TestFlaky = z.infer<typeof testFlaky>;

/** One attempt of one test of a run, kept even when a retry followed. */
export const runAttempt = z.object({
  attempt: z.number().int(),
  status: attemptStatus,
  workerId: z.string(),
  error: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});

/** GET /test/runs/{runId}: the run's outcome plus every test's attempts. */
export const runDetailResponse = runResultResponse.extend({
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** `runTestId` is for the test's evidence (GET /test/runs/{runId}/tests/{runTestId}/evidence). */
  tests: z.array(
    runTestOutcome.extend({ durationMs: z.number().nullable(), attempts: z.array(runAttempt), queue: queuePlace.nullable().optional() }),
  ),
  /** Its manual cases still waiting for a tester (issue 41), and when the soonest is due; null when none waits. */
  manual: runManualWaiting.nullable().optional(),
});
export type RunDetailResponse = z.infer<typeof runDetailResponse>;

/** POST /test/events/token: a short-lived token for `GET /test/events?token=` (EventSource cannot send headers). */
export const eventsTokenResponse = z.object({ token: z.string(), expiresIn: z.number().int() });
export type EventsTokenResponse = z.infer<typeof eventsTokenResponse>;

/**
 * GET /test/events (server-sent events, JSON in each `data:` line). `test`: one test of a run changed; a test
 * going back to `queued` after `running` means an attempt errored and a retry is queued. `run`: a whole run
 * changed. `snapshot`: sent first on connect, the latest event of each test.
 */
export const testEvent = runTestOutcome.extend({
  runId: z.string(),
  attempt: z.number().int(),
  maxAttempts: z.number().int(),
  progress: z.object({ done: z.number(), total: z.number(), message: z.string().optional() }).nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** While it waits: its place in the queue; events are sent again as the queue moves. */
  queue: queuePlace.nullable().optional(),
});
export type TestEvent = z.infer<typeof testEvent>;

/** A whole run changed: the same fields as its entry in the run history. */
export const runEvent = runSummary;
export type RunEvent = RunSummary;

export const testEventsSnapshot = z.object({ tests: z.record(z.string(), testEvent) });
export type TestEventsSnapshot = z.infer<typeof testEventsSnapshot>;

/** Operator API: a suite folder as JSON, each file's content in UTF-8 or base64. */
export const suiteImportRequest = z.object({
  files: z
    .array(
      z.object({
        path: text('path').min(1, { error: 'path is required' }).max(300, { error: 'path must be at most 300 characters' }),
        content: text('content'),
        encoding: z.enum(['utf8', 'base64']).default('utf8'),
      }),
    )
    .min(1, { error: 'files must list at least the manifest, suite.json' })
    .max(200, { error: 'files may list at most 200 files' }),
});
export type SuiteImportRequest = z.infer<typeof suiteImportRequest>;

export const suiteIssue = z.object({ file: z.string(), field: z.string(), reason: z.string() });

export const suiteImportResponse = z.object({
  message: z.string(),
  version: z.number().int(),
  tests: z.number().int(),
  groups: testGroups,
});
export type SuiteImportResponse = z.infer<typeof suiteImportResponse>;

/** A refused import: the message lists every problem, `issues` has them one by one. */
export const suiteInvalidResponse = z.object({
  message: z.string(),
  code: z.string(),
  issues: z.array(suiteIssue),
});

export const suiteHistoryResponse = z.object({
  versions: z.array(
    z.object({ version: z.number().int(), fileCount: z.number().int(), importedBy: z.string().nullable(), createdAt: z.string() }),
  ),
});

/** Operator API: run a client's tests (all, or one by name). */
export const operatorRunRequest = z.object({
  testName: text('testName').min(1, { error: 'testName is required' }).max(100, { error: 'testName must be at most 100 characters' }).optional(),
  wait: z.boolean().default(false),
  timeout: z.number().int().min(1).max(3600).optional(),
  /** Leave the suite's manual cases out (issue 41). */
  automatedOnly: z.boolean({ error: 'automatedOnly must be true or false' }).default(false),
  /** A deploy's run: once it ends, the site is crawled again for a patch of the suite (issue 42). */
  afterDeploy: z.boolean({ error: 'afterDeploy must be true or false' }).default(false),
});

/** POST /test/runs/{runId}/cancel (and one test's, and the operator's): what was stopped. */
export const runCancelResponse = z.object({
  message: z.string(),
  runId: z.string(),
  /** The run tests this call cancelled (queued ones never start; running ones are stopped within seconds). */
  cancelled: z.number().int(),
});
export type RunCancelResponse = z.infer<typeof runCancelResponse>;

export const runCancelParams = z.object({ runId: idString });
export const runTestCancelParams = z.object({ runId: idString, runTestId: idString });

export const targetOriginRequest = z.object({
  origin: text('origin').min(1, { error: 'origin is required' }).max(300, { error: 'origin must be at most 300 characters' }),
});
export const targetOriginsResponse = z.object({ website: z.string(), origins: z.array(z.string()) });

/**
 * How the error of a security scan that ran but could not attack everything begins (a scanner module crashed):
 * the portal shows it as an incomplete scan, not as a test that could not run.
 */
export const SCAN_INCOMPLETE_ERROR = 'The scan is incomplete';
/**
 * How the error of a security scan that ran but found nothing to attack begins (no URL with parameters, no form, no
 * JSON call): never "passed", a scan of nothing proves nothing (issue 38). An incomplete scan in the extreme: it
 * attacked none of the site, so every check of an incomplete scan holds it too.
 */
export const SCAN_NOTHING_TO_ATTACK_ERROR = 'The scan had nothing to attack';
/** A scan that ran with no verdict: incomplete, or with nothing to attack. */
export const isIncompleteScanError = (error: string | null | undefined): boolean =>
  Boolean(error?.startsWith(SCAN_INCOMPLETE_ERROR) || error?.startsWith(SCAN_NOTHING_TO_ATTACK_ERROR));
export const isNothingToAttackError = (error: string | null | undefined): boolean => Boolean(error?.startsWith(SCAN_NOTHING_TO_ATTACK_ERROR));
/** Such a scan's status in words: "Incomplete scan" or "Nothing to attack"; null for any other test. */
export function incompleteScanWords(status: string, error: string | null | undefined): 'Incomplete scan' | 'Nothing to attack' | null {
  if (status !== 'error' || !isIncompleteScanError(error)) return null;
  return isNothingToAttackError(error) ? 'Nothing to attack' : 'Incomplete scan';
}
