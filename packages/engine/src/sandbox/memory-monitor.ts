import { Worker } from 'node:worker_threads';

/** How often the attempts' memory (every process they started) is measured. */
export const MEMORY_POLL_MS = 500;

/** What the monitor thread is asked and answers. */
export type MonitorRequest = { type: 'watch'; tag: string; limitBytes: number } | { type: 'unwatch'; tag: string };
export interface MonitorSample {
  tag: string;
  usedBytes: number;
}

export interface MemoryWatch {
  tag: string;
  limitBytes: number;
  onSample(bytes: number): void;
  onOver(): void;
}

const WORKER_ENTRY = new URL('./memory-monitor-worker.ts', import.meta.url);
const watches = new Map<string, MemoryWatch>();
let worker: Worker | null = null;

function monitor(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER_ENTRY);
  // The thread never keeps the process alive, and a failure of it only stops the measuring until the next watch.
  w.unref();
  w.on('message', (sample: MonitorSample) => {
    const watch = watches.get(sample.tag);
    if (!watch) return;
    watch.onSample(sample.usedBytes);
    if (sample.usedBytes > watch.limitBytes) watch.onOver();
  });
  w.on('error', () => {
    if (worker === w) worker = null;
  });
  w.on('exit', () => {
    if (worker === w) worker = null;
  });
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
