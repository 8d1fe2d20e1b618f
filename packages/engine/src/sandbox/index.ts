/** Runs each attempt in a supervised runner process of its own, with time and memory limits and no orphans. */
export { ATTEMPT_TAG_VAR, childEnv } from './child-env.ts';
export { sweepOrphanedOffThread } from './memory-monitor.ts';
export { attemptProcesses, attemptTag, processTable, sweepOrphanedAttempts } from './process-table.ts';
export {
  emptyWarmPool,
  runInSandbox,
  SandboxError,
  type SandboxErrorCode,
  type SandboxLimits,
  type SandboxRun,
  type SandboxStats,
  WARM_POOL_IDLE_MS,
  WARM_POOL_MAX,
  warmRunnersWaiting,
} from './supervisor.ts';
export { chromiumSandboxSupport, resolveRunnerUser, type RunnerUser, runnerUserBlocker } from './runner-user.ts';
export {
  isRunnerPool,
  RUNNER_POOL_PREFIX,
  RUNNER_USERS_FIX,
  type RunnerLease,
  RunnerPool,
  RunnerPoolRefused,
  type RunnerPoolSource,
  type RunnerPoolState,
} from './runner-pool.ts';
export { type AttemptEnd, attemptEnd } from './containment.ts';
export { netJailSupport, type NetJailSupport } from './net-jail.ts';
export { isWarmTag } from './warm-pool.ts';
