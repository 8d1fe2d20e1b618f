import { randomBytes } from 'node:crypto';
import type { RemoteChild } from './launcher-client.ts';
import type { RunnerLease, RunnerPool } from './runner-pool.ts';
import type { RunnerUser } from './runner-user.ts';
import { attemptTag } from './process-table.ts';
import type { HostMessage } from './protocol.ts';

/** Runner processes kept waiting at most, whatever the engine's config asks (ENGINE_WARM_RUNNERS). */
export const WARM_POOL_MAX = 2;
/** A running attempt refills the pool after this long, or at its end if that comes first (supervisor.ts). */
export const WARM_REFILL_AFTER_MS = 1_000;
/**
 * No attempt running, and none started or ended for this long: the pool is emptied, so a server at rest holds no
 * runner process (~80 MB RSS each; the launcher follows, launcher-client.ts). Attempts of one run follow each other
 * within seconds (a retry waits 2 s); the next run after a pause forks its first runner fresh (decision 0105).
 */
export const WARM_POOL_IDLE_MS = 15_000;
/** What a pre-forked runner's attempt key starts with: its tag reads `<owner pid>.<owner start>.warm-<hex>`. */
const WARM_KEY_PREFIX = 'warm-';

/** Whether a tag is a pre-forked runner's (one still waiting, or the attempt that took it). */
export const isWarmTag = (tag: string | null): boolean => tag?.split('.')[2]?.startsWith(WARM_KEY_PREFIX) ?? false;

/** What is fixed when a runner process is forked: an attempt that needs another gets a fresh fork. */
export interface RunnerShape {
  /** The heap limit (`--max-old-space-size`), the attempt's memory limit. */
  memoryMb: number;
  /** The allow-listed environment (child-env.ts), the tag aside. */
  env: NodeJS.ProcessEnv;
  /** The module whose runners it runs and loads ahead (tests, benches); the engine's own otherwise. */
  runnersModule: string | undefined;
  /**
   * The OS user it runs as: one user (runner-user.ts), a pool each runner process leases a user of its own from
   * (runner-pool.ts, at the fork for a pre-forked one), or null: this process's.
   */
  runAs: RunnerUser | RunnerPool | null;
}

/** A runner process forked ahead of its attempt, with the tag it carries from birth (the attempt's, once taken). */
export interface WarmRunner {
  child: RemoteChild;
  tag: string;
  /** The user it was forked as (null: this process's), and its lease when that user is the pool's. */
  user: RunnerUser | null;
  lease: RunnerLease | null;
  /** When it said 'ready' (performance.now()); null while it is still loading. */
  readyAt: number | null;
}

/**
 * Forks a runner process of `shape` carrying `tag`, not yet given a test, with the user it runs as (leased from the
 * shape's pool, held until the process has run its attempt or died); null when it cannot now (no user free).
 */
export type ForkWaiting = (shape: RunnerShape, tag: string) => { child: RemoteChild; user: RunnerUser | null; lease: RunnerLease | null } | null;

interface Waiting extends WarmRunner {
  shape: string;
}

/** Pools by identity: a shape names its pool, not the user a waiting process leased from it. */
const poolIds = new WeakMap<object, number>();
let lastPoolId = 0;
const runAsKey = (runAs: RunnerShape['runAs']) => {
  if (!runAs) return null;
  if ('uid' in runAs) return `${runAs.uid}:${runAs.gid}`;
  if (!poolIds.has(runAs)) poolIds.set(runAs, ++lastPoolId);
  return `pool ${poolIds.get(runAs)}`;
};

const shapeKey = (shape: RunnerShape) =>
  JSON.stringify([shape.memoryMb, shape.runnersModule ?? null, runAsKey(shape.runAs), Object.entries(shape.env).sort(([a], [b]) => (a < b ? -1 : 1))]);

/** A waiting process's user goes back to its pool: every process of it killed first (the waiting one included). */
async function endLease(lease: RunnerLease | null): Promise<void> {
  if (!lease) return;
  await lease.killLeftovers().catch(() => undefined);
  lease.release();
}

