import { type ChildProcess, fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { entryFile } from './entry-file.ts';
import type { LauncherEvent, LauncherRequest } from './launcher-protocol.ts';

const LAUNCHER_ENTRY = entryFile('launcher');
/**
 * With no runner process for this long (the warm pool emptied too, warm-pool.ts), the launcher is let go: ~50 MB RSS
 * a server at rest need not hold. The next attempt starts one again (~45 ms here) before its fork (decision 0105).
 */
export const LAUNCHER_IDLE_MS = 5_000;

/**
 * A runner process seen through the launcher: the part of ChildProcess the supervisor uses (pid once known,
 * send, kill, connected, exit state, output streams, and the `message`, `error`, `disconnect` and `exit` events).
 */
export class RemoteChild extends EventEmitter {
  pid = 0;
  connected = true;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();

  readonly id: number;
  private readonly launcher: Launcher;

  constructor(id: number, launcher: Launcher) {
    super();
    this.id = id;
    this.launcher = launcher;
  }

  send(message: unknown, callback?: () => void): void {
    this.launcher.request({ type: 'send', id: this.id, message });
    callback?.();
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    this.launcher.request({ type: 'kill', id: this.id, signal });
  }

  /** @internal */
  deliver(event: LauncherEvent): void {
    switch (event.type) {
      case 'spawned':
        this.pid = event.pid;
        this.emit('spawn');
        break;
      case 'output':
        this.stdout.write(event.chunk);
        break;
      case 'message':
        this.emit('message', event.message);
        break;
      case 'error':
        this.emit('error', new Error(event.message));
        break;
      case 'disconnect':
        if (!this.connected) break;
        this.connected = false;
        this.emit('disconnect');
        break;
      case 'exit':
        if (this.exitCode !== null || this.signalCode !== null) break;
        this.exitCode = event.code;
        this.signalCode = event.code === null ? (event.signal ?? 'SIGKILL') : null;
        this.stdout.end();
        this.stderr.end();
        this.emit('exit', this.exitCode, this.signalCode);
        break;
    }
  }
}

class Launcher {
  private readonly process: ChildProcess;
  private readonly children = new Map<number, RemoteChild>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  dead = false;

  constructor() {
    this.process = fork(LAUNCHER_ENTRY, [], {
      // Only what forking needs: the runner processes get their own allow-listed environment from the request.
      env: { PATH: process.env.PATH ?? '' },
      execArgv: [],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    // The launcher never keeps this process alive by itself; the attempts' own timers do while they run.
    this.process.unref();
    this.process.channel?.unref();
    this.process.on('message', (event: LauncherEvent) => {
      if (event.type === 'ready') return;
      const child = this.children.get(event.id);
      if (!child) return;
      child.deliver(event);
      if (event.type === 'exit') this.forget(event.id);
    });
    const lost = () => {
      if (this.dead) return;
      this.dead = true;
      // Its runner processes die with it (they kill their own processes when their channel closes).
      for (const child of this.children.values()) {
        child.deliver({ type: 'disconnect', id: child.id });
        child.deliver({ type: 'exit', id: child.id, code: null, signal: 'SIGKILL' });
      }
      this.children.clear();
    };
    this.process.on('error', lost);
    this.process.on('exit', lost);
  }

  /** The launcher's pid (tests). */
  get pid(): number | undefined {
    return this.process.pid;
  }

  spawn(options: Omit<Extract<LauncherRequest, { type: 'spawn' }>, 'type' | 'id'>): RemoteChild {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const child = new RemoteChild(this.nextId++, this);
    this.children.set(child.id, child);
    this.request({ type: 'spawn', id: child.id, ...options });
    return child;
  }

  /** A runner process has ended: the last one starts the launcher's idle time. */
  private forget(id: number): void {
    this.children.delete(id);
    if (this.children.size > 0 || this.dead || this.idleTimer) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.children.size > 0 || this.dead) return;
      // Closing its channel ends it (launcher.ts); the next launch() starts another.
      this.dead = true;
      if (this.process.connected) this.process.disconnect();
    }, LAUNCHER_IDLE_MS);
    // The idle time never keeps this process alive.
    this.idleTimer.unref();
  }

  /** The launcher died before the request could leave: the runner process ends at once, as one that crashed. */
  private orphan(id: number): void {
    const child = this.children.get(id);
    if (!child) return;
    this.children.delete(id);
    setImmediate(() => {
      child.deliver({ type: 'disconnect', id });
      child.deliver({ type: 'exit', id, code: null, signal: 'SIGKILL' });
    });
  }

  request(request: LauncherRequest): void {
    if (this.dead || !this.process.connected) {
      if (request.type === 'spawn') this.orphan(request.id);
      return;
    }
    this.process.send(request, (error) => {
      if (error && request.type === 'spawn') this.orphan(request.id);
    });
  }
}

let launcher: Launcher | null = null;

/**
 * Forks a runner process through the launcher, which is started on first use, again if it died, and again after it
 * was let go for want of runner processes (LAUNCHER_IDLE_MS).
 */
export function launch(options: Omit<Extract<LauncherRequest, { type: 'spawn' }>, 'type' | 'id'>): RemoteChild {
  if (!launcher || launcher.dead) launcher = new Launcher();
  return launcher.spawn(options);
}

/** The pid of the launcher in use now, or null when there is none (not started yet, or let go) (tests). */
export const launcherPid = (): number | null => (launcher && !launcher.dead ? (launcher.pid ?? null) : null);
