import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { maskForms, maskRunFolder, maskText } from '../lib/mask-secrets.ts';
import type { RunContext, RunnerResult, RunTarget, TestDefinition } from '../types.ts';
import { ATTEMPT_TAG_VAR, childEnv } from './child-env.ts';
import { entryFile } from './entry-file.ts';
import { launch, type RemoteChild } from './launcher-client.ts';
import { type AttemptCgroup, createAttemptCgroup } from './attempt-cgroup.ts';
import { cgroupsInUse, subreaperPython } from './containment.ts';
import { killAttemptOffThread, watchMemory } from './memory-monitor.ts';
import { attemptTag } from './process-table.ts';
import { CHROMIUM_SANDBOX_VAR } from '../lib/chromium.ts';
import { NET_JAIL_VAR, netJailSupport } from './net-jail.ts';
import { WARM_FIREFOX_VAR } from '../lib/warm-firefox.ts';
import { startsFirefox, warmFirefoxFolder } from './warm-firefox.ts';
import { factsOf } from '../runners/kinds.ts';
import { stageInputs } from './runner-inputs.ts';
import { isRunnerPool, type RunnerLease, type RunnerPool } from './runner-pool.ts';
import { chromiumSandboxSupport, privateTempFolder, type RunnerUser, runnerUserEnv, takeBackTree } from './runner-user.ts';
import { ENGINE_RUNNERS_PRELOAD, type HostMessage, type HostRequest, RUNNER_NICENESS, SUBREAPER_VAR } from './protocol.ts';
import { type RunnerShape, WARM_POOL_MAX, WARM_REFILL_AFTER_MS, WarmPool, type WarmRunner } from './warm-pool.ts';

export { MEMORY_POLL_MS } from './memory-monitor.ts';
export { WARM_POOL_IDLE_MS, WARM_POOL_MAX } from './warm-pool.ts';

const HOST_ENTRY = entryFile('runner-host');
export { RUNNER_NICENESS } from './protocol.ts';
/**
 * The runner's young generation (V8's semi-space, MB), fixed: left to V8 it is sized from the memory the process
 * sees when it starts, 1 MB inside its attempt's cgroup and 64 MB outside, so it depended on whether the cgroup
 * was joined before V8 started (a fresh fork, racing) or after (a pre-forked one).
 */
const RUNNER_SEMI_SPACE_MB = 16;
/** Time an aborted runner gets to stop by itself before its processes are killed. */
export const ABORT_GRACE_MS = 3_000;
/** Time the IPC channel gets to deliver the last messages of a process that has exited. */
const EXIT_DRAIN_MS = 500;
/** Runner output kept for the crash message and forwarded to the attempt log. */
const OUTPUT_TAIL_CHARS = 4_000;
const MAX_OUTPUT_LINES_LOGGED = 200;

export type SandboxErrorCode = 'crashed' | 'out_of_memory' | 'time_limit' | 'start_failed';

/** The runner process ended the attempt without a result; the message says what happened, in words. */
export class SandboxError extends Error {
  readonly code: SandboxErrorCode;

  constructor(code: SandboxErrorCode, message: string) {
    super(message);
    this.name = 'SandboxError';
    this.code = code;
  }
}

export interface SandboxLimits {
  /** Wall time of the attempt, process start included. */
  timeSeconds: number;
  /** Memory (summed PSS) of the attempt's whole process tree (runner, browsers, tools), and the runner's heap. */
  memoryMb: number;
}

export interface SandboxRun {
  test: TestDefinition;
  target: RunTarget;
  ctx: Pick<RunContext, 'runDir' | 'chromiumPath' | 'wapitiPath' | 'workers' | 'cores' | 'signal' | 'log' | 'progress' | 'loadGenerator' | 'baselineDir' | 'healingFingerprints' | 'openDevice' | 'closeDevice'> & {
    /** Runner processes to keep forked ahead (the warm pool, at most WARM_POOL_MAX); 0 or unset: a fresh fork each time. */
    warmRunners?: number;
    /**
     * Firefox starts on a copy of a profile template this process made (lib/warm-firefox.ts), for attempts that run
     * as a user of their own (`runAs`): a runner of this process's own user could write the template. Unset: cold.
     */
    warmFirefox?: boolean;
    /**
     * The OS user the runner process and all it starts run as: a pool (runner-pool.ts), from which the attempt leases
     * a user of its own, or one user shared by every attempt (resolveRunnerUser, ENGINE_RUNNER_USER). The attempt's
     * folder is that user's for the attempt, and this process's again, closed, after it. Unset: this process's user
     * (decision 0077).
     */
    runAs?: RunnerUser | RunnerPool | null;
  };
  limits: SandboxLimits;
  /** Unique per attempt (the attempt row's id): part of the tag every process of the attempt carries. */
  attemptKey: string;
  /** Absolute path of a module exporting `runners`, loaded instead of the engine's (tests, benches). */
  runnersModule?: string;
  /** Where the allow-listed environment is taken from (this process's by default). */
  env?: NodeJS.ProcessEnv;
  /** Values of the secrets the test's login names, by name: sent in the run request, masked in all it writes. */
  secrets?: Record<string, string>;
}