const alive = (child: RemoteChild) => child.connected && child.exitCode === null && child.signalCode === null;

/**
 * A few runner processes forked and loaded before any attempt asks (docs/decisions/0068). Each still runs one
 * attempt and exits: taking one only skips its start. The pool fills once this process runs attempts (never at
 * boot), refills after a take off the attempt's critical path (at its end, or a second into a long one), keeps
 * only processes of the shape last asked for, and empties after WARM_POOL_IDLE_MS with no attempt running. A
 * waiting process that dies is replaced at the next refill.
 */
export class WarmPool {
  private waiting: Waiting[] = [];
  private idleTimer: NodeJS.Timeout | null = null;
  /** Attempts running now: the pool is never idle while one runs, however long. */
  private running = 0;
  private readonly fork: ForkWaiting;
  private readonly idleMs: number;

  constructor(fork: ForkWaiting, idleMs = WARM_POOL_IDLE_MS) {
    this.fork = fork;
    this.idleMs = idleMs;
  }

  /** Processes waiting now (tests, benches). */
  get size(): number {
    return this.waiting.length;
  }

  /** A waiting process of this shape, out of the pool; null when there is none (or `size` is 0: the pool is off). */
  take(shape: RunnerShape, size: number): WarmRunner | null {
    this.busy();
    if (size <= 0) return null;
    const key = shapeKey(shape);
    const index = this.waiting.findIndex((w) => w.shape === key && alive(w.child));
    if (index < 0) return null;
    const [taken] = this.waiting.splice(index, 1);
    return taken!;
  }

  /**
   * Brings the pool to `size` processes of `shape`, ending those of another shape (another memory limit,
   * environment or runners module: the attempts now ask for this one). Size 0 empties it.
   */
  refill(shape: RunnerShape, size: number): void {
    this.busy();
    const key = shapeKey(shape);
    for (const w of this.waiting.filter((w) => w.shape !== key || !alive(w.child) || size <= 0)) this.retire(w);
    const wanted = Math.min(Math.max(size, 0), WARM_POOL_MAX);
    while (this.waiting.length > wanted) this.retire(this.waiting[this.waiting.length - 1]!);
    while (this.waiting.length < wanted) if (!this.start(shape, key)) break;
  }

  /**
   * An attempt starts: the pool is not idle until it ends, whether it took a waiting process or not (the next one
   * may). Answers the function to call once it has ended.
   */
  attemptStarted(): () => void {
    this.running++;
    this.busy();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.running--;
      this.busy();
    };
  }

  /** The pool is in use: its idle time starts again, once no attempt runs. */
  busy(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.running > 0) return;
    this.idleTimer = setTimeout(() => this.drain(), this.idleMs);
    // The pool never keeps this process alive by itself.
    this.idleTimer.unref();
  }

  /** Ends every waiting process. */
  drain(): void {
    for (const w of [...this.waiting]) this.retire(w);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  /** Forks one waiting process; false when none can be forked now (its pool has no free user). */
  private start(shape: RunnerShape, key: string): boolean {
    const tag = attemptTag(`${WARM_KEY_PREFIX}${randomBytes(8).toString('hex')}`);
    const forked = this.fork(shape, tag);
    if (!forked) return false;
    const { child, user, lease } = forked;
    const waiting: Waiting = { child, tag, user, lease, readyAt: null, shape: key };
    child.on('message', (message: HostMessage) => {
      if (message.type === 'ready') waiting.readyAt ??= performance.now();
    });
    const leave = () => {
      const was = this.waiting.length;
      this.waiting = this.waiting.filter((w) => w !== waiting);
      // Died while waiting (never taken): its user goes back once nothing of it is left.
      if (this.waiting.length < was) void endLease(lease);
    };
    child.on('error', leave);
    child.on('exit', leave);
    this.waiting.push(waiting);
    return true;
  }

  private retire(w: Waiting): void {
    this.waiting = this.waiting.filter((x) => x !== w);
    // Never given a test: nothing of it to keep or clean but the process, and its user's lease.
    if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    void endLease(w.lease);
  }
}
