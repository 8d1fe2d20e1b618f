import os from 'node:os';
import { chromiumSandboxSupport, isRunnerPool, resolveRunnerUser, RunnerPool, type RunnerUser } from '@fullstop/engine/sandbox';
import { ConfigError, type Env, runnerUserNames } from '../../config/env.ts';
import { lightLaneWorkers } from '../queue/index.ts';

/** The engine's settings, shaped from the one validated environment (config/env.ts holds the ENGINE_* variables). */
export interface EngineConfig {
  /** The most attempts this process runs at once. */
  workers: number;
  /** Cores' worth of attempts this process runs at once, by their kinds' weights (queue/capacity.ts); 0: no limit but `workers`. */
  capacity: number;
  /** Cores' worth kept for light tests on top of `capacity` (ENGINE_LIGHT_LANE, docs/decisions/0091); 0: none. */
  lightLane: number;
  /** Workers of the light lane, started beside `workers` wherever this process runs tests (one per light test it holds). */
  lightLaneWorkers: number;
  /** Playwright workers inside one browser test. */
  browserWorkers: number;
  retries: number;
  retryDelaySeconds: number;
  staleAfterSeconds: number;
  heartbeatSeconds: number;
  allowPrivateTargets: boolean;
  demoSuite: boolean;
  chromiumPath: string;
  /** Reports are offered as pdf too, printed on their first download by the serving process's report browser. */
  reportPdf: boolean;
  wapitiPath: string;
  runMemoryMb: number;
  /** Runner processes kept forked ahead of their attempts (ENGINE_WARM_RUNNERS); never more are asked for than `workers`. */
  warmRunners: number;
  /** Firefox starts on a copy of a profile template (ENGINE_WARM_FIREFOX, decision 0111). */
  warmFirefox: boolean;
  /** How long the generators of a load test wait for each other before the test ends as an error (issue 12). */
  loadGatherSeconds: number;
  runnersModule: string | undefined;
  /**
   * Who runner processes run as (decisions 0077, issue 37; runInSandbox's `runAs`): a pool each attempt leases a user
   * of its own from (ENGINE_RUNNER_USER listing several, or made by a root server itself; claimed at start), one user
   * shared by every attempt (ENGINE_RUNNER_USER naming one), or null: this process's own (a non-root server, tests).
   */
  runAs: RunnerPool | RunnerUser | null;
  /** The one user ENGINE_RUNNER_USER names, shared by every attempt; null with a pool or none. */
  runnerUser: RunnerUser | null;
  /** This process runs the clients' schedules (every API and worker process; the API tests tick by hand). */
  scheduler: boolean;
}

/**
 * One Playwright worker per 2 cores of capacity (1 to 4), so a browser test's own workers fit the weight it is
 * given: on 2 cores one worker took the demo's browser tests in about the same time as two, for less CPU, and
 * left the other core to the tests beside it (bench/engine/README.md). Without a capacity: 2, as before.
 */
function defaultBrowserWorkers(capacity: number): number {
  return capacity > 0 ? Math.min(4, Math.max(1, Math.floor(capacity / 2))) : 2;
}

const warned = new Set<string>();
/** A warning printed once per process, however often the config is shaped. */
function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  process.emitWarning(message, 'FullstopSecurityWarning');
}

/**
 * The runner users a process needs: one per attempt it runs at once (`workers`), one per runner process its warm
 * pool keeps forked (each holds its user from its fork), and one for a starter suite's crawl, which runs beside the
 * workers. At most 64 + 2 + 1 = 67 (ENGINE_WORKERS' and ENGINE_WARM_RUNNERS' bounds).
 */
export function runnerPoolSize(workers: number, warmRunners: number): number {
  return workers + Math.min(warmRunners, workers) + 1;
}

/**
 * Who runner processes run as, from ENGINE_RUNNER_USER (checked: each user exists, is not root and this process can
 * switch to it, else a ConfigError naming the variable, and the process does not start):
 * - several names: a pool of them; one name: that user, shared;
 * - unset, this process root (not in tests): a pool it makes itself (claimed at start, runner-pool.ts); one it cannot
 *   make refuses attempts saying how to fix it, the server still starts;
 * - unset otherwise: this process's own user, with a warning in production where it runs attempts.
 * Wherever Chromium cannot use its own sandbox, a warning with the reason (production).
 */
