/**
 * Distributed load generation (issue 12): a load test asking for N generators becomes N jobs on the
 * load-generator queue, taken by any workers (in API processes or `fullstop worker`).
 *
 * - Dispatch: the test's own job (engine-run) writes N generator rows and queues their jobs, then completes.
 * - Gather: a generator taken by a worker marks itself ready and waits; once all N are ready, one UPDATE sets the
 *   common start a moment ahead on every row (only the first succeeds). Not all ready within the gather time: the
 *   test ends as an error saying how many started and what to do.
 * - Run: each runs the load runner in the sandbox as any attempt, with its share of the connections, and starts at
 *   the common time (read against the database's clock, so the workers' clocks need not agree).
 * - Merge: the last generator to end (decided under a lock on the run test row) merges the parts and finishes the
 *   test through the normal path (reports, insights, events). A generator whose heartbeat stops is ended as an
 *   error by the reaper, which then closes the test the same way.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type Artifact, type RunnerResult, type TestDefinition, testsOf } from '@fullstop/engine';
import { kinds } from '@fullstop/engine/kinds';
import { loadInput, mergeLoadResults, type LoadPart } from '@fullstop/engine/load';
import { runInSandbox } from '@fullstop/engine/sandbox';
import type { Db } from '../../db/database.ts';
import type { LoadGeneratorResult } from '../../db/schema/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { LOAD_QUEUE, type LoadGeneratorJobData } from '../queue/index.ts';
import { drizzleBossDb } from '../queue/index.ts';
import { suiteOfRun } from '../suites/index.ts';
import { sandboxRun } from '../runs/index.ts';
import { finishRunTest } from '../runs/index.ts';
import { isTerminal, testEventOf } from '../runs/index.ts';
import { attemptFolder, publishFolder, runTestDir, runTestKey } from '../../lib/run-paths.ts';
import { getRunTest, markRunRunning, type RunTestRow, updateRunTest } from '../runs/index.ts';
import {
  closeOpenGenerators,
  endGenerator,
  endStaleGenerators,
  generatorRow,
  generatorsOfTest,
  heartbeatGenerator,
  insertGenerators,
  type LoadGeneratorRow,
  lockRunTest,
  markGeneratorReady,
  markGeneratorRunning,
  START_LEAD_MS,
  startGeneratedTest,
  trySetStart,
} from './generator-repository.ts';

type SuiteTest = ReturnType<typeof testsOf>[number];

/** How often a ready generator looks whether the others are ready. */
const GATHER_POLL_MS = 200;
/** pg-boss's backstop expiry beyond the gather time and the kind's time limit. */
const EXPIRY_MARGIN_SECONDS = 120;
/** The test's one attempt: generators are not retried one by one (a lost one ends the test as an error). */
const ATTEMPT = 1;

export const generatorFolder = (index: number) => `generator-${index + 1}`;

/** The number of generators a test definition asks for: 1 unless it is a load test with `generators` above 1. */
export function generatorsOf(def: TestDefinition): number {
  if (def.kind !== 'load') return 1;
  const value = (def.options as { generators?: unknown } | undefined)?.generators;
  return typeof value === 'number' && Number.isInteger(value) && value > 1 ? value : 1;
}

async function definitionOf(db: Db, rt: RunTestRow): Promise<SuiteTest | undefined> {
  const suite = await suiteOfRun(db, rt.runId);
  return suite ? testsOf(suite.manifest, suite.dir).find((t) => t.name === rt.testName) : undefined;
}

/**
 * Called first by the test's own job: when it is a load test with several generators, queues them (once: a retry
 * of the job queues nothing more) and answers true; the job is then done, the generators carry the test.
 */
