import { randomUUID } from 'node:crypto';
import { testsOf } from '@fullstop/engine';
import { kinds, weightAddedBy } from '@fullstop/engine/kinds';
import { GROUP_SCOPE_PREFIX, type RunResultResponse } from '@fullstop/contracts';
import { NotFoundError } from '../../lib/errors.ts';
import type { EngineDeps } from '../engine/index.ts';
import { RUN_QUEUE, type RunJobData } from '../queue/index.ts';
import { drizzleBossDb } from '../queue/index.ts';
import { currentSuite, type SuiteRow } from '../suites/index.ts';
import { isTerminal, runEventOf, runResultOf, testEventOf } from './mappers.ts';
import { insertRun, lastDurations, runDetail, runStatusOf } from './run-repository.ts';
import type { RunOrigin } from './run-origin.ts';
import { queueMoved } from './queue-moves.ts';
import { planManualWork } from './manual-work-repository.ts';

/** pg-boss expires a job this long after its kind's time limit: the engine stops it first, this is the backstop. */
const EXPIRY_MARGIN_SECONDS = 120;
const WAIT_POLL_MS = 500;


export interface QueuedRun {
  runId: string;
  testCount: number;
}

type SuiteTestDefinition = ReturnType<typeof testsOf>[number];

/**
 * What a run runs: all of the suite, one group or one test; `automatedOnly` leaves its manual cases out (issue 41);
 * `afterDeploy` marks a deploy's run, followed by a re-crawl once it ends (issue 42, features/after-deploy).
 */
export interface RunScope {
  testName?: string;
  groupName?: string;
  automatedOnly?: boolean;
  afterDeploy?: boolean;
}

/** The tests a run of this scope runs: all of the suite's, one group's or one test's; 404 when none is left. */
export function testsOfScope(suite: SuiteRow, scope: RunScope): SuiteTestDefinition[] {
  let tests = testsOf(suite.manifest, suite.dir);
  if (scope.automatedOnly) {
    tests = tests.filter((t) => t.kind !== 'manual');
    if (tests.length === 0) throw new NotFoundError('No automated tests: every test of this run is a manual case');
  }
  if (scope.testName !== undefined) {
    tests = tests.filter((t) => t.name === scope.testName);
    if (tests.length === 0) throw new NotFoundError(`Test "${scope.testName}" not found`);
  }
  if (scope.groupName !== undefined) {
    tests = tests.filter((t) => t.group === scope.groupName);
    if (tests.length === 0) throw new NotFoundError(`Group "${scope.groupName}" not found`);
  }
  return tests;
}

/** engine_runs.scope: 'all', the test's name, or GROUP_SCOPE_PREFIX and the group's name. */
export function runScopeText(scope: { testName?: string; groupName?: string }): string {
  return scope.testName ?? (scope.groupName !== undefined ? `${GROUP_SCOPE_PREFIX}${scope.groupName}` : 'all');
}

/**
 * The run's test rows and their pg-boss jobs (one per test, the job's id written on the row). A manual case has no
 * job: it waits for a tester (manual-work-repository.ts), and is tried once.
 */
export function planRunTests(deps: EngineDeps, clientId: string, runId: string, tests: SuiteTestDefinition[], lastSeconds: Map<string, number>) {
  return tests.map((t) => {
    if (t.kind === 'manual') {
      return { row: { id: randomUUID(), runId, clientId, testName: t.name, groupName: t.group, kind: t.kind, jobId: null, maxAttempts: 1 }, job: null, options: t.options };
    }
    const retries = t.retries ?? deps.config.retries;
    const row = { id: randomUUID(), runId, clientId, testName: t.name, groupName: t.group, kind: t.kind, jobId: randomUUID(), maxAttempts: retries + 1 };
    // A test on several cells side by side weighs more in the queue's capacity (queue/capacity.ts, decisions 0078,
    // 0086); one whose cells run one at a time weighs one cell; a paced load test weighs its pace (0088).
    const weightAdded = weightAddedBy(t.options, t.kind);
    const data: RunJobData = { runTestId: row.id, clientId, ...(weightAdded !== 0 ? { weightAdded } : {}) };
    return {
      row,
      job: {
        name: RUN_QUEUE,
        data,
        id: row.jobId,
        retryLimit: retries,
        retryDelay: deps.config.retryDelaySeconds,
        expireInSeconds: (t.timeoutSeconds ?? kinds[t.kind].timeLimitSeconds) + EXPIRY_MARGIN_SECONDS,
        priority: Math.min(3600, lastSeconds.get(t.name) ?? kinds[t.kind].typicalSeconds),
      },
      options: t.options,
    };
  });
}