export interface SandboxStats {
  pid: number;
  /** The OS user the attempt ran as (null: this process's). */
  user: string | null;
  /** The tag every process of the attempt carries (a pre-forked process's own, given at its fork). */
  tag: string;
  /** The runner process came from the warm pool. */
  warm: boolean;
  /** From the call to the run request leaving: the fork and the runner process's start, or the take from the pool. */
  readyMs: number;
  /** From the run request to the kind's runner loaded (-1 when it never was). */
  loadMs: number;
  /** The most memory the attempt's processes held at one poll (summed VmRSS; summed PSS once over the limit). */
  peakMemoryBytes: number;
}

/**
 * Runner processes forked ahead of their attempts, for every attempt of this process. One of a pool's shape leases
 * its user at its fork (none free: not forked now), and the attempt that takes it inherits the lease.
 */
const warmPool = new WarmPool((shape, tag) => {
  const lease = isRunnerPool(shape.runAs) ? shape.runAs.tryLease() : null;
  if (isRunnerPool(shape.runAs) && !lease) return null;
  const user = lease?.user ?? (shape.runAs as RunnerUser | null);
  return { child: forkRunner(shape, tag, tmpdir(), user, shape.runnersModule ?? ENGINE_RUNNERS_PRELOAD), user, lease };
});

/** How many runner processes wait in the warm pool now. */
export const warmRunnersWaiting = (): number => warmPool.size;

/** Ends the runner processes waiting in the warm pool (they would go at the idle time or with this process). */
export function emptyWarmPool(): void {
  warmPool.drain();
}

/**
 * Forked by the launcher, a small process: a fork from this one would block its event loop (launcher.ts). As `user`
 * (null: this process's), with its HOME, USER and LOGNAME, and a temporary folder of its own (TMPDIR, removed when it
 * exits); where no cgroup will hold the attempt, started as a child subreaper (containment.ts).
 */
function forkRunner(shape: RunnerShape, tag: string, cwd: string, user: RunnerUser | null, preload?: string): RemoteChild {
  const subreaper = cgroupsInUse() ? null : subreaperPython();
  const temp = user ? privateTempFolder(user) : null;
  const child = launch({
    entry: HOST_ENTRY,
    args: preload ? [preload] : [],
    cwd,
    env: {
      ...shape.env,
      ...(user ? runnerUserEnv(user) : {}),
      ...(temp ? { TMPDIR: temp.dir, TMP: temp.dir, TEMP: temp.dir } : {}),
      [ATTEMPT_TAG_VAR]: tag,
      ...(subreaper ? { [SUBREAPER_VAR]: '1' } : {}),
    },
    execArgv: [`--max-old-space-size=${shape.memoryMb}`, `--max-semi-space-size=${RUNNER_SEMI_SPACE_MB}`],
    niceness: RUNNER_NICENESS,
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    ...(subreaper ? { subreaper } : {}),
  });
  if (temp) child.once('exit', temp.remove);
  return child;
}

/**
 * What the attempt's runner process is forked with: memory limit, runners module, who it runs as (a pool, one user
 * or this process's), and the allow-listed environment (child-env.ts) with whether its Chromium may use its own
 * sandbox (lib/chromium.ts reads it; the same for every user of a pool) and the warm Firefox template's folder once
 * made (lib/warm-firefox.ts). The user's own variables are added at the fork: a pool's shape is the same whichever
 * user a process leases.
 */
