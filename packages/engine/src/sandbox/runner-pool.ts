/**
 * A pool of runner users (issue 37): each running attempt leases a user of its own and gives it back when it has
 * ended, so two attempts running at once never share a uid. The kernel then keeps them apart as it keeps a runner
 * from the server (decision 0077): neither can read the other's /proc (environment, memory: login secrets and
 * sessions), signal it, or open its files. A user of the pool is dedicated to it: whatever process it still has when
 * its attempt ends is that attempt's, and is killed before the user is leased again.
 *
 * The users are claimed once per process (`claim`), for the process's lifetime: an abstract Unix socket named after
 * each (`\0fullstop-runner-lease:<name>`) is this process's while it lives and the kernel's to free when it dies,
 * so two Fullstop processes on one machine (two `fullstop worker`s) never claim the same user, and a killed one
 * leaves no stale lock. An automatic pool tries `fullstop-runner-1`, `-2`, ... and creates what does not exist
 * (`useradd --system`); a pool ENGINE_RUNNER_USER lists claims among those names only.
 */
import { execFile } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';
import { killUserOffThread } from './memory-monitor.ts';
import { removeFilesOf, resolveRunnerUser, type RunnerUser, runnerUserBlocker } from './runner-user.ts';

const run = promisify(execFile);

/** The automatic pool's names: `fullstop-runner-1`, `fullstop-runner-2`, ... */
export const RUNNER_POOL_PREFIX = 'fullstop-runner-';
/** Names an automatic pool tries at most (other Fullstop processes on the machine may hold the first ones). */
export const RUNNER_POOL_NAMES_MAX = 256;
/** A user whose processes could not all be killed is tried again this often before it is leased again. */
const QUARANTINE_RETRY_MS = 5_000;

/** One attempt's hold on a user of the pool. */
export interface RunnerLease {
  readonly user: RunnerUser;
  /** Kills every process the user still has: all of them are this attempt's. */
  killLeftovers(): Promise<{ killed: number; left: number }>;
  /** Gives the user back: to the pool once it has no process left (at once when killLeftovers left none). */
  release(): void;
}

/** What a pool is made of: the names ENGINE_RUNNER_USER lists, or `fullstop-runner-N` made as needed. */
export type RunnerPoolSource = { names: string[] } | { automatic: true; prefix?: string };

/** Attempts are refused: this process could not claim a single runner user. The code is not retried. */
export class RunnerPoolRefused extends Error {
  readonly code = 'engine_missing';

  constructor(message: string) {
    super(message);
    this.name = 'RunnerPoolRefused';
  }
}

/** How to fix a process that cannot get runner users, for every message that says it cannot. */
export const RUNNER_USERS_FIX =
  'set ENGINE_RUNNER_USER to an existing unprivileged user (or to a comma-separated list of them, one per test running at once), or run the server as a non-root user';

/** What the pool holds, for the start line and the console's System page. */
export interface RunnerPoolState {
  /** The users claimed, in order. */
  names: string[];
  /** Users this process created (an automatic pool). */
  created: string[];
  /** How many it wanted (workers + warm pool + 1). */
  size: number;
  /** Why it runs no attempt at all (then `names` is empty), with how to fix it. */
  refused: string | null;
  /** Why it holds fewer users than it wanted (attempts beyond them wait for a free one). */
  short: string | null;
}

/** Holds `name`'s lock for this process's lifetime, or answers null when another process holds it. */
function lockName(name: string): Promise<net.Server | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(null));
    server.listen({ path: `\0fullstop-runner-lease:${name}` }, () => {
      // The lock never keeps this process alive.
      server.unref();
      resolve(server);
    });
  });
}

const messageOf = (error: unknown) => ((error as { stderr?: string }).stderr?.trim() || (error as Error).message).split('\n')[0]!;

export class RunnerPool {
  /** Users wanted: one per attempt this process may run at once, plus its warm pool and a survey's crawl. */
  readonly size: number;
  readonly automatic: boolean;
  private readonly source: RunnerPoolSource;
  private readonly users: RunnerUser[] = [];
  private readonly created: string[] = [];
  private readonly free: RunnerUser[] = [];
  private readonly locks: net.Server[] = [];
  private readonly waiters: { resolve: (lease: RunnerLease) => void; reject: (error: Error) => void; signal?: AbortSignal; onAbort?: () => void }[] = [];
  private claiming: Promise<void> | null = null;
  private refusal: string | null = null;
  private shortfall: string | null = null;
  private closed = false;

  constructor(source: RunnerPoolSource, size: number) {
    this.source = source;
    this.size = Math.max(1, Math.floor(size));
    this.automatic = 'automatic' in source;
  }

  /**
   * Claims the pool's users (once; later calls answer the same promise): each not held by another process on this
   * machine, created when missing (automatic pool), checked (not root, not this process's user) and rid of any
   * process a previous owner left. Never rejects: a pool that got no user refuses attempts, saying why.
   */
  claim(): Promise<void> {
    this.claiming ??= this.claimUsers();
    return this.claiming;
  }

  /** The pool now (after `claim`). */
  state(): RunnerPoolState {
    return { names: this.users.map((u) => u.name), created: [...this.created], size: this.size, refused: this.refusal, short: this.shortfall };
  }

  /** A user of the pool, for what is the same for all of them (Chromium's sandbox, the network namespace). */
  representative(): RunnerUser | null {
    return this.users[0] ?? null;
  }

  /** Users free now (tests). */
  get freeCount(): number {
    return this.free.length;
  }

  /** A free user now, or null (none free, or not claimed yet): the warm pool's fork takes one or none. */
  tryLease(): RunnerLease | null {
    if (this.closed) return null;
    const user = this.free.shift();
    return user ? this.leaseOf(user) : null;
  }

