import { randomUUID } from 'node:crypto';
import { testsOf, type SuiteManifest } from '@fullstop/engine';
import type { RunResultResponse } from '@fullstop/contracts';
import { and, asc, desc, eq, isNotNull } from 'drizzle-orm';
import { engineRuns, engineRunTests } from '../../../db/schema/index.ts';
import { NotFoundError } from '../../../lib/errors.ts';
import type { EngineDeps } from '../deps.ts';
import { RUN_QUEUE } from '../queue/boss.ts';
import { drizzleBossDb } from '../queue/tx-boss-db.ts';
import { currentSuite } from '../suites/suite-store.ts';
import { isTerminal, runEventOf, testEventOf } from './mappers.ts';

/** pg-boss expires a job this long after its kind's time limit: the engine stops it first, this is the backstop. */
const EXPIRY_MARGIN_SECONDS = 120;
const WAIT_POLL_MS = 500;

/** Seconds a kind usually takes here, for ordering a test that has never run (lighthouse ~20 s on 2 cores). */
const TYPICAL_SECONDS: Record<string, number> = {
  lighthouse: 20,
  browser: 15,
  'security-scan': 10,
  accessibility: 8,
  load: 5,
  'mobile-static': 2,
  'security-checks': 1,
  api: 1,
};

/**
 * Longest first: with fewer workers than tests, starting the long tests first keeps run-all close to its
 * longest test (the classic LPT order). A test's last duration is its estimate; pg-boss takes higher priority first.
 */
async function priorities(deps: EngineDeps, clientId: string): Promise<Map<string, number>> {
  const rows = await deps.db
    .selectDistinctOn([engineRunTests.testName], { testName: engineRunTests.testName, durationMs: engineRunTests.durationMs })
    .from(engineRunTests)
    .where(and(eq(engineRunTests.clientId, clientId), isNotNull(engineRunTests.durationMs)))
    .orderBy(engineRunTests.testName, desc(engineRunTests.finishedAt));
  return new Map(rows.map((r) => [r.testName, Math.round((r.durationMs ?? 0) / 1000)]));
}

export interface QueuedRun {
  runId: string;
  testCount: number;
}

/**
 * Queues every test of the client's current suite, or one test by name: the run, its tests and their jobs are
 * written in one transaction, so a crash can never leave a run without jobs or jobs without a run.
 */
export async function queueRun(deps: EngineDeps, clientId: string, scope: { testName?: string }, requestedBy: string): Promise<QueuedRun> {
  const suite = await currentSuite(deps.db, clientId);
  if (!suite) throw new NotFoundError('No tests available: this client has no test suite yet');
  let tests = testsOf(suite.manifest as SuiteManifest, suite.dir);
  if (scope.testName !== undefined) {
    tests = tests.filter((t) => t.name === scope.testName);
    if (tests.length === 0) throw new NotFoundError(`Test "${scope.testName}" not found`);
  }
  const boss = await deps.boss();
  const runId = randomUUID();
  const lastSeconds = tests.length > 1 ? await priorities(deps, clientId) : new Map<string, number>();
  const rows = tests.map((t) => {
    const retries = t.retries ?? deps.config.retries;
    return {
      row: {
        id: randomUUID(),
        runId,
        clientId,
        testName: t.name,
        groupName: t.group,
        kind: t.kind,
        jobId: randomUUID(),
        maxAttempts: retries + 1,
      },
      retries,
      expire: (t.timeoutSeconds ?? deps.config.timeLimits[t.kind]) + EXPIRY_MARGIN_SECONDS,
      priority: Math.min(3600, lastSeconds.get(t.name) ?? TYPICAL_SECONDS[t.kind] ?? 1),
    };
  });
  await deps.db.transaction(async (tx) => {
    await tx.insert(engineRuns).values({ id: runId, clientId, suiteId: suite.id, scope: scope.testName ?? 'all', requestedBy });
    await tx.insert(engineRunTests).values(rows.map((r) => r.row));
    const bossDb = drizzleBossDb(tx);
    for (const r of rows) {
      await boss.send(RUN_QUEUE, { runTestId: r.row.id, clientId }, {
        id: r.row.jobId,
        db: bossDb,
        retryLimit: r.retries,
        retryDelay: deps.config.retryDelaySeconds,
        expireInSeconds: r.expire,
        priority: r.priority,
      });
    }
  });
  deps.wakeWorkers();
  const [run] = await deps.db.select().from(engineRuns).where(eq(engineRuns.id, runId));
  if (run) deps.bus.emit(clientId, { type: 'run', data: runEventOf(run) });
  const queued = await deps.db.select().from(engineRunTests).where(eq(engineRunTests.runId, runId));
  for (const rt of queued) deps.bus.emit(clientId, { type: 'test', data: testEventOf(rt) });
  return { runId, testCount: rows.length };
}

/** Waits until the run ends (or `timeoutMs` passes), woken by this process's events and by polling for others'. */
export async function waitForRun(deps: EngineDeps, clientId: string, runId: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !signal?.aborted) {
    const [run] = await deps.db.select({ status: engineRuns.status }).from(engineRuns).where(eq(engineRuns.id, runId)).limit(1);
    if (!run || isTerminal(run.status)) return;
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

/** A run's outcome in the shape `?wait=true` and `fullstop run --wait` answer. */
export async function runResult(deps: EngineDeps, clientId: string, runId: string): Promise<RunResultResponse | null> {
  const [run] = await deps.db.select().from(engineRuns).where(eq(engineRuns.id, runId)).limit(1);
  if (!run || run.clientId !== clientId) return null;
  const tests = await deps.db.select().from(engineRunTests).where(eq(engineRunTests.runId, runId)).orderBy(asc(engineRunTests.createdAt));
  const totals = run.totals ?? { totalTests: 0, passedTests: 0, failedTests: 0, skippedTests: 0 };
  const finished = isTerminal(run.status);
  const passed = run.status === 'passed';
  const what = run.scope === 'all' ? 'All tests' : `Test ${run.scope}`;
  const message = !finished
    ? `${what}: still running (run ${run.id})`
    : passed
      ? `${what} passed: ${totals.passedTests} of ${totals.totalTests} checks passed`
      : `${what} ${run.status}: ${totals.failedTests} failed, ${tests.filter((t) => t.status === 'error').length} could not run`;
  return {
    message,
    runId: run.id,
    status: run.status,
    passed,
    totals,
    tests: tests.map((t) => ({ testName: t.testName, status: t.status, totals: t.totals ?? null, error: t.error })),
  };
}