export async function dispatchLoadGenerators(deps: EngineDeps, rt: RunTestRow): Promise<boolean> {
  if (rt.kind !== 'load') return false;
  const def = await definitionOf(deps.db, rt);
  const count = def ? generatorsOf(def) : 1;
  if (!def || count <= 1) return false;
  const boss = await deps.boss();
  const expireInSeconds = deps.config.loadGatherSeconds + (def.timeoutSeconds ?? kinds.load.timeLimitSeconds) + EXPIRY_MARGIN_SECONDS;
  const now = new Date();
  await deps.db.transaction(async (tx) => {
    const rows = Array.from({ length: count }, (_, index) => ({ id: randomUUID(), runTestId: rt.id, clientId: rt.clientId, index, count, jobId: randomUUID() }));
    const inserted = await insertGenerators(tx, rows);
    const bossDb = drizzleBossDb(tx);
    for (const row of inserted) {
      const data: LoadGeneratorJobData = { generatorId: row.id, runTestId: rt.id, clientId: rt.clientId };
      await boss.send(LOAD_QUEUE, data, { id: row.jobId, retryLimit: 0, expireInSeconds, db: bossDb });
    }
    await startGeneratedTest(tx, rt.id, { status: 'running', attempts: ATTEMPT, maxAttempts: ATTEMPT, startedAt: rt.startedAt ?? now, updatedAt: now, progress: { done: 0, total: count, message: `waiting for ${count} load generators` } });
  });
  await markRunRunning(deps.db, rt.runId);
  const running = await getRunTest(deps.db, rt.id);
  if (running) deps.bus.emit(rt.clientId, { type: 'test', data: testEventOf(running) });
  deps.wakeWorkers();
  return true;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });

/** Runs one generator job: gather, start together, run the load runner in the sandbox, hand in the part, merge if last. */
export async function executeGeneratorJob(deps: EngineDeps, data: LoadGeneratorJobData, shutdown: AbortSignal): Promise<void> {
  const { db } = deps;
  const gen = await generatorRow(db, data.generatorId);
  const rt = await getRunTest(db, data.runTestId);
  if (!gen || gen.status !== 'queued' || !rt || isTerminal(rt.status)) return;
  const dir = runTestDir(deps.paths, rt.clientId, rt.runId, rt.id);
  const runDir = path.join(dir, attemptFolder(ATTEMPT), generatorFolder(gen.index));
  mkdirSync(runDir, { recursive: true });
  const logFile = path.join(dir, `${generatorFolder(gen.index)}.log`);
  const log = (message: string, extra?: Record<string, unknown>) => {
    try {
      appendFileSync(logFile, `${new Date().toISOString()} ${message}${extra ? ` ${JSON.stringify(extra)}` : ''}\n`);
    } catch {
      // The log is best effort; the run goes on.
    }
  };
  const ready = await markGeneratorReady(db, gen.id, { workerId: deps.workerId, host: os.hostname() });
  if (!ready) return;
  log(`generator ${gen.index + 1} of ${gen.count} ready on ${deps.workerId}`);
  await reportGathering(deps, rt.id, gen.count);

  // Gather: wait for the others, until the gather time is up.
  const deadline = Date.now() + deps.config.loadGatherSeconds * 1000;
  let startAtMs: number | null = null;
  while (startAtMs === null) {
    const seen = await trySetStart(db, gen);
    if (seen.startAt) {
      // The start on this machine's clock: the database's clock says how far ahead it is.
      startAtMs = Date.now() + (seen.startAt.getTime() - seen.dbNow.getTime());
      break;
    }
    if (seen.status !== 'ready') return; // the gather failed (another generator ended the test)
    if (shutdown.aborted) {
      await closeAsError(deps, rt.id, `load generator ${gen.index + 1} of ${gen.count} stopped with its worker before the generators started; run the test again`);
      return;
    }
    if (Date.now() >= deadline) {
      await gatherFailed(deps, rt.id, gen.count);
      return;
    }
    await sleep(GATHER_POLL_MS, shutdown);
  }
  log(`all ${gen.count} generators ready; starting at ${new Date(startAtMs).toISOString()}`);
  await markGeneratorRunning(db, gen.id, new Date(startAtMs));

  const controller = new AbortController();
  const abort = (reason: string) => {
    if (controller.signal.aborted) return;
    log(`aborting: ${reason}`);
    controller.abort(new Error(reason));
  };
  const onShutdown = () => abort('the worker stopped during the run');
  shutdown.addEventListener('abort', onShutdown);
  const heartbeat = setInterval(() => {
    void heartbeatGenerator(db, gen.id)
      .then((rows) => {
        if (rows.length === 0) abort('this generator was given up as stale');
      })
      .catch(() => {});
  }, deps.config.heartbeatSeconds * 1000);

  let result: RunnerResult | null = null;
  let error: string | null = null;
  const started = Date.now();
  try {
    const def = await definitionOf(db, rt);
    if (!def) throw new Error(`the test "${rt.testName}" is not in the suite version this run was queued with`);
    result = await runInSandbox(
      await sandboxRun(deps, rt.clientId, def, {
        attemptKey: gen.id,
        timeSeconds: (def.timeoutSeconds ?? kinds.load.timeLimitSeconds) + START_LEAD_MS / 1000,
        ctx: { runDir, signal: controller.signal, log, loadGenerator: { index: gen.index, count: gen.count, startAtMs } },
      }),
      (stats) => log(`runner process ${stats.pid} ended`),
    );
    if (controller.signal.aborted) throw controller.signal.reason as Error;
    if (result.status === 'error') error = result.error ?? 'the runner could not run the test';
    else if (result.summary.kind !== 'load' || !result.summary.part) error = 'the load runner returned no generator result';
  } catch (err) {
    error = (err as Error).message;
  } finally {
    clearInterval(heartbeat);
    shutdown.removeEventListener('abort', onShutdown);
  }
  log(`generator ${gen.index + 1} ended${error ? `: ${error}` : ''}`);
  // Its raw samples and log, from whichever machine it ran on, into the store beside the test's other files.
  const key = runTestKey(rt.clientId, rt.runId, rt.id);
  await publishFolder(deps, `${key}/${attemptFolder(ATTEMPT)}/${generatorFolder(gen.index)}`, runDir);
  if (deps.artifacts.localPath(key) === null) await deps.artifacts.putFile(`${key}/${generatorFolder(gen.index)}.log`, logFile).catch(() => undefined);
  const summary = result?.summary.kind === 'load' ? result.summary : null;
  const handedIn: LoadGeneratorResult | null =
    !error && summary?.part ? { part: summary.part, artifacts: result?.artifacts ?? [], durationMs: Math.round(result?.durationMs ?? Date.now() - started) } : null;
  const ended = await endGenerator(db, gen.id, handedIn, error);
  if (!ended) return; // the reaper gave it up and owns the ending
  await reportGathering(deps, rt.id, gen.count);
  await closeIfLast(deps, rt.id);
}

