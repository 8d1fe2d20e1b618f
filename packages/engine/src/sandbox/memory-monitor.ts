import { Worker } from 'node:worker_threads';
import { entryFile } from './entry-file.ts';
import { killAttemptProcesses, killUserProcesses, sweepOrphanedAttempts } from './process-table.ts';

/** How often the attempts' memory (every process they started) is measured. */
export const MEMORY_POLL_MS = 500;

/** What the monitor thread is asked and answers. */
export type MonitorRequest =
  | { type: 'watch'; tag: string; limitBytes: number }
  | { type: 'unwatch'; tag: string }
  /** Kill every process of an attempt (`tag`, but `except`), of a runner user (`uid`), or of every attempt whose owner died. */
  | { type: 'kill'; id: number; what: KillWhat };
export type MonitorMessage = { type: 'sample'; tag: string; usedBytes: number } | { type: 'killed'; id: number; count: number; left: number };

/** What a kill is asked to end. */
export type KillWhat = { tag: string; except?: number } | { uid: number } | { orphans: true };

/** Does a kill here, on whichever thread runs it. */
export async function killHereNow(what: KillWhat): Promise<{ count: number; left: number }> {
  if ('tag' in what) return { count: await killAttemptProcesses(what.tag, what.except === undefined ? {} : { except: what.except }), left: 0 };
  if ('uid' in what) {
    const { killed, left } = await killUserProcesses(what.uid);
    return { count: killed, left };
  }
  return { count: await sweepOrphanedAttempts(), left: 0 };
}

export interface MemoryWatch {
  tag: string;
  limitBytes: number;
  onSample(bytes: number): void;
  onOver(): void;
}

const WORKER_ENTRY = entryFile('memory-monitor-worker');
const watches = new Map<string, MemoryWatch>();
const pendingKills = new Map<number, { what: KillWhat; resolve: (answer: { count: number; left: number }) => void }>();
let nextKillId = 1;
let worker: Worker | null = null;

/** The thread is gone with kills pending: do them here rather than leave processes behind. */
function killHere(): void {
  for (const [id, pending] of pendingKills) {
    pendingKills.delete(id);
    void killHereNow(pending.what).then(pending.resolve, () => pending.resolve({ count: 0, left: -1 }));
  }
}

function monitor(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER_ENTRY);
  w.on('message', (message: MonitorMessage) => {
    if (message.type === 'killed') {
      pendingKills.get(message.id)?.resolve({ count: message.count, left: message.left });
      pendingKills.delete(message.id);
      if (pendingKills.size === 0) w.unref();
      return;
    }
    const watch = watches.get(message.tag);
    if (!watch) return;
    watch.onSample(message.usedBytes);
    if (message.usedBytes > watch.limitBytes) watch.onOver();
  });
  const lost = () => {
    if (worker !== w) return;
    worker = null;
    killHere();
  };
  w.on('error', lost);
  w.on('exit', lost);
  // The thread keeps the process alive only while a kill is pending (unref after the listeners: adding a
  // 'message' listener refs it again).
  w.unref();
  for (const watch of watches.values()) w.postMessage({ type: 'watch', tag: watch.tag, limitBytes: watch.limitBytes } satisfies MonitorRequest);
  worker = w;
  return w;
}

/**
 * Measures the memory of an attempt's process tree (every process carrying its tag, and their descendants) on a
 * thread of its own, one for all the attempts of this process. Returns the function that stops measuring.
 */
export function watchMemory(watch: MemoryWatch): () => void {
  watches.set(watch.tag, watch);
  monitor().postMessage({ type: 'watch', tag: watch.tag, limitBytes: watch.limitBytes } satisfies MonitorRequest);
  return () => {
    watches.delete(watch.tag);
    worker?.postMessage({ type: 'unwatch', tag: watch.tag } satisfies MonitorRequest);
  };
}

function killOffThread(what: KillWhat): Promise<{ count: number; left: number }> {
  const id = nextKillId++;
  return new Promise((resolve) => {
    pendingKills.set(id, { what, resolve });
    const w = monitor();
    w.ref();
    w.postMessage({ type: 'kill', id, what } satisfies MonitorRequest);
  });
}

/**
 * Kills every process of an attempt (but `except`) until none is left, on the monitor thread: finding them reads
 * each process's environment, which waits on its memory map lock. Answers how many were killed.
 */
export const killAttemptOffThread = async (tag: string, options: { except?: number } = {}): Promise<number> =>
  (await killOffThread(options.except === undefined ? { tag } : { tag, except: options.except })).count;

/**
 * Kills every process of the runner user `uid` until none is left (runner-pool.ts, when an attempt gives its user
 * back). Answers how many were killed and how many could not be (-1: the thread failed).
 */
export const killUserOffThread = (uid: number): Promise<{ count: number; left: number }> => killOffThread({ uid });

/** Kills the processes of attempts whose supervising process died (see sweepOrphanedAttempts), off the event loop. */
export const sweepOrphanedOffThread = async (): Promise<number> => (await killOffThread({ orphans: true })).count;
