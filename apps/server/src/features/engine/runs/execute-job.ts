import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { type RunnerResult, testsOf, type SuiteManifest, type TestKind } from '@fullstop/engine';
import { runInSandbox } from '@fullstop/engine/sandbox';
import { and, eq, inArray } from 'drizzle-orm';
import { engineAttempts, engineRuns, engineRunTests, engineSuites } from '../../../db/schema/index.ts';
import type { EngineDeps } from '../deps.ts';
import type { RunJob } from '../queue/fair-fetch.ts';
import { runTargetFor } from '../targets/run-target.ts';
import { finishRunTest } from './finish.ts';
import { isTerminal, testEventOf } from './mappers.ts';
import { attemptFolder, attemptLog, runTestDir } from './run-paths.ts';

/**
 * Errors that would only repeat on a retry: bad options, a refused target, the time limit. A crash or memory over
 * the limit (the runner process's `crashed` / `out_of_memory`) is retried while attempts remain.
 */
const NOT_RETRIED_CODES = new Set(['validation_error', 'target_policy', 'time_limit']);
const PROGRESS_WRITE_INTERVAL_MS = 1000;

export class RetryableAttemptError extends Error {}

/**
 * Runs one job: one attempt of one test. The database work happens here; the runner runs in a runner process of
 * its own (runInSandbox) with the kind's time limit and ENGINE_RUN_MEMORY_MB, so a crash, hang or blow-up ends
 * only this attempt. Passed and failed are results (the job completes); an error is
 * retried while attempts remain (the handler throws, pg-boss schedules the retry) and otherwise ends the test
 * as an error with its reason. Every attempt keeps its own folder and log.
 */
