/**
 * The launcher: a small process that forks runner processes on the supervisor's behalf and relays their messages,
 * output and exit. fork() copies the forking process's page tables: from the API process (hundreds of MB, the
 * embedded database's heap among them) it blocked the event loop for ~40 ms per attempt when idle and 100+ ms on
 * a busy machine; from this ~40 MB process it costs a few ms, and nobody waits on it. Started by launcher-client.ts.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { type LauncherEvent, type LauncherRequest, SUBREAPER_SCRIPT } from './launcher-protocol.ts';

/** The kernel's out-of-memory killer picks the process with the highest score first: runners, at the top. */
const RUNNER_OOM_SCORE_ADJ = 1000;

const children = new Map<number, ChildProcess>();

function send(event: LauncherEvent): void {
  if (process.connected) process.send?.(event);
}

function spawnChild(request: Extract<LauncherRequest, { type: 'spawn' }>): void {
  const { id } = request;
  let child: ChildProcess;
  try {
    // Where no cgroup holds the attempt: `python3 -c <prctl; exec node>`, so orphans of its tree stay its descendants.
    const wrapped = request.subreaper ? { execPath: request.subreaper, execArgv: ['-I', '-S', '-c', SUBREAPER_SCRIPT, process.execPath, ...request.execArgv] } : { execArgv: request.execArgv };
    child = fork(request.entry, request.args, {
      cwd: request.cwd,
      env: request.env,
      ...wrapped,
      // Switched in the forked child before Node starts (setgroups, setgid, setuid): from root, the kernel drops
      // every capability with it, so the runner is a plain user (docs/decisions/0077).
      ...(request.uid !== undefined && request.gid !== undefined ? { uid: request.uid, gid: request.gid } : {}),
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
  } catch (error) {
    send({ type: 'error', id, message: (error as Error).message });
    return;
  }
  children.set(id, child);
  if (child.pid !== undefined) {
    try {
      // A runner of another user needs CAP_SYS_NICE here (a container's root lacks it): it lowers its own
      // priority as it starts as well (runner-host.ts).
      setPriority(child.pid, request.niceness);
    } catch {
      // Already gone (its exit is relayed below), or not allowed.
    }
    try {
      // If the machine runs out of memory before the monitor's next poll, the kernel ends a runner (and the
      // browsers it starts, which inherit this), never the API process or the database.
      writeFileSync(`/proc/${child.pid}/oom_score_adj`, String(RUNNER_OOM_SCORE_ADJ));
    } catch {
      // Already gone, or no /proc.
    }
  }
  send({ type: 'spawned', id, pid: child.pid ?? 0 });
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('error', () => {});
    stream.setEncoding('utf8').on('data', (chunk: string) => send({ type: 'output', id, chunk }));
  }
  child.on('message', (message: unknown) => send({ type: 'message', id, message }));
  child.on('error', (error) => send({ type: 'error', id, message: error.message }));
  child.on('disconnect', () => send({ type: 'disconnect', id }));
  child.on('exit', (code, signal) => {
    children.delete(id);
    send({ type: 'exit', id, code, signal });
  });
}

process.on('message', (request: LauncherRequest) => {
  switch (request.type) {
    case 'spawn':
      spawnChild(request);
      break;
    case 'send': {
      const child = children.get(request.id);
      if (child?.connected) child.send(request.message as never, () => {});
      break;
    }
    case 'kill':
      children.get(request.id)?.kill(request.signal);
      break;
  }
});

// The supervisor is gone: so is this. Each runner process sees its channel close, takes its own browsers and
// tools down, and exits (runner-host.ts); killing them here would leave those behind.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