function runnersOf(env: Env, workers: number): { runAs: RunnerPool | RunnerUser | null; runnerUser: RunnerUser | null } {
  const names = env.ENGINE_RUNNER_USER ? runnerUserNames(env.ENGINE_RUNNER_USER) : null;
  const size = runnerPoolSize(workers, env.ENGINE_WARM_RUNNERS);
  let runAs: RunnerPool | RunnerUser | null = null;
  if (names) {
    const users: RunnerUser[] = [];
    try {
      for (const name of names) users.push(resolveRunnerUser(name));
    } catch (error) {
      throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
    }
    const uids = new Set(users.map((u) => u.uid));
    if (uids.size < users.length) throw new ConfigError('Invalid configuration:\n  ENGINE_RUNNER_USER: two of its names are the same user (one uid); a pool needs users of their own');
    runAs = users.length === 1 ? users[0]! : new RunnerPool({ names }, size);
  } else if (process.geteuid?.() === 0 && env.NODE_ENV !== 'test') {
    runAs = new RunnerPool({ automatic: true }, size);
  }
  // The runner reaches its folder through DATA_DIR's folders (search bit only): whatever this process writes from
  // now on is its own alone, so a folder it makes beside that path is closed to the runners (the systemd units'
  // UMask=0077 says the same from the start). Not in tests, which share their process.
  if (runAs && env.NODE_ENV !== 'test') process.umask(0o077);
  if (env.NODE_ENV === 'production' && workers > 0) {
    if (!runAs) warnOnce('ENGINE_RUNNER_USER is not set: runner processes and their browsers run as the server\'s own user and can read its files and /proc (docs/decisions/0077)');
    // A pool's users are not claimed yet: its answer is given at start, with its users (isolation.ts).
    const sandbox = isRunnerPool(runAs) ? null : chromiumSandboxSupport(runAs);
    if (sandbox && !sandbox.ok) warnOnce(`Chromium runs with --no-sandbox: ${sandbox.reason}`);
  }
  return { runAs, runnerUser: runAs && !isRunnerPool(runAs) ? runAs : null };
}

/**
 * Defaults: 4 in-process workers (most of a test's time is spent waiting on a browser or the network), none under
 * NODE_ENV=test. `options.workers`: the workers this process really starts (`fullstop worker --concurrency`), which
 * size its pool of runner users.
 */
export function engineConfig(env: Env, options: { workers?: number } = {}): EngineConfig {
  const staleAfter = env.ENGINE_STALE_AFTER;
  const capacity = env.ENGINE_CAPACITY ?? os.availableParallelism();
  const workers = options.workers ?? env.ENGINE_WORKERS ?? (env.NODE_ENV === 'test' ? 0 : 4);
  // Off in the API tests, whose workers and overlaps are counted without it; the lane's own tests turn it on.
  const lightLane = capacity > 0 ? (env.ENGINE_LIGHT_LANE ?? (env.NODE_ENV === 'test' ? 0 : 0.5)) : 0;
  const laneWorkers = lightLaneWorkers(capacity, lightLane);
  return {
    workers,
    capacity,
    lightLane,
    lightLaneWorkers: laneWorkers,
    browserWorkers: env.ENGINE_BROWSER_WORKERS ?? defaultBrowserWorkers(capacity),
    retries: env.ENGINE_RETRIES,
    retryDelaySeconds: env.ENGINE_RETRY_DELAY,
    staleAfterSeconds: staleAfter,
    heartbeatSeconds: Math.max(1, Math.floor(staleAfter / 6)),
    allowPrivateTargets: env.ENGINE_ALLOW_PRIVATE_TARGETS,
    demoSuite: env.ENGINE_DEMO_SUITE && env.NODE_ENV !== 'test',
    chromiumPath: env.CHROMIUM_PATH,
    // Off in the API tests, whose lists of formats are written without it; the tests of the pdf turn it on.
    reportPdf: env.ENGINE_REPORT_PDF ?? env.NODE_ENV !== 'test',
    wapitiPath: env.WAPITI_PATH,
    runMemoryMb: env.ENGINE_RUN_MEMORY_MB,
    warmRunners: env.ENGINE_WARM_RUNNERS,
    warmFirefox: env.ENGINE_WARM_FIREFOX,
    loadGatherSeconds: env.ENGINE_LOAD_GATHER_SECONDS,
    runnersModule: env.ENGINE_RUNNERS_MODULE,
    // The lane's workers run attempts too: each needs a runner user of its own.
    ...runnersOf(env, workers > 0 ? workers + laneWorkers : 0),
    scheduler: env.NODE_ENV !== 'test',
  };
}
