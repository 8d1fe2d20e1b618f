import os from 'node:os';
import { chromiumSandboxSupport, resolveRunnerUser, type RunnerUser } from '@fullstop/engine/sandbox';
import { ConfigError, type Env } from '../../config/env.ts';

/** The engine's settings, shaped from the one validated environment (config/env.ts holds the ENGINE_* variables). */
export interface EngineConfig {
  /** The most attempts this process runs at once. */
  workers: number;
  /** Cores' worth of attempts this process runs at once, by their kinds' weights (queue/capacity.ts); 0: no limit but `workers`. */
  capacity: number;
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
  /** How long the generators of a load test wait for each other before the test ends as an error (issue 12). */
  loadGatherSeconds: number;
  runnersModule: string | undefined;
  /** The OS user runner processes run as (ENGINE_RUNNER_USER, checked at start); null: this process's (decision 0077). */
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
 * ENGINE_RUNNER_USER, checked: a user that exists, is not root and this process can switch to, else a ConfigError
 * naming the variable (the process does not start). Unset in production, where this process runs attempts: a
 * warning that runners run as the server's user; and wherever Chromium cannot use its own sandbox, the reason.
 */
function runnerUserOf(env: Env, workers: number): RunnerUser | null {
  let user: RunnerUser | null = null;
  if (env.ENGINE_RUNNER_USER) {
    try {
      user = resolveRunnerUser(env.ENGINE_RUNNER_USER);
    } catch (error) {
      throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
    }
    // The runner reaches its folder through DATA_DIR's folders (search bit only): whatever a production process
    // writes from now on is its own alone, so a folder it makes beside that path is closed to the runner (the
    // systemd units' UMask=0077 says the same from the start). Not in tests, which share their process.
    if (env.NODE_ENV === 'production') process.umask(0o077);
  }
  if (env.NODE_ENV === 'production' && workers > 0) {
    if (!user) warnOnce('ENGINE_RUNNER_USER is not set: runner processes and their browsers run as the server\'s own user and can read its files and /proc (docs/decisions/0077)');
    const sandbox = chromiumSandboxSupport(user);
    if (!sandbox.ok) warnOnce(`Chromium runs with --no-sandbox: ${sandbox.reason}`);
  }
  return user;
}

/** Defaults: 4 in-process workers (most of a test's time is spent waiting on a browser or the network), none under NODE_ENV=test. */
export function engineConfig(env: Env): EngineConfig {
  const staleAfter = env.ENGINE_STALE_AFTER;
  const capacity = env.ENGINE_CAPACITY ?? os.availableParallelism();
  const workers = env.ENGINE_WORKERS ?? (env.NODE_ENV === 'test' ? 0 : 4);
  return {
    workers,
    capacity,
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
    loadGatherSeconds: env.ENGINE_LOAD_GATHER_SECONDS,
    runnersModule: env.ENGINE_RUNNERS_MODULE,
    runnerUser: runnerUserOf(env, workers),
    scheduler: env.NODE_ENV !== 'test',
  };
}