/** The test's progress: generators ready, then generators done. */
async function reportGathering(deps: EngineDeps, runTestId: string, count: number): Promise<void> {
  const rows = await generatorsOfTest(deps.db, runTestId);
  const done = rows.filter((r) => r.status === 'done' || r.status === 'error').length;
  const ready = rows.filter((r) => r.status !== 'queued').length;
  const progress = rows.some((r) => r.startAt)
    ? { done, total: count, message: `${done} of ${count} load generators done` }
    : { done: 0, total: count, message: `${ready} of ${count} load generators ready` };
  const row = await updateRunTest(deps.db, runTestId, { progress, updatedAt: new Date() }, { statusIn: ['running'] });
  if (row) deps.bus.emit(row.clientId, { type: 'test', data: testEventOf(row) });
}

/**
 * Closes every generator row of the test at once, under a lock on the run test row, when `when` holds of them:
 * answers the rows when this call closed them (exactly one caller does), else null.
 */
async function closeGenerators(deps: EngineDeps, runTestId: string, when: (rows: LoadGeneratorRow[]) => boolean, then?: Partial<LoadGeneratorRow>): Promise<LoadGeneratorRow[] | null> {
  return deps.db.transaction(async (tx) => {
    await lockRunTest(tx, runTestId);
    const rows = await generatorsOfTest(tx, runTestId);
    if (rows.length === 0 || rows.some((r) => r.closedAt) || !when(rows)) return null;
    await closeOpenGenerators(tx, runTestId, then);
    return rows;
  });
}

/** Not all generators were taken in time: the test ends as an error saying how many started and what to do. */
async function gatherFailed(deps: EngineDeps, runTestId: string, count: number): Promise<void> {
  let ready = 0;
  const closed = await closeGenerators(
    deps,
    runTestId,
    (rows) => {
      ready = rows.filter((r) => r.status === 'ready').length;
      return rows.every((r) => !r.startAt);
    },
    { status: 'error', error: 'the generators did not all start' },
  );
  if (!closed) return;
  const seconds = deps.config.loadGatherSeconds;
  await finishAsError(
    deps,
    runTestId,
    `only ${ready} of ${count} load generators started within ${seconds} s (each needs a free worker): start more workers (\`fullstop worker\`, or raise ENGINE_WORKERS) or lower the test's generators`,
  );
}

