/**
 * The runner process: one per attempt, forked by the supervisor (supervisor.ts), fresh or ahead of time into the
 * warm pool (warm-pool.ts). It loads the runner of its test's kind, runs it, streams log and progress lines over
 * IPC and answers the result, then exits. It never opens the database and sees only an allow-listed environment.
 * Runs on Node's own type stripping: no loader to start.
 *
 * Before 'ready' it loads only what every attempt needs: the login (Playwright, ~0.5 s of CPU), the secrets'
 * masking (zip readers) and the process table are imported by the attempts that use them. A pre-forked process
 * also loads, while it waits, what every runner of its pool imports (`process.argv[2]`, see warm-pool.ts).
 */
import { writeFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { pathToFileURL } from 'node:url';
import type { LoginSession } from '../lib/login-session.ts';
import type * as Masking from '../lib/mask-secrets.ts';
import { errorMessage, NO_TOTALS } from '../lib/result.ts';
import type { DeviceSessionPart, DeviceSessionRequest, Runner, TestKind } from '../types.ts';
import type * as ProcessTable from './process-table.ts';
import { ATTEMPT_TAG_VAR } from './child-env.ts';
import { KIND_RUNNERS } from './kind-runners.ts';
import { ENGINE_RUNNERS_PRELOAD, type HostMessage, type HostRequest, RUNNER_NICENESS, SUBREAPER_VAR } from './protocol.ts';

/** How long an exiting host waits for its last message to leave. */
const LAST_MESSAGE_WAIT_MS = 2_000;

// The launcher set this already, unless it may not renice another user's process; lowering one's own needs nothing.
try {
  if (getPriority() < RUNNER_NICENESS) setPriority(RUNNER_NICENESS);
} catch {
  // The launcher's value stands.
}
// The same for the out-of-memory killer's choice (raising one's own score needs nothing either): the launcher's
// write may come after a wrapper (containment.ts) forked.
try {
  writeFileSync('/proc/self/oom_score_adj', '1000');
} catch {
  // No /proc: the launcher's value stands.
}
// What the runner and its tools write is theirs alone: another runner user reads none of it, in /tmp either.
process.umask(0o077);

/**
 * Started as a child subreaper (no cgroup holds the attempt, containment.ts): whatever its tree orphans is
 * reparented here, so it kills its descendants before it exits. Its tools need not know.
 */
const subreaper = process.env[SUBREAPER_VAR] === '1';
delete process.env[SUBREAPER_VAR];
/** process-table.ts, loaded while the runner waits: the exit hook below cannot wait for an import. */
let table: typeof ProcessTable | null = null;
if (subreaper) void import('./process-table.ts').then((m) => (table = m));

/** SIGKILLs this process's descendants, a few rounds apart until none is left (a process may fork meanwhile). */
async function killDescendants(): Promise<void> {
  if (!subreaper) return;
  table ??= await import('./process-table.ts');
  for (let round = 0; round < 20; round++) {
    const pids = table.descendantsOf(process.pid);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// Whatever way it exits (process.exit in a runner, a fatal error): one last round, synchronously.
process.on('exit', () => {
  if (!subreaper || !table) return;
  for (const pid of table.descendantsOf(process.pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
});

const controller = new AbortController();
let exiting = false;
/** Every form of the attempt's secret values: no message leaves this process with one of them (decision 0060). */
let masks: string[] = [];
/** The masking functions, loaded by an attempt with secrets (before `masks` can hold anything). */
let masking: typeof Masking | null = null;

const masked = <T>(value: T): T => (masking && masks.length ? masking.maskValue(value, masks) : value);

function send(message: HostMessage): void {
  // The masks message carries the values themselves, for the supervisor to mask the runner's output with.
  if (process.connected) process.send?.(message.type === 'masks' ? message : masked(message));
}

function exitAfter(message: HostMessage, code: number): void {
  if (exiting) return;
  exiting = true;
  // A subreaper takes its tree down before it goes; the supervisor waits for the exit anyway.
  let leaving = false;
  const exit = () => {
    if (leaving) return;
    leaving = true;
    void killDescendants().finally(() => process.exit(code));
  };
  setTimeout(exit, LAST_MESSAGE_WAIT_MS).unref();
  if (!process.connected) return exit();
  process.send!(masked(message), undefined, undefined, exit);
}

const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
process.on('uncaughtException', (error) => exitAfter({ type: 'fatal', message: describe(error) }, 70));
process.on('unhandledRejection', (error) => exitAfter({ type: 'fatal', message: describe(error) }, 70));

// The supervisor is gone (killed): take this attempt's browsers and tools down, then go. A pre-forked process
// that was never given a test has none, and goes all the same.
process.on('disconnect', () => {
  const tag = process.env[ATTEMPT_TAG_VAR];
  void (tag ? import('./process-table.ts').then((table) => table.killAttemptProcesses(tag)) : Promise.resolve())
    .catch(() => 0)
    .finally(() => process.exit(1));
});

async function loadRunner(kind: TestKind, runnersModule: string | undefined): Promise<Runner | undefined> {
  if (!runnersModule) return KIND_RUNNERS[kind]?.();
  const mod = (await import(pathToFileURL(runnersModule).href)) as { runners?: Partial<Record<TestKind, Runner>> };
  return mod.runners?.[kind];
}

/** Masks the secrets' values in every file of the attempt's folder, traces' entries included. */
async function maskFiles(runDir: string, values: string[]): Promise<void> {
  if (!values.length) return;
  masking ??= await import('../lib/mask-secrets.ts');
  const changed = await masking.maskRunFolder(runDir, values);
  if (changed) send({ type: 'log', message: `secrets masked in ${changed} file(s) of the attempt` });
}

/**
 * What a pre-forked process loads while it waits: the runners module its pool runs (tests, benches), or what
 * every kind's runner of the engine imports. Never fatal: the attempt loads it again and says what failed.
 */
async function preload(what: string | undefined): Promise<void> {
  if (!what) return;
  try {
    if (what === ENGINE_RUNNERS_PRELOAD) await Promise.all([import('../lib/define-runner.ts'), import('../lib/options.ts'), import('../policy/target-guard.ts')]);
    else await import(pathToFileURL(what).href);
  } catch {
    // Reported by the attempt's own import.
  }
}

/** The device sessions asked of the supervisor and not answered yet, by the request's id. */
const deviceCalls = new Map<number, { resolve: (url: string | undefined) => void; reject: (error: Error) => void }>();
let deviceCallSeq = 0;

/** Asks the supervisor (the server) to open or let go a mobile UI test's device session, and waits for its answer. */
function deviceCall(message: { type: 'device-open'; request: DeviceSessionRequest } | { type: 'device-close'; index: number; part?: DeviceSessionPart }): Promise<string | undefined> {
  const id = ++deviceCallSeq;
  return new Promise((resolve, reject) => {
    deviceCalls.set(id, { resolve, reject });
    send({ ...message, id });
  });
}

function deviceAnswer(answer: Extract<HostRequest, { type: 'device' }>): void {
  const call = deviceCalls.get(answer.id);
  if (!call) return;
  deviceCalls.delete(answer.id);
  if (answer.error) call.reject(Object.assign(new Error(answer.error), answer.code ? { code: answer.code } : {}));
  else call.resolve(answer.url);
}

async function run(request: Extract<HostRequest, { type: 'run' }>): Promise<void> {
  const secrets = request.secrets ?? {};
  let values = Object.values(secrets).filter((v) => v.length > 0);
  try {
    // Pre-forked in a folder of no attempt: what the runner and its tools write relative goes to the attempt's.
    process.chdir(request.ctx.runDir);
    if (values.length || request.test.login) masking = await import('../lib/mask-secrets.ts');
  } catch (error) {
    return exitAfter({ type: 'threw', message: `the runner process could not start the attempt: ${errorMessage(error)}` }, 0);
  }
  masks = masking?.maskForms(values) ?? [];
  const ctx = {
    ...request.ctx,
    signal: controller.signal,
    log: (message: string, data?: Record<string, unknown>) => send(data === undefined ? { type: 'log', message } : { type: 'log', message, data }),
    progress: (progress: { done: number; total: number; message?: string }) => send({ type: 'progress', progress }),
    openDevice: async (device: DeviceSessionRequest) => {
      const url = await deviceCall({ type: 'device-open', request: device });
      if (!url) throw new Error('the server answered no Appium URL for the device');
      return { url };
    },
    closeDevice: async (index: number, part?: DeviceSessionPart) => {
      await deviceCall({ type: 'device-close', index, ...(part ? { part } : {}) });
    },
  };
  try {
    const runner = await loadRunner(request.kind, request.runnersModule);
    if (!runner) return exitAfter({ type: 'threw', message: `no runner is installed for the kind "${request.kind}"`, code: 'validation_error' }, 0);
    send({ type: 'loaded' });
    // The login happens once per attempt, here, before the runner starts: every kind gets the same session.
    let login: LoginSession | undefined;
    if (request.test.login) {
      ctx.log(`logging in (${request.test.login.type} login)`);
      const started = performance.now();
      try {
        const { resolveLogin } = await import('../lib/login.ts');
        login = await resolveLogin(request.test.login, secrets, request.target, ctx);
      } catch (error) {
        // Like any runner's failure to run: an error result with its code, so the queue records why.
        await maskFiles(request.ctx.runDir, values);
        const code = (error as { code?: unknown }).code;
        const message = errorMessage(error);
        ctx.log('login failed', { error: message });
        return exitAfter({ type: 'result', result: { status: 'error', totals: NO_TOTALS, durationMs: performance.now() - started, summary: runner.facts.emptySummary(), artifacts: [], error: message, ...(typeof code === 'string' ? { errorCode: code } : {}) } }, 0);
      }
      values = login.masks;
      masks = masking!.maskForms(values);
      ctx.log('logged in');
    }
    if (values.length) send({ type: 'masks', values });
    const result = await runner.run(request.test, request.target, { ...ctx, ...(login ? { login } : {}) });
    await maskFiles(request.ctx.runDir, values);
    exitAfter({ type: 'result', result }, 0);
  } catch (error) {
    await maskFiles(request.ctx.runDir, values).catch(() => undefined);
    const code = (error as { code?: unknown }).code;
    const message = (error as Error).message ?? String(error);
    exitAfter({ type: 'threw', message: masking ? masking.maskText(message, masks) : message, ...(typeof code === 'string' ? { code } : {}) }, 0);
  }
}

/** One attempt per process, whatever arrives: nothing of one attempt can reach another. */
let given = false;

process.on('message', (request: HostRequest) => {
  if (request.type === 'run' && !given) {
    given = true;
    void run(request);
  } else if (request.type === 'abort') controller.abort(new Error(request.reason));
  else if (request.type === 'device') deviceAnswer(request);
});
void preload(process.argv[2]).finally(() => send({ type: 'ready' }));
