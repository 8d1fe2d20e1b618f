import type { DeviceSessionPart, DeviceSessionRequest, RunContext, RunnerResult, RunTarget, TestDefinition, TestKind } from '../types.ts';

/**
 * The argument (`process.argv[2]`) asking a pre-forked runner process to load, while it waits, what every runner
 * of the engine imports; any other argument names the runners module its pool runs (warm-pool.ts).
 */
export const ENGINE_RUNNERS_PRELOAD = '--engine-runners';

/**
 * The runner process's nice value, inherited by every browser and tool it starts: on a machine where runs keep
 * every core busy, the API process (nice 0) is still scheduled first, so clients' portal reads stay quick. Set by
 * the launcher at the fork and by the runner itself as it starts (a runner of another user, docs/decisions/0077).
 */
export const RUNNER_NICENESS = 10;

/** Set in a runner's environment when it was started as a child subreaper (containment.ts): it kills its descendants before it exits. */
export const SUBREAPER_VAR = 'FULLSTOP_SUBREAPER';

/** What the supervisor sends the runner process over IPC. */
export type HostRequest =
  | {
      type: 'run';
      kind: TestKind;
      test: TestDefinition;
      target: RunTarget;
      ctx: Pick<RunContext, 'runDir' | 'chromiumPath' | 'wapitiPath' | 'workers' | 'cores' | 'loadGenerator' | 'baselineDir' | 'healingFingerprints'>;
      /** Absolute path of a module exporting `runners` (tests and benches); the engine's own runner otherwise. */
      runnersModule?: string;
      /** The values of the secrets the test's login names, by name (decision 0060): never in env vars or files. */
      secrets?: Record<string, string>;
    }
  | { type: 'abort'; reason: string }
  /** The answer to a `device-open` (its Appium URL, or why not) or a `device-close` (neither). */
  | { type: 'device'; id: number; url?: string; error?: string; code?: string };

/** What the runner process answers. */
export type HostMessage =
  | { type: 'ready' }
  /** The kind's runner is loaded (the test itself starts now): for the attempt's timings and the warm pool's refill. */
  | { type: 'loaded' }
  /** Values the supervisor masks in the runner's output too: the secrets and the logged-in session's own. */
  | { type: 'masks'; values: string[] }
  | { type: 'log'; message: string; data?: Record<string, unknown> }
  | { type: 'progress'; progress: { done: number; total: number; message?: string } }
  /** A mobile UI test's device needs its session opened by the server (RunContext.openDevice), or let go (closeDevice). */
  | { type: 'device-open'; id: number; request: DeviceSessionRequest }
  | { type: 'device-close'; id: number; index: number; part?: DeviceSessionPart }
  | { type: 'result'; result: RunnerResult }
  /** The runner threw instead of answering a result (the engine's runners never do; fakes may). */
  | { type: 'threw'; message: string; code?: string }
  /** An uncaught exception or rejection: the process exits right after. */
  | { type: 'fatal'; message: string };