export async function executeJob(deps: EngineDeps, job: RunJob, shutdown: AbortSignal): Promise<void> {
  const { db } = deps;
  const [rt] = await db.select().from(engineRunTests).where(eq(engineRunTests.id, job.data.runTestId)).limit(1);
  if (!rt || isTerminal(rt.status)) return;
  const attempt = job.retryCount + 1;
  const maxAttempts = job.retryLimit + 1;
  const dir = runTestDir(deps.paths, rt.clientId, rt.runId, rt.id);
  const runDir = path.join(dir, attemptFolder(attempt));
  mkdirSync(runDir, { recursive: true });
  const logFile = path.join(dir, attemptLog(attempt));
  const log = (message: string, data?: Record<string, unknown>) => {
    const line = `${new Date().toISOString()} ${message}${data ? ` ${JSON.stringify(data)}` : ''}\n`;
    try {
      appendFileSync(logFile, line);
    } catch {
      // The log is best effort; the run goes on.
    }
  };
  log(`attempt ${attempt} of ${maxAttempts} on ${deps.workerId}`);

  const [attemptRow] = await db
    .insert(engineAttempts)
    .values({ runTestId: rt.id, attempt, workerId: deps.workerId, logPath: attemptLog(attempt) })
    .onConflictDoUpdate({
      target: [engineAttempts.runTestId, engineAttempts.attempt],
      set: { workerId: deps.workerId, status: 'running', startedAt: new Date(), heartbeatAt: new Date(), error: null, finishedAt: null },
    })
    .returning();
  const now = new Date();
  const [running] = await db
    .update(engineRunTests)
    .set({ status: 'running', attempts: attempt, maxAttempts, startedAt: rt.startedAt ?? now, updatedAt: now, progress: null })
    .where(eq(engineRunTests.id, rt.id))
    .returning();
  await db.update(engineRuns).set({ status: 'running' }).where(and(eq(engineRuns.id, rt.runId), eq(engineRuns.status, 'queued')));
  if (running) deps.bus.emit(rt.clientId, { type: 'test', data: testEventOf(running) });

  const controller = new AbortController();
  let abortCode: string | null = null;
  const abort = (code: string, reason: string) => {
    if (controller.signal.aborted) return;
    abortCode = code;
    log(`aborting: ${reason}`);
    controller.abort(new Error(reason));
  };
  const onShutdown = () => abort('shutdown', 'the server stopped during the run');
  shutdown.addEventListener('abort', onShutdown);

  // Heartbeat: proves this attempt alive; finding it no longer running means a reaper gave it up.
  const heartbeat = setInterval(() => {
    void db
      .update(engineAttempts)
      .set({ heartbeatAt: new Date() })
      .where(and(eq(engineAttempts.id, attemptRow!.id), eq(engineAttempts.status, 'running')))
      .returning({ id: engineAttempts.id })
      .then((rows) => {
        if (rows.length === 0) abort('lost', 'this attempt was given up as stale');
      })
      .catch(() => {});
  }, deps.config.heartbeatSeconds * 1000);

  let result: RunnerResult | null = null;
  let error: string | null = null;
  let errorCode: string | null = null;
  try {
    const [suite] = await db.select().from(engineSuites).where(eq(engineSuites.id, (await suiteIdOf(deps, rt.runId))!)).limit(1);
    const def = suite ? testsOf(suite.manifest as SuiteManifest, suite.dir).find((t) => t.name === rt.testName) : undefined;
    const runner = deps.runners[rt.kind as TestKind];
    if (!def) {
      error = `the test "${rt.testName}" is not in the suite version this run was queued with`;
      errorCode = 'validation_error';
    } else if (!runner) {
      error = `no runner is installed for the kind "${rt.kind}"`;
      errorCode = 'validation_error';
    } else {
      const target = await runTargetFor(deps, rt.clientId);
      let lastProgress = 0;
      result = await runInSandbox(
        {
          test: def,
          target,
          attemptKey: attemptRow!.id,
          limits: { timeSeconds: def.timeoutSeconds ?? deps.config.timeLimits[def.kind], memoryMb: deps.config.runMemoryMb },
          ...(deps.runnersModule ? { runnersModule: deps.runnersModule } : {}),
          ctx: {
            runDir,
            signal: controller.signal,
            chromiumPath: deps.config.chromiumPath,
            workers: deps.config.browserWorkers,
            log,
            progress: (p) => {
              const t = Date.now();
              if (t - lastProgress < PROGRESS_WRITE_INTERVAL_MS && p.done < p.total) return;
              lastProgress = t;
              void db
                .update(engineRunTests)
                .set({ progress: p, updatedAt: new Date() })
                .where(and(eq(engineRunTests.id, rt.id), eq(engineRunTests.status, 'running')))
                .returning()
                .then(([row]) => row && deps.bus.emit(rt.clientId, { type: 'test', data: testEventOf(row) }))
                .catch(() => {});
            },
          },
        },
        (stats) =>
          log(
            `runner process ${stats.pid} ended; ${
              stats.peakMemoryBytes > 0 ? `peak memory of the attempt ${Math.round(stats.peakMemoryBytes / 1048576)} MB` : 'it ended before its memory was first measured'
            }`,
          ),
      );
      if (controller.signal.aborted) throw controller.signal.reason as Error;
      if (result.status === 'error') {
        error = result.error ?? 'the runner could not run the test';
        errorCode = result.errorCode ?? null;
      }
    }
  } catch (err) {
    error = (err as Error).message;
    const code = (err as { code?: unknown }).code;
    errorCode = abortCode ?? (typeof code === 'string' ? code : null);
    result = null;
  } finally {
    clearInterval(heartbeat);
    shutdown.removeEventListener('abort', onShutdown);
  }

  const status: 'passed' | 'failed' | 'error' = error ? 'error' : result!.status === 'passed' ? 'passed' : 'failed';
  log(`attempt ${attempt} ended: ${status}${error ? `: ${error}` : ''}`);
  await db
    .update(engineAttempts)
    .set({ status, error, finishedAt: new Date() })
    .where(eq(engineAttempts.id, attemptRow!.id));
  if (abortCode === 'lost') return; // the reaper owns this test now

  const retry = status === 'error' && attempt < maxAttempts && !(errorCode && NOT_RETRIED_CODES.has(errorCode));
  if (retry) {
    const [queued] = await db
      .update(engineRunTests)
      .set({ status: 'queued', error: `attempt ${attempt} errored (${error}); retrying`, progress: null, updatedAt: new Date() })
      .where(and(eq(engineRunTests.id, rt.id), inArray(engineRunTests.status, ['running', 'queued'])))
      .returning();
    if (queued) deps.bus.emit(rt.clientId, { type: 'test', data: testEventOf(queued) });
    throw new RetryableAttemptError(error ?? 'attempt errored');
  }
  await finishRunTest(deps, rt, { status, result: status === 'error' ? (result?.summary ? result : null) : result, error, attempt });
}

async function suiteIdOf(deps: EngineDeps, runId: string): Promise<string | null> {
  const [run] = await deps.db.select({ suiteId: engineRuns.suiteId }).from(engineRuns).where(eq(engineRuns.id, runId)).limit(1);
  return run?.suiteId ?? null;
}