  /**
   * A user of its own for one attempt: claims the pool first if need be, then takes a free user or waits for one.
   * Rejects with RunnerPoolRefused when the pool has no user at all, and with the signal's reason when aborted.
   */
  async lease(signal?: AbortSignal): Promise<RunnerLease> {
    await this.claim();
    if (this.refusal) throw new RunnerPoolRefused(`tests cannot run here: ${this.refusal}`);
    if (signal?.aborted) throw signal.reason as Error;
    const now = this.tryLease();
    if (now) return now;
    return new Promise<RunnerLease>((resolve, reject) => {
      const waiter: (typeof this.waiters)[number] = { resolve, reject, ...(signal ? { signal } : {}) };
      if (signal) {
        waiter.onAbort = () => {
          const index = this.waiters.indexOf(waiter);
          if (index >= 0) this.waiters.splice(index, 1);
          reject(signal.reason as Error);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.waiters.push(waiter);
    });
  }

  /** Lets every user go (tests): the locks are closed, and waiting attempts are refused. */
  close(): void {
    this.closed = true;
    for (const lock of this.locks.splice(0)) lock.close();
    for (const w of this.waiters.splice(0)) w.reject(new RunnerPoolRefused('the runner users were let go (the process is stopping)'));
    this.free.length = 0;
  }

  private leaseOf(user: RunnerUser): RunnerLease {
    let clean = false;
    let released = false;
    return {
      user,
      killLeftovers: async () => {
        const answer = await killUserOffThread(user.uid);
        clean = answer.left === 0;
        return { killed: answer.count, left: answer.left };
      },
      release: () => {
        if (released) return;
        released = true;
        if (clean) this.giveBack(user);
        else void this.cleanThenGiveBack(user);
      },
    };
  }

  /** A user with processes left (or not checked): killed again, every QUARANTINE_RETRY_MS, before it is leased. */
  private async cleanThenGiveBack(user: RunnerUser): Promise<void> {
    for (;;) {
      if (this.closed) return;
      const { left } = await killUserOffThread(user.uid).catch(() => ({ left: -1 }));
      if (left === 0) return this.giveBack(user);
      await new Promise((resolve) => setTimeout(resolve, QUARANTINE_RETRY_MS).unref());
    }
  }

  /** Back to the pool once it has no process left: with nothing of its last attempt in the shared temporary folders. */
  private giveBack(user: RunnerUser): void {
    if (this.closed) return;
    removeFilesOf(user.uid);
    const waiter = this.waiters.shift();
    if (!waiter) {
      this.free.push(user);
      return;
    }
    if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
    waiter.resolve(this.leaseOf(user));
  }

  private async claimUsers(): Promise<void> {
    const blocker = runnerUserBlocker();
    if (blocker) {
      this.refusal = `${blocker}, so runner processes cannot run as users of their own; ${RUNNER_USERS_FIX}`;
      return;
    }
    const automatic = 'automatic' in this.source;
    const names = 'names' in this.source ? this.source.names : Array.from({ length: RUNNER_POOL_NAMES_MAX }, (_, i) => `${(this.source as { prefix?: string }).prefix ?? RUNNER_POOL_PREFIX}${i + 1}`);
    const problems: string[] = [];
    let held = 0;
    for (const name of names) {
      if (this.users.length >= this.size) break;
      const lock = await lockName(name);
      if (!lock) {
        held++;
        continue;
      }
      let user: RunnerUser;
      try {
        user = await this.userNamed(name, automatic);
      } catch (error) {
        lock.close();
        problems.push(messageOf(error));
        // useradd missing or refused: the next name would fail the same way.
        if (automatic) break;
        continue;
      }
      if (this.users.some((u) => u.uid === user.uid)) {
        lock.close();
        problems.push(`"${name}" has the uid of "${this.users.find((u) => u.uid === user.uid)!.name}"`);
        continue;
      }
      this.locks.push(lock);
      this.users.push(user);
      // A previous owner killed with its attempts running may have left processes of this user.
      const { left } = await killUserOffThread(user.uid).catch(() => ({ left: -1 }));
      if (left === 0) this.giveBack(user);
      else void this.cleanThenGiveBack(user);
    }
    const inUse = held > 0 ? `${held} in use by other Fullstop processes on this machine` : '';
    const why = [inUse, ...problems].filter(Boolean).join('; ');
    if (this.users.length === 0) {
      this.refusal = automatic
        ? `this server runs as root and could not create its runner users (${why || 'no name left'}); ${RUNNER_USERS_FIX}`
        : `no user ENGINE_RUNNER_USER lists is free (${why || 'none listed'}); list more, or ${RUNNER_USERS_FIX}`;
    } else if (this.users.length < this.size) {
      this.shortfall = `${this.users.length} of the ${this.size} runner users wanted${why ? ` (${why})` : ''}: tests beyond ${this.users.length} at once wait for a free one`;
    }
  }

  /** The user `name`, checked; created first when missing in an automatic pool. */
  private async userNamed(name: string, automatic: boolean): Promise<RunnerUser> {
    try {
      return resolveRunnerUser(name);
    } catch (error) {
      if (!automatic || !/there is no user/.test((error as Error).message)) throw error;
    }
    try {
      await run('useradd', ['--system', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', '--user-group', name]);
    } catch (error) {
      throw new Error(`useradd ${name}: ${messageOf(error)}`);
    }
    this.created.push(name);
    return resolveRunnerUser(name);
  }
}

/** A pool to lease from (an attempt gets a user of its own), or one user (shared by every attempt). */
export const isRunnerPool = (value: unknown): value is RunnerPool => value instanceof RunnerPool;
