import type { RunStatus } from '@fullstop/contracts';
import type { TestKind } from '@fullstop/engine';
import { and, asc, desc, eq, gt, inArray, isNotNull, lt, notInArray, sql } from 'drizzle-orm';
import { findClientRow } from '../../db/client-rows.ts';
import type { Db } from '../../db/database.ts';
import { engineRuns, engineRunTests } from '../../db/schema/index.ts';
import { TERMINAL_STATUSES } from './mappers.ts';

// Runs and the tests inside them (engine_runs, engine_run_tests). Attempts are in attempt-repository.ts.

export type RunRow = typeof engineRuns.$inferSelect;
export type RunTestRow = typeof engineRunTests.$inferSelect;
export type NewRun = typeof engineRuns.$inferInsert;
export type NewRunTest = typeof engineRunTests.$inferInsert;
/** A run with its tests (oldest first) and each test's attempts (in order): GET /test/runs/{runId}. */
export type RunDetail = NonNullable<Awaited<ReturnType<typeof runDetail>>>;

/** Finished with a result (not an error): what insights and alerts are computed from. */
const FINISHED: RunStatus[] = ['passed', 'failed'];

/** Writes a run and its tests (call it inside the transaction that queues their jobs); answers the rows written. */
export async function insertRun(db: Db, run: NewRun, tests: NewRunTest[]): Promise<{ run: RunRow; tests: RunTestRow[] }> {
  const [inserted] = await db.insert(engineRuns).values(run).returning();
  const insertedTests = tests.length ? await db.insert(engineRunTests).values(tests).returning() : [];
  return { run: inserted!, tests: insertedTests };
}

export async function runStatusOf(db: Db, runId: string): Promise<RunStatus | null> {
  const [run] = await db.select({ status: engineRuns.status }).from(engineRuns).where(eq(engineRuns.id, runId)).limit(1);
  return run?.status ?? null;
}

/** The run, only if it is this client's. */
export async function findClientRun(db: Db, clientId: string, runId: string): Promise<RunRow | null> {
  const [run] = await db.select().from(engineRuns).where(and(eq(engineRuns.id, runId), eq(engineRuns.clientId, clientId))).limit(1);
  return run ?? null;
}

/** One query: the run (only if it is this client's), its tests and their attempts. */
export async function runDetail(db: Db, clientId: string, runId: string) {
  const run = await db.query.engineRuns.findFirst({
    where: and(eq(engineRuns.id, runId), eq(engineRuns.clientId, clientId)),
    with: {
      tests: {
        orderBy: asc(engineRunTests.createdAt),
        with: { attempts: { orderBy: (a, { asc: up }) => up(a.attempt) } },
      },
    },
  });
  return run ?? null;
}

/** The client's runs, newest first; `before` pages back through them. */
export function listRuns(db: Db, clientId: string, page: { limit: number; before?: string | undefined }): Promise<RunRow[]> {
  const ofClient = eq(engineRuns.clientId, clientId);
  return db
    .select()
    .from(engineRuns)
    .where(page.before ? and(ofClient, lt(engineRuns.createdAt, new Date(page.before))) : ofClient)
    .orderBy(desc(engineRuns.createdAt))
    .limit(page.limit);
}

/** Sets a run's status, totals and end, unless it has already ended. Answers the run when this call ended it. */
export async function finishRun(db: Db, runId: string, values: Pick<NewRun, 'status' | 'totals' | 'finishedAt'>): Promise<RunRow | null> {
  const [run] = await db
    .update(engineRuns)
    .set(values)
    .where(and(eq(engineRuns.id, runId), inArray(engineRuns.status, ['queued', 'running'])))
    .returning();
  return run ?? null;
}

/** The run's first test started: a queued run is running now. */
export async function markRunRunning(db: Db, runId: string): Promise<void> {
  await db.update(engineRuns).set({ status: 'running' }).where(and(eq(engineRuns.id, runId), eq(engineRuns.status, 'queued')));
}

export async function getRunTest(db: Db, runTestId: string): Promise<RunTestRow | null> {
  const [row] = await db.select().from(engineRunTests).where(eq(engineRunTests.id, runTestId)).limit(1);
  return row ?? null;
}

/** A run test of this client, whatever its run (a bug filed from it names only the test). */
export function findClientRunTestById(db: Db, clientId: string, runTestId: string): Promise<RunTestRow | null> {
  return findClientRow(db, engineRunTests, clientId, eq(engineRunTests.id, runTestId));
}

/** The run test when it is one of this client's, in this run; null otherwise (the caller answers 404). */
export function findClientRunTest(db: Db, clientId: string, runId: string, runTestId: string): Promise<RunTestRow | null> {
  return findClientRow(db, engineRunTests, clientId, eq(engineRunTests.id, runTestId), eq(engineRunTests.runId, runId));
}