function runnerShape(run: SandboxRun): RunnerShape {
  const runAs = run.ctx.runAs ?? null;
  const user = isRunnerPool(runAs) ? runAs.representative() : runAs;
  const sandbox = chromiumSandboxSupport(user);
  // Made when a test first starts Firefox, then named to every runner: one shape for the warm pool either way.
  const warm = run.ctx.warmFirefox && user ? warmFirefoxFolder({ make: startsFirefox(run.test) }) : null;
  // The network jail's probe, once per process and user here rather than once in every runner process (~100 ms).
  const env = childEnv(run.env ?? process.env, { ...(sandbox.ok ? { [CHROMIUM_SANDBOX_VAR]: '1' } : {}), [NET_JAIL_VAR]: netJailSupport(user).ok ? '1' : '0', ...(warm ? { [WARM_FIREFOX_VAR]: warm } : {}) });
  return { memoryMb: run.limits.memoryMb, env, runnersModule: run.runnersModule, runAs };
}

/** Calls `then` with the child's pid: now, or once the launcher has forked it. */
function whenForked(child: RemoteChild, then: () => void): void {
  if (child.pid > 0) then();
  else child.once('spawn', then);
}

/**
 * Runs one attempt in a runner process of its own (runner-host.ts) and answers its result. A crash, a hang past
 * the time limit or memory over the limit ends the attempt with a SandboxError saying so; in every case each
 * process the attempt started (browsers, Playwright workers, wapiti, detached or not) is killed before this
 * returns. Aborting `ctx.signal` stops the runner and rejects with the signal's reason.
 *
 * With `ctx.warmRunners`, the runner process is taken from the warm pool when one of the attempt's shape (memory
 * limit, environment, runners module, who it runs as) waits there; it then carries the tag it was forked with. Either
 * way the cgroup is made and the process put in it before the run request leaves.
 *
 * With a pool in `ctx.runAs` (runner-pool.ts), the attempt runs as a user of its own: leased here (waiting while
 * every user is busy; a refused pool rejects with RunnerPoolRefused, code engine_missing), or with the pre-forked
 * process that leased it at its fork. The user goes back to the pool only once the attempt ended whole: its cgroups
 * and tagged processes killed, then every process the user still has, then its folder taken back (takeBackTree).
 */
export async function runInSandbox(run: SandboxRun, onStats?: (stats: SandboxStats) => void): Promise<RunnerResult> {
  const { ctx } = run;
  if (ctx.signal.aborted) throw ctx.signal.reason as Error;
  const pool = isRunnerPool(ctx.runAs) ? ctx.runAs : null;
  // Its users first: the shape's Chromium answer is theirs.
  await pool?.claim();
  const shape = runnerShape(run);
  const poolSize = Math.min(Math.max(ctx.warmRunners ?? 0, 0), WARM_POOL_MAX);
  const ended = warmPool.attemptStarted();
  const warm = warmPool.take(shape, poolSize);
  let lease: RunnerLease | null = warm?.lease ?? null;
  let used = false;
  try {
    // A user of its own, held until the attempt has ended whole (waits while every user of the pool is busy).
    if (pool && !warm) lease = await pool.lease(ctx.signal);
    const user = warm ? warm.user : (lease?.user ?? (pool ? null : ((ctx.runAs as RunnerUser | null | undefined) ?? null)));
    used = true;
    return await attemptAs(run, { shape, poolSize, warm, user, lease }, onStats);
  } finally {
    // A pre-forked process taken and never given its test (the lease was refused, the attempt aborted).
    if (warm && !used) warm.child.kill('SIGKILL');
    if (lease && !used) await lease.killLeftovers().catch(() => undefined);
    lease?.release();
    ended();
  }
}

interface Runner {
  shape: RunnerShape;
  poolSize: number;
  warm: WarmRunner | null;
  user: RunnerUser | null;
  lease: RunnerLease | null;
}

/**
 * The attempt as `runner.user`: its folder given to that user and its inputs copied where it may read them, before
 * any runner process sees the attempt; after it, once every process of it is dead (a leased user's leftovers too),
 * the folder is this process's again, closed to group and others (takeBackTree).
 */