/**
 * Queues every test of the client's current suite (or of `scope.suite`, an operator's trial of another version),
 * or one test by name: the run, its tests and their jobs are written in one transaction, so a crash can never
 * leave a run without jobs or jobs without a run.
 */
export async function queueRun(
  deps: EngineDeps,
  clientId: string,
  scope: RunScope & { suite?: SuiteRow },
  origin: RunOrigin,
): Promise<QueuedRun> {
  const suite = scope.suite ?? (await currentSuite(deps.db, clientId));
  if (suite && suite.clientId !== clientId) throw new NotFoundError('Suite not found');
  if (!suite) throw new NotFoundError('No tests available: this client has no test suite yet');
  const tests = testsOfScope(suite, scope);
  const boss = await deps.boss();
  const runId = randomUUID();
  // Longest first: with fewer workers than tests, starting the long tests first keeps run-all close to its
  // longest test (the classic LPT order). A test's last duration is its estimate; pg-boss takes higher priority first.
  const lastSeconds = tests.length > 1 ? await lastDurations(deps.db, clientId) : new Map<string, number>();
  const rows = planRunTests(deps, clientId, runId, tests, lastSeconds);
  const inserted = await deps.db.transaction(async (tx) => {
    const written = await insertRun(
      tx,
      { id: runId, clientId, suiteId: suite.id, scope: runScopeText(scope), ...origin, ...(scope.afterDeploy ? { afterDeploy: { startedAt: null, proposalId: null, note: null } } : {}) },
      rows.map((r) => r.row),
    );
    const bossDb = drizzleBossDb(tx);
    for (const r of rows) {
      if (!r.job) continue;
      const { name, data, ...options } = r.job;
      await boss.send(name, data, { ...options, db: bossDb });
    }
    await planManualWork(tx, clientId, rows.filter((r) => !r.job).map((r) => ({ runTestId: r.row.id, options: r.options })), written.run.createdAt);
    return written;
  });
  deps.wakeWorkers();
  deps.bus.emit(clientId, { type: 'run', data: runEventOf(inserted.run) });
  for (const rt of inserted.tests) deps.bus.emit(clientId, { type: 'test', data: testEventOf(rt) });
  queueMoved(deps);
  return { runId, testCount: rows.length };
}

/** Waits until the run ends (or `timeoutMs` passes), woken by this process's events and by polling for others'. */
export async function waitForRun(deps: EngineDeps, clientId: string, runId: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !signal?.aborted) {
    const status = await runStatusOf(deps.db, runId);
    if (!status || isTerminal(status)) return;
    await new Promise<void>((resolve) => {
      const off = deps.bus.on(clientId, (e) => {
        if (e.type === 'run' && e.data.runId === runId && isTerminal(e.data.status)) done();
      });
      const timer = setTimeout(done, WAIT_POLL_MS);
      function done() {
        clearTimeout(timer);
        off();
        resolve();
      }
    });
  }
}

/** A run's outcome in the shape `?wait=true` and `fullstop run --wait` answer; null unless it is this client's. */
export async function runResult(deps: EngineDeps, clientId: string, runId: string): Promise<RunResultResponse | null> {
  const run = await runDetail(deps.db, clientId, runId);
  return run && runResultOf(run);
}

/** Without a timeout, `wait` answers after this long at most, with the run still going. */
export const DEFAULT_WAIT_SECONDS = 30 * 60;

/** `?wait=true`: the run's outcome once it ends, or as it stands after `timeoutSeconds` or when the caller hangs up. */
export async function resultWhenDone(deps: EngineDeps, clientId: string, runId: string, timeoutSeconds: number, caller: NodeJS.EventEmitter): Promise<RunResultResponse> {
  const gone = new AbortController();
  caller.once('close', () => gone.abort());
  await waitForRun(deps, clientId, runId, timeoutSeconds * 1000, gone.signal);
  return (await runResult(deps, clientId, runId))!;
}