async function closeAsError(deps: EngineDeps, runTestId: string, error: string): Promise<void> {
  const closed = await closeGenerators(deps, runTestId, (rows) => rows.every((r) => !r.startAt), { status: 'error', error });
  if (closed) await finishAsError(deps, runTestId, error);
}

async function finishAsError(deps: EngineDeps, runTestId: string, error: string): Promise<void> {
  const rt = await getRunTest(deps.db, runTestId);
  if (rt) await finishRunTest(deps, rt, { status: 'error', result: null, error, attempt: ATTEMPT });
}

/** After a generator ended: when it was the last, merge every part and finish the test (or end it as an error). */
export async function closeIfLast(deps: EngineDeps, runTestId: string): Promise<void> {
  const rows = await closeGenerators(deps, runTestId, (all) => all.every((r) => r.status === 'done' || r.status === 'error'));
  if (!rows) return;
  const rt = await getRunTest(deps.db, runTestId);
  if (!rt) return;
  const failed = rows.filter((r) => r.status === 'error' || !r.result);
  if (failed.length > 0) {
    const first = failed[0]!;
    const where = first.workerId ? ` on ${first.workerId}` : '';
    const more = failed.length > 1 ? ` (and ${failed.length - 1} more)` : '';
    await finishRunTest(deps, rt, { status: 'error', result: null, error: `load generator ${first.index + 1} of ${first.count}${where} failed${more}: ${first.error ?? 'no result'}`, attempt: ATTEMPT });
    return;
  }
  const def = await definitionOf(deps.db, rt);
  const result = await mergedResult(deps, rt, rows, def);
  await finishRunTest(deps, rt, { status: result.status as 'passed' | 'failed', result, error: null, attempt: ATTEMPT });
}

/** The test's one result from its generators' parts: what a single runner would have returned, plus who ran what. */
async function mergedResult(deps: EngineDeps, rt: RunTestRow, rows: LoadGeneratorRow[], def: TestDefinition | undefined): Promise<RunnerResult> {
  const parsed = loadInput.safeParse({ options: def?.options ?? {}, thresholds: def?.thresholds ?? {} });
  const thresholds = parsed.success ? parsed.data.thresholds : {};
  const parts = rows.map((r) => r.result!.part as LoadPart);
  const merged = mergeLoadResults(parts, thresholds);
  const summary = {
    kind: 'load' as const,
    load: merged.load,
    failuresByUrl: merged.failuresByUrl,
    requestsPerSecond: merged.requestsPerSecond,
    thresholdChecks: merged.checks,
    perSecond: merged.perSecond,
    ...(parsed.success && parsed.data.options.stages ? { stages: parsed.data.options.stages } : {}),
    generators: rows.map((r) => ({ index: r.index, workerId: r.workerId, host: r.host, requests: r.result!.part.successful + r.result!.part.failedResponses + r.result!.part.errors })),
  };
  // The merged summary beside the generators' folders, as a single run writes its own.
  const attemptDir = path.join(runTestDir(deps.paths, rt.clientId, rt.runId, rt.id), attemptFolder(ATTEMPT));
  mkdirSync(path.join(attemptDir, 'load'), { recursive: true });
  await writeFile(path.join(attemptDir, 'load', 'summary.json'), JSON.stringify(summary, null, 2));
  const artifacts: Artifact[] = [
    { path: 'load/summary.json', kind: 'json', contentType: 'application/json', label: 'Load test summary (all generators)' },
    ...rows.flatMap((r) => r.result!.artifacts.map((a) => ({ ...a, path: `${generatorFolder(r.index)}/${a.path}`, label: `${a.label ?? a.path} (generator ${r.index + 1})` }))),
  ];
  const met = merged.load.customMetricThresholdMet;
  return {
    status: met ? 'passed' : 'failed',
    totals: { totalTests: 1, passedTests: met ? 1 : 0, failedTests: met ? 0 : 1, skippedTests: 0 },
    durationMs: Math.max(...rows.map((r) => r.result!.durationMs)),
    summary,
    artifacts,
  };
}

/** Generators whose heartbeat stopped (their worker died): ended as errors; the test is closed when they were the last. */
export async function reapStaleGenerators(deps: EngineDeps): Promise<number> {
  const cutoff = new Date(Date.now() - deps.config.staleAfterSeconds * 1000);
  const stale = await endStaleGenerators(deps.db, cutoff);
  for (const runTestId of new Set(stale.map((g) => g.runTestId))) await closeIfLast(deps, runTestId);
  return stale.length;
}
