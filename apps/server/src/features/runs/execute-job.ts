import { appendFileSync, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { type RunnerResult, secretNamesOf, testsOf } from '@fullstop/engine';
import { isRetried, kinds } from '@fullstop/engine/kinds';
import { runInSandbox } from '@fullstop/engine/sandbox';
import type { EngineDeps } from '../engine/index.ts';
import { attemptCores, type RunJob } from '../queue/index.ts';
import { readSecrets } from '../secrets/index.ts';
import { suiteOfRun } from '../suites/index.ts';
import { localSuite } from '../suites/index.ts';
import { runTargetFor } from '../targets/index.ts';
import { addCloudCellLinks, addProviderLinks, appiumEndpointFor, browserCloudFor, cloudCellSessionsFor, deviceSessionsFor, endCloudCellAttempt, endMobileAttempt } from '../mobile-devices/index.ts';
import { prepareBaselineDir, recordVisualCandidates, removeBaselineDir } from '../visual/index.ts';
import { prepareHealingFingerprints, recordFingerprints, removeHealingFingerprints } from '../healing/index.ts';
import { endAttempt, recordHeartbeat, startAttempt } from './attempt-repository.ts';
import { keepAttemptArtifacts } from '../flaky/index.ts';
import { finishRunTest } from './finish.ts';
import { isTerminal, testEventOf } from './mappers.ts';
import { attemptFolder, attemptLog, publishFolder, runTestDir, runTestKey } from '../../lib/run-paths.ts';
import { queueMoved } from './queue-moves.ts';
import { getRunTest, markRunRunning, type RunTestRow, updateRunTest } from './run-repository.ts';

const PROGRESS_WRITE_INTERVAL_MS = 1000;

export class RetryableAttemptError extends Error {}

/**
 * Runs one job: one attempt of one test. The database work happens here; the runner runs in a runner process of
 * its own (runInSandbox) with the kind's time limit and ENGINE_RUN_MEMORY_MB, so a crash, hang or blow-up ends
 * only this attempt. Passed and failed are results (the job completes); an error is
 * retried while attempts remain (the handler throws, pg-boss schedules the retry) and otherwise ends the test
 * as an error with its reason. Every attempt keeps its own folder and log.
 */
/** The engines a runner process is given, from this process's config (runs and load generators alike). */
export function sandboxTools(deps: Pick<EngineDeps, 'config'>) {
  return { chromiumPath: deps.config.chromiumPath, wapitiPath: deps.config.wapitiPath, workers: deps.config.browserWorkers, warmRunners: Math.min(deps.config.warmRunners, deps.config.workers), warmFirefox: deps.config.warmFirefox, runAs: deps.config.runAs };
}

/** `handOff`: a test another feature runs instead, true when it took it (a load test with several generators). */
type SandboxRun = Parameters<typeof runInSandbox>[0];
type Tools = ReturnType<typeof sandboxTools>;

/**
 * What a runner process is given for one test of a client (runs and load generators alike): the client's target,
 * the login's secrets, the time limit and ENGINE_RUN_MEMORY_MB, and this process's tools beside the caller's context.
 */
export async function sandboxRun(
  deps: EngineDeps,
  clientId: string,
  test: SandboxRun['test'],
  options: { attemptKey: string; timeSeconds: number; buildsDir?: string; runId?: string; ctx: Omit<SandboxRun['ctx'], keyof Tools> },
): Promise<SandboxRun> {
  const target = await runTargetFor(deps, clientId, options.buildsDir);
  // A mobile UI test's devices: the client's provider, its key opened for this run only; on a cloud the build goes to
  // its app storage first, when it changed (issue 28).
  if (test.kind === 'mobile-ui') {
    const platform = test.options.platform === 'ios' ? 'ios' : 'android';
    const file = (platform === 'ios' ? target.iosApp : target.androidApp) ?? null;
    target.appium = await appiumEndpointFor(deps.db, deps.keys, clientId, { file, platform, allowPrivate: target.allowPrivateAddresses, log: options.ctx.log, attemptKey: options.attemptKey, signal: options.ctx.signal });
  }
  // A browser test's cloud cells (issue 44): the same provider, sealed the same way (its key opened for this attempt
  // only, in the run request); refused before the runner starts when the client has none or it lacks a device named.
  const cloud = test.kind === 'browser' ? await browserCloudFor(deps.db, deps.keys, clientId, test, { allowPrivate: target.allowPrivateAddresses, attemptKey: options.attemptKey, runDir: options.ctx.runDir, log: options.ctx.log, ...(options.runId ? { runId: options.runId } : {}) }) : null;
  if (cloud) target.appium = cloud;
  // AWS Device Farm: the runner asks for each device's session when it reaches it (stopped by endMobileAttempt at the
  // latest); a cloud cell asks for its session likewise (the cap of cloud minutes, Device Farm's signed hub URL).
  const devices = test.kind === 'mobile-ui' ? deviceSessionsFor(options.attemptKey, test) : cloud ? cloudCellSessionsFor(options.attemptKey) : {};
  // The login's secrets go to the runner in its run request only (decision 0060).
  const secrets = test.login ? await readSecrets(deps.db, deps.keys, clientId, secretNamesOf(test.login)) : undefined;
  return {
    test,
    target,
    attemptKey: options.attemptKey,
    limits: { timeSeconds: options.timeSeconds, memoryMb: deps.config.runMemoryMb },
    ...(deps.runnersModule ? { runnersModule: deps.runnersModule } : {}),
    ...(secrets ? { secrets } : {}),
    ctx: { ...options.ctx, ...devices, ...sandboxTools(deps), cores: attemptCores(test.kind, test.options, deps.config) },
  };
}

export async function executeJob(deps: EngineDeps, job: RunJob, shutdown: AbortSignal, handOff?: (rt: RunTestRow) => Promise<boolean>): Promise<void> {
  const { db } = deps;
  const rt = await getRunTest(db, job.data.runTestId);
  if (!rt || isTerminal(rt.status)) return;
  if (handOff && (await handOff(rt))) return;
  const attempt = job.retryCount + 1;
  const maxAttempts = job.retryLimit + 1;
  const dir = runTestDir(deps.paths, rt.clientId, rt.runId, rt.id);
  const runDir = path.join(dir, attemptFolder(attempt));
  // Closed from the start (runs/<client>/<run>/<test>/attempt-N and each folder made on the way): the attempt's
  // runner user gets its own folder for the attempt only (runInSandbox), and reaches it by name.
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  const logFile = path.join(dir, attemptLog(attempt));
  const log = (message: string, data?: Record<string, unknown>) => {
    const line = `${new Date().toISOString()} ${message}${data ? ` ${JSON.stringify(data)}` : ''}\n`;
    try {
      appendFileSync(logFile, line, { mode: 0o600 });
    } catch {
      // The log is best effort; the run goes on.
    }
  };
  log(`attempt ${attempt} of ${maxAttempts} on ${deps.workerId}`);
  // Timings (bench/overhead reads them): from the queue to here, then the runner's own lines, then the end below.
  log(`picked up ${Date.now() - rt.createdAt.getTime()} ms after the test was queued`);

  const attemptRow = await startAttempt(db, rt.id, attempt, deps.workerId, attemptLog(attempt));
  const buildsScratch = path.join(deps.paths.incoming, `attempt-${attemptRow.id}`);
  const now = new Date();
  const running = await updateRunTest(db, rt.id, { status: 'running', attempts: attempt, maxAttempts, startedAt: rt.startedAt ?? now, updatedAt: now, progress: null }, { notFinished: true });
  if (!running) {
    // Cancelled between the fetch and here (cancel-runs.ts): it never starts.
    log('cancelled before it started');
    await endAttempt(db, attemptRow.id, { status: 'error', error: 'cancelled before it started' });
    return;
  }
  await markRunRunning(db, rt.runId);
  deps.bus.emit(rt.clientId, { type: 'test', data: testEventOf(running) });
  queueMoved(deps);

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

  // Heartbeat: proves this attempt alive; finding it no longer running means a reaper gave it up, finding its test
  // cancelled means someone cancelled it (in any process: the database says so).
  const heartbeat = setInterval(() => {
    void recordHeartbeat(db, attemptRow.id)
      .then((state) => {
        if (state === 'lost') abort('lost', 'this attempt was given up as stale');
        if (state === 'cancelled') abort('cancelled', 'the test was cancelled');
      })
      .catch(() => {});
  }, deps.config.heartbeatSeconds * 1000);
  // A cancel in this process is heard at once, before the next heartbeat.
  const offCancel = deps.bus.on(rt.clientId, (event) => {
    if (event.type === 'test' && event.data.runTestId === rt.id && event.data.status === 'cancelled') abort('cancelled', event.data.error ?? 'the test was cancelled');
  });

  let result: RunnerResult | null = null;
  let error: string | null = null;
  let errorCode: string | null = null;
  let baselineDir: string | null = null;
  let healingFile: string | null = null;
  let suiteId: string | null = null;
  try {
    const stored = await suiteOfRun(db, rt.runId);
    suiteId = stored?.id ?? null;
    // The version's spec files on this machine (copied once from a remote store).
    const suite = stored ? await localSuite(deps, stored) : null;
    const def = suite ? testsOf(suite.manifest, suite.dir).find((t) => t.name === rt.testName) : undefined;
    const runner = deps.runners[rt.kind];
    if (!def) {
      error = `the test "${rt.testName}" is not in the suite version this run was queued with`;
      errorCode = 'validation_error';
    } else if (!runner) {
      error = `no runner is installed for the kind "${rt.kind}"`;
      errorCode = 'validation_error';
    } else {
      let lastProgress = 0;
      // A visual test compares its shots with the client's current baselines of it (decision 0082).
      if (def.kind === 'visual') baselineDir = await prepareBaselineDir(deps, rt.clientId, rt.testName, attemptRow.id);
      // A browser test heals with the fingerprints its suite version's last passing runs left (decision 0101).
      if (def.kind === 'browser' && suiteId) healingFile = await prepareHealingFingerprints(deps, { clientId: rt.clientId, suiteId, testName: rt.testName }, attemptRow.id);
      const run = await sandboxRun(deps, rt.clientId, def, {
        attemptKey: attemptRow.id,
        runId: rt.runId,
        timeSeconds: def.timeoutSeconds ?? kinds[def.kind].timeLimitSeconds,
        // The mobile checks read the uploaded builds: a remote store's copies go to the scratch folder for this attempt.
        ...(def.kind === 'mobile-static' || def.kind === 'mobile-ui' ? { buildsDir: buildsScratch } : {}),
        ctx: {
          runDir,
          ...(baselineDir ? { baselineDir } : {}),
          ...(healingFile ? { healingFingerprints: healingFile } : {}),
          signal: controller.signal,
          log,
          progress: (p) => {
            const t = Date.now();
            if (t - lastProgress < PROGRESS_WRITE_INTERVAL_MS && p.done < p.total) return;
            lastProgress = t;
            void updateRunTest(db, rt.id, { progress: p, updatedAt: new Date() }, { statusIn: ['running'] })
              .then((row) => row && deps.bus.emit(rt.clientId, { type: 'test', data: testEventOf(row) }))
              .catch(() => {});
          },
        },
      });
      result = await runInSandbox(
        run,
        (stats) =>
          log(
            `runner process ${stats.pid} ended; ${
              stats.peakMemoryBytes > 0 ? `peak memory of the attempt ${Math.round(stats.peakMemoryBytes / 1048576)} MB` : 'it ended before its memory was first measured'
            }`,
          ),
      );
      // A cloud's video and log pages of each device's session, in the report's header (issue 28); never fails the attempt.
      if (def.kind === 'mobile-ui') await addProviderLinks(db, deps.keys, rt.clientId, result.summary, { allowPrivate: run.target.allowPrivateAddresses, attemptKey: attemptRow.id, log });
      // A browser test's cloud cells: their sessions end first (a killed runner's by the server), then their pages.
      if (def.kind === 'browser' && run.target.appium) {
        await endCloudCellAttempt(attemptRow.id);
        await addCloudCellLinks(db, deps.keys, rt.clientId, result.summary, { allowPrivate: run.target.allowPrivateAddresses, log });
      }
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
    offCancel();
    shutdown.removeEventListener('abort', onShutdown);
    // Every device session the attempt opened is stopped, whatever happened (a running one bills the client).
    await endMobileAttempt(attemptRow.id).catch((err: unknown) => log('stopping the device sessions failed', { error: (err as Error).message }));
    await endCloudCellAttempt(attemptRow.id).catch((err: unknown) => log('ending the cloud cells’ sessions failed', { error: (err as Error).message }));
    for (const platform of ['android.apk', 'ios.ipa']) await rm(`${buildsScratch}-${platform}`, { force: true });
    if (baselineDir) await removeBaselineDir(baselineDir);
    if (healingFile) await removeHealingFingerprints(healingFile);
  }

  const status: 'passed' | 'failed' | 'error' = error ? 'error' : result!.status === 'passed' ? 'passed' : 'failed';
  log(`attempt ${attempt} ended: ${status}${error ? `: ${error}` : ''}`);
  const ended = await endAttempt(db, attemptRow.id, { status, error });
  if (abortCode === 'cancelled') {
    // The test already ended "cancelled" (cancel-runs.ts); what the attempt left (its log, its folder) is kept.
    await publishFolder(deps, runTestKey(rt.clientId, rt.runId, rt.id), dir);
    queueMoved(deps);
    return;
  }
  // Given up as stale (its heartbeat came late): the reaper owns this test now, and its retry may already run.
  if (!ended || abortCode === 'lost') return;

  // Whether a retry could help is the kind's fact: bad options, a refused target or the time limit would only repeat.
  const retry = status === 'error' && attempt < maxAttempts && isRetried(rt.kind, errorCode);
  if (retry) {
    await keepAttemptArtifacts(dir, attempt, result?.artifacts).catch((err: unknown) => deps.log.warn({ err, runTestId: rt.id }, 'keeping the attempt artifacts failed'));
    // The retry may run on another machine: with a remote store this attempt's files go to it now.
    await publishFolder(deps, runTestKey(rt.clientId, rt.runId, rt.id), dir);
    const queued = await updateRunTest(
      db,
      rt.id,
      { status: 'queued', error: `attempt ${attempt} errored (${error}); retrying`, progress: null, updatedAt: new Date() },
      { statusIn: ['running', 'queued'] },
    );
    if (queued) deps.bus.emit(rt.clientId, { type: 'test', data: testEventOf(queued) });
    throw new RetryableAttemptError(error ?? 'attempt errored');
  }
  const finishing = performance.now();
  // The shots this attempt offers as baselines, recorded before the test (and maybe the run) says it ended.
  if (rt.kind === 'visual' && result?.summary) {
    await recordVisualCandidates(deps, rt, attempt, result.summary).catch((err: unknown) => deps.log.error({ err, runTestId: rt.id }, 'recording the visual candidates failed'));
  }
  // The call sites its passing tests reached, for the next attempts of this suite version to heal with.
  if (rt.kind === 'browser' && result && suiteId) {
    const owner = { clientId: rt.clientId, suiteId, testName: rt.testName };
    await recordFingerprints(deps, owner, runDir).catch((err: unknown) => deps.log.error({ err, runTestId: rt.id }, 'recording the locator fingerprints failed'));
  }
  await finishRunTest(deps, rt, { status, result: status === 'error' ? (result?.summary ? result : null) : result, error, attempt });
  log(`reports and the test's end took ${Math.round(performance.now() - finishing)} ms`);
}