async function attemptAs(run: SandboxRun, runner: Runner, onStats?: (stats: SandboxStats) => void): Promise<RunnerResult> {
  const { user, lease, warm } = runner;
  if (!user) return runSupervised(run, runner, onStats);
  let staged: Awaited<ReturnType<typeof stageInputs>>;
  try {
    staged = await stageInputs(run.test, run.target, run.ctx.runDir, user, run.ctx.baselineDir, run.ctx.healingFingerprints || undefined);
  } catch (error) {
    warm?.child.kill('SIGKILL');
    throw new SandboxError('start_failed', `the runner process could not start: the attempt's files could not be given to ${user.name}: ${(error as Error).message}`);
  }
  try {
    // The copies the runner user may read, in place of the server's files; fingerprints not copied (none stored yet)
    // are unset: nothing heals, and the attempt still records its own.
    const ctx = { ...run.ctx, ...(staged.baselineDir ? { baselineDir: staged.baselineDir } : {}) };
    if (typeof run.ctx.healingFingerprints === 'string') {
      if (staged.healingFingerprints) ctx.healingFingerprints = staged.healingFingerprints;
      else delete ctx.healingFingerprints;
    }
    return await runSupervised({ ...run, test: staged.test, target: staged.target, ctx }, runner, onStats);
  } finally {
    if (lease) {
      const { killed, left } = await lease.killLeftovers().catch(() => ({ killed: 0, left: -1 }));
      if (killed > 0) run.ctx.log(`killed ${killed} process(es) of ${user.name} the attempt left behind`);
      if (left !== 0) run.ctx.log(`${user.name} still has processes the attempt left (${left < 0 ? 'they could not be listed' : left}): it is not leased again until they are gone`);
    }
    try {
      takeBackTree(run.ctx.runDir);
    } catch (error) {
      run.ctx.log(`the attempt's folder could not be taken back from ${user.name}: ${(error as Error).message}`);
    }
    await staged.remove().catch(() => {});
  }
}