export function runTestsOf(db: Db, runId: string): Promise<RunTestRow[]> {
  return db.select().from(engineRunTests).where(eq(engineRunTests.runId, runId));
}

/**
 * Changes a run test. `onlyIf` limits it to those statuses (for a change that must not undo another process's);
 * answers the row as changed, or null when it was not.
 */
export async function updateRunTest(
  db: Db,
  runTestId: string,
  values: Partial<NewRunTest>,
  onlyIf?: { statusIn?: RunStatus[]; notFinished?: true },
): Promise<RunTestRow | null> {
  const conditions = [eq(engineRunTests.id, runTestId)];
  if (onlyIf?.statusIn) conditions.push(inArray(engineRunTests.status, onlyIf.statusIn));
  if (onlyIf?.notFinished) conditions.push(notInArray(engineRunTests.status, [...TERMINAL_STATUSES]));
  const [row] = await db
    .update(engineRunTests)
    .set(values)
    .where(and(...conditions))
    .returning();
  return row ?? null;
}

/** Each test's last duration in seconds (tests that never finished are absent), for ordering a run's jobs. */
export async function lastDurations(db: Db, clientId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectDistinctOn([engineRunTests.testName], { testName: engineRunTests.testName, durationMs: engineRunTests.durationMs })
    .from(engineRunTests)
    .where(and(eq(engineRunTests.clientId, clientId), isNotNull(engineRunTests.durationMs)))
    .orderBy(engineRunTests.testName, desc(engineRunTests.finishedAt));
  return new Map(rows.map((r) => [r.testName, Math.round((r.durationMs ?? 0) / 1000)]));
}

/** The newest run test of each test name: the event stream's snapshot. */
export function latestRunTests(db: Db, clientId: string): Promise<RunTestRow[]> {
  return db
    .selectDistinctOn([engineRunTests.testName])
    .from(engineRunTests)
    .where(eq(engineRunTests.clientId, clientId))
    .orderBy(engineRunTests.testName, desc(engineRunTests.createdAt));
}

/** Run tests of these clients changed after `since`, oldest change first: what other processes' workers did. */
export function runTestsChangedSince(db: Db, clientIds: string[], since: Date, limit: number): Promise<RunTestRow[]> {
  return db
    .select()
    .from(engineRunTests)
    .where(and(inArray(engineRunTests.clientId, clientIds), gt(engineRunTests.updatedAt, since)))
    .orderBy(engineRunTests.updatedAt)
    .limit(limit);
}

/** The newest finished run test of a kind that produced a summary (the latest load test, security scan ...). */
export async function latestFinishedOfKind(db: Db, clientId: string, kind: TestKind): Promise<RunTestRow | null> {
  const [row] = await db
    .select()
    .from(engineRunTests)
    .where(and(eq(engineRunTests.clientId, clientId), eq(engineRunTests.kind, kind), inArray(engineRunTests.status, FINISHED), isNotNull(engineRunTests.summary)))
    .orderBy(desc(engineRunTests.finishedAt))
    .limit(1);
  return row ?? null;
}

/** The finished tests of one kind in one run of the client. */
export function finishedOfKindInRun(db: Db, clientId: string, runId: string, kind: TestKind): Promise<RunTestRow[]> {
  return db
    .select()
    .from(engineRunTests)
    .where(and(eq(engineRunTests.clientId, clientId), eq(engineRunTests.runId, runId), eq(engineRunTests.kind, kind), inArray(engineRunTests.status, FINISHED)));
}

/** These run tests (any client's), in no particular order: the queue's announcements read them in one query. */
export function runTestsByIds(db: Db, runTestIds: string[]): Promise<RunTestRow[]> {
  if (runTestIds.length === 0) return Promise.resolve([]);
  return db.select().from(engineRunTests).where(inArray(engineRunTests.id, runTestIds));
}

/**
 * Cancels the run's tests that are still queued or running (one of them with `runTestId`): each ends "cancelled"
 * now, with why; a running one's worker sees it and stops its attempt (execute-job.ts). Answers the rows cancelled.
 */
export async function cancelRunTests(db: Db, runId: string, runTestId: string | null, error: string): Promise<RunTestRow[]> {
  const now = new Date();
  return db
    .update(engineRunTests)
    .set({
      status: 'cancelled',
      error,
      progress: null,
      finishedAt: now,
      updatedAt: now,
      // A running test took this long before it was stopped; a queued one never ran.
      durationMs: sql`CASE WHEN ${engineRunTests.startedAt} IS NULL THEN NULL ELSE (extract(epoch FROM now() - ${engineRunTests.startedAt}) * 1000)::int END`,
    })
    .where(and(eq(engineRunTests.runId, runId), inArray(engineRunTests.status, ['queued', 'running']), ...(runTestId ? [eq(engineRunTests.id, runTestId)] : [])))
    .returning();
}
