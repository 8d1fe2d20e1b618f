import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { AttemptTracker } from './attempt-tracker.ts';
import { residentBytes } from './process-table.ts';
import { killHereNow, MEMORY_POLL_MS, type MonitorMessage, type MonitorRequest } from './memory-monitor.ts';

/**
 * The monitor's thread: it reads /proc for every watched attempt of its process, and finds and kills the
 * processes of attempts that ended. Reading another process's /proc files (its environment above all) can wait
 * on that process's memory map lock (a browser mapping hundreds of MB), so this is done here, where waiting
 * blocks nobody, rather than on the event loop that answers clients. It polls only while attempts are watched,
 * and between polls keeps each attempt's processes, reading only the processes started since (attempt-tracker.ts).
 */
const watched = new Map<string, number>();
const tracker = new AttemptTracker();
let poller: NodeJS.Timeout | null = null;

/** PSS: a page shared by n processes counts 1/n in each, so a tree's sum counts Chromium's libraries once. */
function pssBytes(pid: number): number {
  try {
    const kb = /^Pss:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'latin1'))?.[1];
    if (kb) return Number(kb) * 1024;
  } catch {
    // Older kernel, or gone: VmRSS.
  }
  return residentBytes(pid) ?? 0;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

function poll(): void {
  const processes = tracker.poll();
  for (const [tag, limitBytes] of watched) {
    const resident = processes.get(tag) ?? new Map<number, number>();
    // VmRSS is never less than PSS: only a tree over the limit in VmRSS needs the costlier PSS read.
    let used = sum([...resident.values()]);
    if (used > limitBytes) used = sum([...resident.keys()].map(pssBytes));
    parentPort!.postMessage({ type: 'sample', tag, usedBytes: used } satisfies MonitorMessage);
  }
}

/** Polls while some attempt is watched; at rest the thread does nothing. */
function updatePoller(): void {
  if (watched.size > 0 && !poller) poller = setInterval(poll, MEMORY_POLL_MS);
  if (watched.size === 0 && poller) {
    clearInterval(poller);
    poller = null;
    tracker.pause();
  }
}

parentPort!.on('message', (request: MonitorRequest) => {
  if (request.type === 'watch') {
    watched.set(request.tag, request.limitBytes);
    tracker.watch(request.tag);
  } else if (request.type === 'unwatch') {
    watched.delete(request.tag);
    tracker.unwatch(request.tag);
  } else {
    const { id, what } = request;
    void killHereNow(what)
      .catch(() => ({ count: 0, left: -1 }))
      .then(({ count, left }) => parentPort!.postMessage({ type: 'killed', id, count, left } satisfies MonitorMessage));
  }
  updatePoller();
});