function runSupervised(run: SandboxRun, runner: Runner, onStats?: (stats: SandboxStats) => void): Promise<RunnerResult> {
  const { ctx, limits } = run;
  const { shape, poolSize, warm, user } = runner;
  if (ctx.signal.aborted) {
    warm?.child.kill('SIGKILL');
    return Promise.reject(ctx.signal.reason as Error);
  }
  const limitBytes = limits.memoryMb * 1024 * 1024;
  const startedAt = performance.now();
  const oomKillsAtStart = kernelOomKills();
  const tag = warm?.tag ?? attemptTag(run.attemptKey);
  const child = warm?.child ?? forkRunner(shape, tag, ctx.runDir, user);
  const withCgroup = cgroupsInUse();
  // Without a cgroup, a runner started as a subreaper (forkRunner) holds its tree's orphans: killed before it.
  const subreaper = !withCgroup && subreaperPython() !== null;
  const stats: SandboxStats = { pid: 0, user: user?.name ?? null, tag, warm: warm !== null, readyMs: -1, loadMs: -1, peakMemoryBytes: 0 };
  let cgroup: AttemptCgroup | null = null;
  // A kind whose figures time this machine's CPU (Lighthouse) comes before the other attempts (decision 0087).
  const cpu = factsOf(run.test.kind)?.measuresCpuTime ? 'measured' : 'background';
  whenForked(child, () => {
    stats.pid = child.pid;
    // Before the runner gets its test (sent at 'ready', which follows, or at once to a waiting process that is
    // ready): whatever it starts joins the cgroup, detached or not, and is killed with it at the end.
    if (!withCgroup) return;
    cgroup = createAttemptCgroup(tag, { memoryBytes: kernelCeilingBytes(limitBytes), cpu });
    if (cgroup && !cgroup.add(child.pid)) {
      cgroup.remove();
      cgroup = null;
    }
  });
  // The pool refills when this attempt ends, or once its runner has run WARM_REFILL_AFTER_MS: never beside the
  // attempt's start, nor beside a short test (a fork and load next to it doubled its time on two busy cores),
  // while after a long test's end the next attempt finds a process ready.
  let refilled = false;
  let refillTimer: NodeJS.Timeout | undefined;
  const refill = () => {
    clearTimeout(refillTimer);
    if (refilled) return;
    refilled = true;
    warmPool.refill(shape, poolSize);
  };

  return new Promise<RunnerResult>((resolve, reject) => {
    let settled = false;
    let outcome: { result: RunnerResult } | { error: Error } | null = null;
    let fatal: string | null = null;
    let outputTail = '';
    let linesLogged = 0;
    let killTimer: NodeJS.Timeout | undefined;
    // The runner's own output may hold a secret (a tool that prints its arguments): masked before it is kept.
    let maskValues = Object.values(run.secrets ?? {}).filter((v) => v.length > 0);
    let masks = maskForms(maskValues);

    const onOutput = (raw: string) => {
      const chunk = maskText(raw, masks);
      outputTail = (outputTail + chunk).slice(-OUTPUT_TAIL_CHARS);
      for (const line of chunk.split('\n')) {
        if (line.trim() && linesLogged++ < MAX_OUTPUT_LINES_LOGGED) ctx.log(`runner output: ${line.slice(0, 500)}`);
      }
    };
    child.stdout.setEncoding('utf8').on('data', onOutput);
    child.stderr.setEncoding('utf8').on('data', onOutput);

    const timeLimit = setTimeout(
      () => stop(new SandboxError('time_limit', `time limit of ${limits.timeSeconds} s reached`), { grace: true }),
      limits.timeSeconds * 1000,
    );
    const unwatch = watchMemory({
      tag,
      limitBytes,
      onSample: (used) => {
        stats.peakMemoryBytes = Math.max(stats.peakMemoryBytes, used);
      },
      onOver: () => stop(outOfMemory(), { grace: false }),
    });
    const onAbort = () => stop(ctx.signal.reason as Error, { grace: true });
    ctx.signal.addEventListener('abort', onAbort, { once: true });

    function outOfMemory() {
      return new SandboxError('out_of_memory', `the runner process ran out of memory (limit ${limits.memoryMb} MB)`);
    }

    /**
     * SIGKILLs the runner process. A subreaper's descendants go first: once it is gone, what it held (an orphan
     * without the tag) would be reparented to init and leave the attempt's tree.
     */
    function killRunner() {
      if (!subreaper || child.pid <= 0) return child.kill('SIGKILL');
      void killAttemptOffThread(tag, { except: child.pid })
        .catch(() => 0)
        .finally(() => child.kill('SIGKILL'));
    }

    /** Ends the attempt early: asks the runner to stop (or not), then kills everything it started. */
    function stop(error: Error, options: { grace: boolean }) {
      if (outcome) return;
      outcome = { error };
      if (options.grace && child.connected) {
        child.send({ type: 'abort', reason: error.message } satisfies HostRequest, () => {});
        killTimer = setTimeout(killRunner, ABORT_GRACE_MS);
      } else {
        killRunner();
      }
    }

    let runSentAt = 0;
    function sendRun() {
      if (runSentAt || outcome) return;
      runSentAt = performance.now();
      stats.readyMs = Math.round(runSentAt - startedAt);
      // A pre-forked process's tag names no attempt: the log ties the two together.
      ctx.log(`runner process ${stats.pid} ready in ${stats.readyMs} ms${warm ? ` (pre-forked, tag ${tag})` : ''}${user ? `, as ${user.name}` : ''}`);
      child.send(
        { type: 'run', kind: run.test.kind, test: run.test, target: run.target, ctx: { runDir: ctx.runDir, chromiumPath: ctx.chromiumPath, ...(ctx.wapitiPath ? { wapitiPath: ctx.wapitiPath } : {}), workers: ctx.workers, ...(ctx.cores !== undefined ? { cores: ctx.cores } : {}), ...(ctx.loadGenerator ? { loadGenerator: ctx.loadGenerator } : {}), ...(ctx.baselineDir ? { baselineDir: ctx.baselineDir } : {}), ...(ctx.healingFingerprints !== undefined ? { healingFingerprints: ctx.healingFingerprints } : {}) }, ...(run.runnersModule ? { runnersModule: run.runnersModule } : {}), ...(run.secrets ? { secrets: run.secrets } : {}) } satisfies HostRequest,
        () => {},
      );
    }

    child.on('message', (message: HostMessage) => {
      switch (message.type) {
        case 'ready':
          sendRun();
          break;
        case 'loaded':
          stats.loadMs = Math.round(performance.now() - runSentAt);
          ctx.log(`runner loaded in ${stats.loadMs} ms`);
          if (poolSize > 0) refillTimer = setTimeout(refill, WARM_REFILL_AFTER_MS);
          break;
        case 'masks':
          maskValues = message.values;
          masks = maskForms(maskValues);
          break;
        case 'log':
          ctx.log(message.message, message.data);
          break;
        case 'progress':
          ctx.progress?.(message.progress);
          break;
        case 'device-open':
        case 'device-close': {
          // A mobile UI test's device session, opened or let go by the server (AppiumEndpoint.sessionPerDevice).
          const answer = (reply: Omit<Extract<HostRequest, { type: 'device' }>, 'type' | 'id'>) => {
            if (child.connected) child.send({ type: 'device', id: message.id, ...reply } satisfies HostRequest, () => {});
          };
          const call =
            message.type === 'device-open'
              ? ctx.openDevice
                ? ctx.openDevice(message.request).then((opened) => answer({ url: opened.url }))
                : Promise.reject(new Error('this server opens no device sessions'))
              : Promise.resolve(ctx.closeDevice?.(message.index, message.part)).then(() => answer({}));
          call.catch((error: unknown) => {
            const code = (error as { code?: unknown }).code;
            answer({ error: error instanceof Error ? error.message : String(error), ...(typeof code === 'string' ? { code } : {}) });
          });
          break;
        }
        case 'result':
          outcome ??= isRunnerResult(message.result) ? { result: message.result } : { error: new SandboxError('crashed', 'the runner process answered something that is not a result') };
          break;
        case 'threw':
          outcome ??= { error: Object.assign(new Error(message.message), message.code ? { code: message.code } : {}) };
          break;
        case 'fatal':
          fatal = message.message;
          break;
      }
    });

    child.on('error', (error) => {
      outcome ??= { error: new SandboxError('start_failed', `the runner process could not start: ${error.message}`) };
      void settle();
    });
    child.on('exit', (code, signal) => {
      // Messages sent just before the exit may still be in the channel: let them arrive first.
      const decide = () => {
        outcome ??= { error: crashError(code, signal) };
        void settle();
      };
      if (child.connected) {
        const t = setTimeout(decide, EXIT_DRAIN_MS);
        child.once('disconnect', () => {
          clearTimeout(t);
          decide();
        });
      } else decide();
    });
    // A waiting process that said 'ready' before it was taken gets its test now (its cgroup is made: it had a pid).
    if (warm?.readyAt != null) sendRun();

    function crashError(code: number | null, signal: NodeJS.Signals | null): SandboxError {
      if (/heap out of memory|Reached heap limit/i.test(outputTail)) return outOfMemory();
      // Memory grown faster than the monitor polls (a busy machine) meets the kernel's out-of-memory killer first,
      // which picks runners before anything else (launcher.ts): a SIGKILL nobody here sent, with a kill counted.
      if (signal === 'SIGKILL' && ((cgroup?.oomKills() ?? 0) > 0 || kernelOomKills() > oomKillsAtStart)) return outOfMemory();
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      return new SandboxError('crashed', `the runner process crashed (${how})${fatal ? `: ${fatal}` : ''}`);
    }

    async function settle() {
      if (settled) return;
      settled = true;
      refill();
      clearTimeout(timeLimit);
      clearTimeout(killTimer);
      unwatch();
      ctx.signal.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) killRunner();
      // Everything in the attempt's cgroups first (what left its tree and tag too), then its tagged processes and
      // their descendants (all of them where there is no cgroup).
      const inCgroup = ((await cgroup?.killAll().catch(() => [])) ?? []).filter((pid) => pid !== stats.pid);
      const killed = inCgroup.length + (await killAttemptOffThread(tag).catch(() => 0));
      if (killed > 0) ctx.log(`killed ${killed} process(es) the attempt left behind`);
      cgroup?.remove();
      const end = outcome!;
      // A runner stopped before its own last pass (time limit, memory, crash) may have left the secrets in files.
      if (!('result' in end) && maskValues.length) {
        const changed = await maskRunFolder(ctx.runDir, maskValues).catch(() => 0);
        if (changed) ctx.log(`secrets masked in ${changed} file(s) the stopped runner left`);
      }
      onStats?.(stats);
      if ('result' in end) resolve(end.result);
      else reject(end.error);
    }
  });
}

/**
 * The attempt's kernel ceiling (attempt-cgroup.ts): above the monitor's limit, so the monitor's kill (and its
 * measure, PSS, which counts shared pages once) normally comes first and the kernel only stops what outgrows it.
 */
export function kernelCeilingBytes(limitBytes: number): number {
  return limitBytes + Math.max(limitBytes / 2, 256 * 1024 * 1024);
}

/** How many processes the kernel's out-of-memory killer has ended since boot (-1 where /proc does not say). */
function kernelOomKills(): number {
  try {
    return Number(/^oom_kill (\d+)$/m.exec(readFileSync('/proc/vmstat', 'latin1'))?.[1] ?? -1);
  } catch {
    return -1;
  }
}

function isRunnerResult(value: unknown): value is RunnerResult {
  const r = value as RunnerResult | null;
  return (
    typeof r === 'object' && r !== null && ['passed', 'failed', 'error'].includes(r.status) &&
    typeof r.totals === 'object' && typeof r.summary === 'object' && Array.isArray(r.artifacts)
  );
}
