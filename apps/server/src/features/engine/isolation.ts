import type { AttemptEndHow, ProcessIsolation } from '@fullstop/contracts';
import { attemptEnd, chromiumSandboxSupport, isRunnerPool, netJailSupport, type RunnerUser } from '@fullstop/engine/sandbox';
import type { EngineConfig } from './config.ts';

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** The user whose answers (Chromium's sandbox, the network namespace) stand for all of a process's runners. */
function representative(runAs: EngineConfig['runAs']): RunnerUser | null {
  return isRunnerPool(runAs) ? runAs.representative() : runAs;
}

/** How attempts end whole here: a pool's users are emptied whatever else holds (runner-pool.ts), a cgroup comes first. */
function attemptEndHow(runAs: EngineConfig['runAs']): AttemptEndHow {
  const how = attemptEnd();
  return how === 'cgroup' || !isRunnerPool(runAs) ? how : 'runner-user';
}

const EXPLAIN: Readonly<Record<AttemptEndHow, string>> = {
  cgroup: 'cgroups: everything in a test’s cgroups is killed when it ends',
  'runner-user': 'every process of the test’s runner user is killed when it ends',
  subreaper: 'each runner process is a child subreaper that kills its tree (a runner killed by its own test may leave a detached process behind)',
  tags: 'only a test’s tagged processes and their descendants are killed: a detached process that drops the tag may outlive it (no cgroup, no python3)',
};

/**
 * How this process's runners are kept away from the server and from each other, for the console's System page
 * (decision 0077, issue 37): who they run as, whether Chromium has its own sandbox, how a test's processes are all
 * ended with it, and whether each test gets a network namespace of its own. Null for a process that runs no tests
 * (`workers` 0), where none of it means anything. A pool's users are known once claimed (announceRunners, at start).
 */
export function runnerIsolation(config: Pick<EngineConfig, 'runAs'>, workers: number): ProcessIsolation | null {
  if (workers <= 0) return null;
  const { runAs } = config;
  const user = representative(runAs);
  const sandbox = chromiumSandboxSupport(user);
  const net = netJailSupport(user);
  let runnerUser: string | null = null;
  let runnerUsers: NonNullable<ProcessIsolation['runnerUsers']>;
  if (isRunnerPool(runAs)) {
    const state = runAs.state();
    if (state.refused) runnerUsers = { mode: 'refused', names: [], problem: state.refused };
    else {
      runnerUser = state.names.length > 1 ? `${state.names[0]} … ${state.names.at(-1)}` : (state.names[0] ?? null);
      runnerUsers = { mode: 'pool', names: state.names, problem: state.short };
    }
  } else if (runAs) {
    runnerUser = runAs.name;
    runnerUsers = { mode: 'shared', names: [runAs.name], problem: null };
  } else {
    runnerUsers = { mode: 'server', names: [], problem: null };
  }
  return {
    runnerUser,
    chromiumSandbox: sandbox.ok,
    reason: sandbox.ok ? null : sandbox.reason,
    runnerUsers,
    attemptEnd: { how: attemptEndHow(runAs) },
    networkNamespace: net.ok ? { ok: true, reason: null } : { ok: false, reason: net.reason },
  };
}

/**
 * At start: claims a pool's runner users (runner-pool.ts: created when missing, for an automatic pool), then says
 * in one line who runner processes run as and how a test's processes are all ended with it; an error line (the
 * fix in it) when the process refuses tests, a warning when the pool is short, when Chromium cannot sandbox itself
 * for a pool's users (production), and, where it runs tests (`workers`), when they get no network namespace of
 * their own.
 */
export async function announceRunners(config: Pick<EngineConfig, 'runAs'>, log: Logger, options: { production: boolean; workers: number }): Promise<void> {
  const { runAs } = config;
  const end = attemptEndHow(runAs);
  if (isRunnerPool(runAs)) {
    await runAs.claim();
    const state = runAs.state();
    if (state.refused) {
      log.error({ runnerUsers: [] }, `tests cannot run: ${state.refused}`);
      return;
    }
    log.info(
      { runnerUsers: state.names, created: state.created, attemptEnd: end },
      `runner processes run as ${state.names.length} user(s) of their own, one per running test (${state.names.join(', ')}${state.created.length ? `; created ${state.created.join(', ')}` : ''}); a test ends whole: ${EXPLAIN[end]}`,
    );
    if (state.short) log.warn({ runnerUsers: state.names }, `runner users: ${state.short}`);
    const sandbox = chromiumSandboxSupport(runAs.representative());
    if (options.production && !sandbox.ok) log.warn({}, `Chromium runs with --no-sandbox: ${sandbox.reason}`);
  } else if (runAs) {
    log.info(
      { runnerUser: runAs.name, attemptEnd: end },
      `runner processes run as ${runAs.name}, shared by the tests running at once (ENGINE_RUNNER_USER names one user; several, comma-separated, give each test its own); a test ends whole: ${EXPLAIN[end]}`,
    );
  } else {
    log.info({ uid: process.geteuid?.() ?? null, attemptEnd: end }, `runner processes run as this server's own user (uid ${process.geteuid?.() ?? '?'}); a test ends whole: ${EXPLAIN[end]}`);
  }
  // Probed (a jailed launch) only where tests run.
  if (options.workers <= 0) return;
  const net = netJailSupport(representative(runAs));
  if (!net.ok) log.warn({}, `tests get no network namespace of their own (what a client's code opens itself is not forced through the policy proxy): ${net.reason}`);
}
